"""The coach (issue 23): a Hint button in a coached game's panel, answered privately in the
player's language; turning points on the final message; never in league games."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.catalog import default_catalog
from bot.service import ServiceError, coach
from bot.store import Game, NewLeague
from bot.workers.think_pool import ThinkPool
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
from tests.e2e.test_play import rest_of_turn
from tests.e2e.test_turn_cards import SEQUENCE_FROM, confirmed, next_play

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

T = TypeVar("T")
IN_FLIGHT = default_catalog().text("coach.hint_in_flight", "en-US")
MESSAGE = 4  # the interaction callback type of a message (the first and only answer)
EPHEMERAL = 64


async def league_table(env: Env, game: Game) -> None:
    """Record the game as the one table of a league's round 1 ("Spring"), as a league does."""
    repo = env.bot.repo
    assert repo is not None
    league = await repo.create_league(
        NewLeague(
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            name="Spring",
            game_key=game.game_key,
            rounds=1,
            table_size=len(game.seats),
            pairing="swiss",
            turn_deadline=None,
            points="3,2,1,0",
            organiser_role=None,
            creator_id=HOST.id,
        ),
        now=0,
    )
    users = [s.user_id for s in game.seats]
    for user in users:
        assert await repo.join_league(league.id, user, f"U{user}", now=0)
    assert await repo.seat_league_round(league.id, 1, [users])
    [table] = await repo.league_tables(league.id)
    assert await repo.set_table_game(league.id, 1, table.table_no, game.thread_id, game.id)


async def coached_game(
    env: Env, guests: tuple[UserSpec, ...] = (), computers: bool = False
) -> Table:
    """A game whose host turned the coach on in the lobby."""
    lobby = await env.open_lobby(HOST, seats=1 + len(guests) + computers, computers=computers)
    menu = custom_id(env.double.message(lobby.id), "himiko:lobby:coach:")
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


class Lane(ThinkPool):
    """The think pool as one worker takes its work (THINK_PROCESSES=1): one piece at a time,
    in the order asked, here in a thread. It records each piece's name when it is asked and
    when it starts; a hint search waits until ``open`` is set (a slow search, or a busy
    worker); ``fail`` makes the next hint search fail."""

    def __init__(self) -> None:
        super().__init__(0)
        self.turn = asyncio.Lock()  # FIFO: the waiting work starts in the order it came
        self.open = asyncio.Event()
        self.asked: list[str] = []
        self.started: list[str] = []
        self.fail = False

    async def think(self, work: Callable[..., T], *args: Any) -> T:
        """``ThinkPool.think``, one at a time, recorded (and a hint held until open)."""
        self.asked.append(work.__name__)
        async with self.turn:
            self.started.append(work.__name__)
            if work.__name__ == "hint":
                await self.open.wait()
                if self.fail:
                    self.fail = False
                    raise RuntimeError("the search failed")
            return await super().think(work, *args)


