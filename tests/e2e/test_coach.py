"""The coach (issue 23): a Hint button in a coached game's panel, answered privately in the
player's language; turning points on the final message; never in league games."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import coach
from bot.service.rights import LeagueRole, Member
from engine import games
from tests.discord_double import InteractionRecord, MessageRecord, UserSpec
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    custom_id,
    has_png,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


class OneLeagueGame:
    """League rights that say one game was played for a league (the others are not)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id

    async def league_role(self, game_id: int, member: Member) -> LeagueRole | None:
        """The league of the one game, organised by nobody here."""
        return LeagueRole("Spring", False) if game_id == self.game_id else None

    async def league_name(self, game_id: int) -> str | None:
        """The league's name for the one game."""
        return "Spring" if game_id == self.game_id else None


async def coached_game(
    env: Env, guests: tuple[UserSpec, ...] = (), computers: bool = False
) -> Table:
    """A game whose host turned the coach on in the lobby."""
    lobby = await env.open_lobby(HOST, seats=1 + len(guests) + computers, computers=computers)
    menu = custom_id(env.double.message(lobby.id), "himiko:lobby:computers:")
    on = await env.double.click(HOST, CHANNEL, lobby.id, menu, values=["coach_on"])
    assert (await on.response(TIMEOUT)).type == 7
    assert "Coach on" in env.double.message(lobby.id).text()
    for guest in guests:
        joined = await env.lobby_click(guest, env.double.message(lobby.id), "join")
        assert (await joined.response(TIMEOUT)).type == 7
    before = {t.id for t in env.double.threads(CHANNEL)}
    start = await env.lobby_click(HOST, env.double.message(lobby.id), "start")
    await start.wait_event("edit_original", TIMEOUT)
    thread = await env.double.wait_for_thread(CHANNEL, lambda t: t.id not in before)
    opening = await env.double.wait_for_message(thread.id, has_png, TIMEOUT)
    return Table(thread, opening, lobby)


async def panel(env: Env, user: UserSpec, table: Table, locale: str = "en-US") -> MessageRecord:
    """The user's turn panel (``/turn``)."""
    rec = await env.double.slash(user, table.id, "turn", locale=locale)
    found = await rec.reply(TIMEOUT)
    assert found.ephemeral
    return found


async def click(
    env: Env,
    user: UserSpec,
    table: Table,
    message: MessageRecord,
    prefix: str,
    locale: str = "en-US",
) -> InteractionRecord:
    """Click the button whose custom id starts with ``prefix``."""
    return await env.double.click(
        user, table.id, message.id, custom_id(message, prefix), locale=locale
    )


def test_the_hint_is_private_in_the_player_s_language_with_three_choices(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, (GUEST,))
            game = await env.game(table.id)
            assert game.coach and game.computer_level == "normal"
            first = GUEST if await env.current_user(table.id) == GUEST.id else HOST
            shown = await panel(env, first, table, "fr")
            version = await env.version(table.id)
            hint = await click(env, first, table, shown, "himiko:panel:hint:", "fr")
            answer = await hint.reply(TIMEOUT)
            assert answer.ephemeral
            lines = answer.content.splitlines()
            legal = (await env.match(table.id)).legal_actions()
            assert lines[0].startswith("Ce que ferait le joueur ordinateur fort")
            assert all("environ" in line and "%" in line for line in lines[1:])
            assert len(lines) == 1 + min(3, len(legal))
            assert await env.version(table.id) == version  # a hint plays nothing
            assert not [
                m
                for m in env.double.messages(table.id, include_ephemeral=False)
                if "%" in m.content
            ]

    run(body)


def test_no_hint_without_the_coach_nor_in_a_league_game(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            plain = await env.start_game(HOST, [GUEST])
            player = GUEST if await env.current_user(plain.id) == GUEST.id else HOST
            assert not [
                c
                for c in (await panel(env, player, plain)).custom_ids()
                if c.startswith("himiko:panel:hint:")
            ]
            coached = await coached_game(env, (WATCHER,))
            game = await env.game(coached.id)
            player = WATCHER if await env.current_user(coached.id) == WATCHER.id else HOST
            before = await panel(env, player, coached)  # shown before it counted as a league's
            env.bot.rooms.desk.league_rights = OneLeagueGame(game.id)
            shown = await panel(env, player, coached)
            assert not [c for c in shown.custom_ids() if c.startswith("himiko:panel:hint:")]
            old = await click(env, player, coached, before, "himiko:panel:hint:")
            refused = await old.reply(TIMEOUT)
            assert refused.ephemeral and "never in league games" in refused.content

    run(body)


def test_turning_points_on_the_final_message_of_a_coached_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(coach, "TURNING_POINTS_SECONDS", 3.0)

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, computers=True)
            greedy = games.computer_player("yamatai")
            for _ in range(400):
                await env.bot.runner.idle()
                game = await env.game(table.id)
                if game.status != "active":
                    break
                match = games.from_json(game.snapshot)
                seat = match.current_seat
                assert seat == 0
                action = greedy(match.view(seat), 5)
                reply = await (await env.play(HOST, table.id, action)).reply(TIMEOUT)
                assert not reply.loading
            final = await env.double.wait_for_message(
                table.id, lambda m: "The game is over." in m.content, TIMEOUT
            )
            ask = custom_id(final, "himiko:coach:points:")
            watcher = await env.double.click(WATCHER, table.id, final.id, ask)
            assert "Only the players" in (await watcher.reply(TIMEOUT)).content
            mine = await (await env.double.click(HOST, table.id, final.id, ask)).reply(TIMEOUT)
            assert mine.ephemeral
            lines = mine.content.splitlines()
            assert lines[0].startswith(
                ("Your turning points (your last 12", "None of your last 12")
            )
            assert all("the strong player would have played" in line for line in lines[1:])
            assert len(lines) <= 4

    run(body, timeout=240)