async def until(test: Callable[[], bool], what: str) -> None:
    """Poll ``test`` until it holds (the bot's work runs beside the test's)."""
    for _ in range(int(TIMEOUT / 0.02)):  # a bound, not a speed
        if test():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def test_hint_clicks_search_once_per_step_one_at_a_time_and_hold_up_no_computer_turn(
    tmp_path: Path,
) -> None:
    """Issue 35 item 5: a player clicks Hint 60 times while the first search runs (held in the
    think pool's one worker). The first click is admitted and searches; the 59 others are
    answered at once that the hint is on its way, and search nothing. Another game's computer
    turn, asked meanwhile, is the next work the worker takes, right after that one search; a
    click on the same step afterwards gets the same answer without a search of its own."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, (GUEST,))
            player = GUEST if await env.current_user(table.id) == GUEST.id else HOST
            shown = await panel(env, player, table)
            other = await env.start_game(WATCHER, computers=1)  # another game, a computer seat
            await env.settled()
            assert await env.current_user(other.id) == WATCHER.id  # the computer played first
            actions = rest_of_turn(await env.match(other.id))
            for action in actions[:-1]:
                await (await env.play(WATCHER, other.id, action)).reply(TIMEOUT)
            lane = Lane()
            env.bot.rooms.coach.pool = lane
            env.bot.rooms.computers.pool = lane
            try:
                first = await click(env, player, table, shown, "himiko:panel:hint:")
                await until(lambda: lane.started == ["hint"], "the first search")
                more = [
                    await click(env, player, table, shown, "himiko:panel:hint:") for _ in range(59)
                ]
                for rec in more:  # answered at once, privately, and nothing searched
                    answer = await rec.response(TIMEOUT)
                    assert answer.type == MESSAGE and answer.data["flags"] & EPHEMERAL
                    assert answer.data["content"] == IN_FLIGHT
                assert lane.asked == ["hint"]
                await (await env.play(WATCHER, other.id, actions[-1])).reply(TIMEOUT)
                await until(lambda: "computer_moves" in lane.asked, "the computer's turn asked")
            finally:
                lane.open.set()
            hint = await first.reply(TIMEOUT)
            await env.settled()
            assert await env.current_user(other.id) == WATCHER.id  # the computer played
            assert lane.started[:2] == ["hint", "computer_moves"]  # nothing else before it
            again = await click(env, player, table, shown, "himiko:panel:hint:")
            assert (await again.reply(TIMEOUT)).content == hint.content  # the same answer
            assert lane.asked.count("hint") == 1  # searched once for 61 clicks
            assert env.bot.admission.doubled == 59
            assert all(len(rec.callbacks) == 1 and not rec.followups() for rec in more)

    run(body)


def test_a_step_s_hint_is_searched_once_and_a_failed_search_is_not_kept(tmp_path: Path) -> None:
    """The coach service on its own: two hints asked together for one step share one search;
    a search that failed is searched again by the next click, then kept."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, (GUEST,))
            player = GUEST if await env.current_user(table.id) == GUEST.id else HOST
            game = await env.game(table.id)
            lane = Lane()
            service = env.bot.rooms.coach
            service.pool = lane
            lane.open.set()
            lane.fail = True
            with pytest.raises(RuntimeError, match="the search failed"):
                await service.hint(player.id, game.id, game.version)
            both = await asyncio.gather(
                service.hint(player.id, game.id, game.version),
                service.hint(player.id, game.id, game.version),
            )
            assert both[0].choices == both[1].choices and both[0].choices
            assert lane.asked == ["hint", "hint"]  # the failed search, then one for both
            assert (await service.hint(player.id, game.id, game.version)) == both[0]
            with pytest.raises(ServiceError):  # a step that moved on is refused, kept or not
                await service.hint(player.id, game.id, game.version - 1)
            assert lane.asked == ["hint", "hint"]

    run(body)


def test_a_hint_click_that_failed_leaves_the_next_click_free_to_search(tmp_path: Path) -> None:
    """The search behind a Hint click fails: the player is told something went wrong, and
    their next click is not told a hint is on its way: it searches again and answers."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, (GUEST,))
            player = GUEST if await env.current_user(table.id) == GUEST.id else HOST
            shown = await panel(env, player, table)
            lane = Lane()
            env.bot.rooms.coach.pool = lane
            lane.open.set()
            lane.fail = True
            failed = await click(env, player, table, shown, "himiko:panel:hint:")
            assert "went wrong" in (await failed.reply(TIMEOUT)).content
            assert len(env.log.records) == 1  # logged as unexpected (it was made so)
            env.log.records.clear()
            again = await click(env, player, table, shown, "himiko:panel:hint:")
            lines = (await again.reply(TIMEOUT)).content.splitlines()
            assert lines[0].startswith("What the strong computer player would do")
            assert lane.asked == ["hint", "hint"] and env.bot.admission.doubled == 0

    run(body)


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
            await league_table(env, game)
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
            played = 0
            while played < 400:  # the host's turns of 3 actions or more as one sequence
                await env.bot.runner.idle()
                game = await env.game(table.id)
                if game.status != "active":
                    break
                match = games.from_json(game.snapshot)
                seat = match.current_seat
                assert seat == 0
                actions = next_play(match, lambda view, _: greedy(view, 5), played)
                if len(actions) >= SEQUENCE_FROM:  # a preview picture, no step picture each
                    await confirmed(env, HOST, table, "; ".join(actions))
                else:
                    for action in actions:
                        reply = await (await env.play(HOST, table.id, action)).reply(TIMEOUT)
                        assert not reply.loading
                played += len(actions)
            final = await env.double.wait_for_message(
                table.id, lambda m: "The game is over." in m.text(), TIMEOUT
            )
            await env.settled()  # its card, with the recap and the final board (D200)
            pictures = [a.filename for a in final.gallery_attachments()]
            assert final.is_v2 and pictures[-1:] == ["board.png"]
            ask = custom_id(final, "himiko:coach:points:")
            watcher = await env.double.click(WATCHER, table.id, final.id, ask)
            assert "Only the players" in (await watcher.reply(TIMEOUT)).content
            mine = await (await env.double.click(HOST, table.id, final.id, ask)).reply(TIMEOUT)
            assert mine.ephemeral
            lines = mine.content.splitlines()
            assert lines[0].startswith(
                ("Your turning points (your last 12", "None of your last 12")
            )
            assert all("the strong computer player would have played" in line for line in lines[1:])
            assert len(lines) <= 4

    run(body, timeout=240)
