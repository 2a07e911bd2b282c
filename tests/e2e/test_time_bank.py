"""The time bank (issue 21 item 13) on the Discord double with the bot's clock injected: chosen
in the lobby, the time a player takes comes off their bank, reminders and the deadline vote
follow it, ``/mygames`` and ``/log`` show it, and it survives restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.history import replay_turns
from bot.service.pictures import render_picture
from render.text import recording
from tests.discord_double import UserSpec
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    Env,
    Table,
    custom_id,
    has_png,
    himiko_env,
    pngs,
    run,
)
from tests.e2e.test_recovery import finish_turn
from tests.e2e.test_reminders import HOUR, reminders_to
from tests.e2e.test_turn_deadlines import deadline_messages

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


async def banked_game(env: Env, value: str = "b72i12") -> Table:
    """A game of the host and the guest whose host chose a time bank in the deadline menu."""
    lobby = await env.open_lobby(HOST, seats=2)
    menu = custom_id(env.double.message(lobby.id), "himiko:lobby:deadline:")
    chosen = await env.double.click(HOST, CHANNEL, lobby.id, menu, values=[value])
    assert (await chosen.response(TIMEOUT)).type == 7
    joined = await env.lobby_click(GUEST, env.double.message(lobby.id), "join")
    assert (await joined.response(TIMEOUT)).type == 7
    before = {t.id for t in env.double.threads(CHANNEL)}
    start = await env.lobby_click(HOST, env.double.message(lobby.id), "start")
    await start.wait_event("edit_original", TIMEOUT)
    thread = await env.double.wait_for_thread(CHANNEL, lambda t: t.id not in before)
    opening = await env.double.wait_for_message(thread.id, has_png, TIMEOUT)
    return Table(thread, opening, lobby)


async def players(env: Env, table: Table) -> tuple[UserSpec, UserSpec]:
    """(the player to act, the other)."""
    first = await env.current_user(table.id)
    return (HOST, GUEST) if first == HOST.id else (GUEST, HOST)


async def mygames(env: Env, user: UserSpec) -> str:
    """The user's ``/mygames`` reply."""
    return (await (await env.double.slash(user, CHANNEL, "mygames")).reply(TIMEOUT)).content


def test_a_time_bank_runs_down_reminds_votes_and_survives_restarts(tmp_path: Path) -> None:
    """3 days and 12 h per turn. The first player takes 30 h (42 h left), the other 1 h; the
    first player's next turn has 42 + 12 = 54 h: its deadline, reminders at half time across a
    restart, ``/mygames`` and ``/log`` follow the bank; at its end the other player votes the
    turn skipped, and the emptied bank gives the next turn only the increment."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await banked_game(env)
            said = env.double.message(table.lobby.id).text()
            assert "Time bank 3 d, +12 h per turn (never above 3 d)" in said  # the cap (QA)
            player, other = await players(env, table)
            game = await env.game(table.id)
            assert (game.time_bank, game.time_increment, game.turn_deadline) == (
                72 * HOUR,
                12 * HOUR,
                None,
            )
            start = int(env.clock())
            assert f"<t:{start + 72 * HOUR}:R>" in table.opening.content  # the whole bank

            env.clock.advance(30 * HOUR)  # before half of 72 h: no reminder yet
            assert await env.bot.scheduler.tick() == 0
            await finish_turn(env, player, table)
            env.clock.advance(HOUR)
            await finish_turn(env, other, table)
            assert await env.current_user(table.id) == player.id

            now = int(env.clock())
            deadline = now + 54 * HOUR  # 72 - 30 left, + 12
            assert f"<t:{deadline}:R>" in env.turn_messages(table.id)[-1].content
            assert f"<t:{deadline}:R>" in (listed := await mygames(env, player))
            assert "your time bank 2 d 6 h" in listed
            assert "your time bank 2 d 23 h" in await mygames(env, other)  # 72 h (at most), - 1
            log = (await (await env.double.slash(player, table.id, "log")).reply(TIMEOUT)).content
            assert "**Time banks**" in log and "2 d 6 h" in log and "2 d 23 h" in log

            await env.restart()
            env.clock.advance(27 * HOUR - 1)
            assert await env.bot.scheduler.tick() == 0
            env.clock.advance(1)
            assert await env.bot.scheduler.tick() == 1  # half of the 54 h
            half = reminders_to(env, table, player)[-1]
            assert "a reminder" in half.content and f"<t:{deadline}:R>" in half.content
            assert "your time bank 1 d 3 h" in await mygames(env, player)  # it keeps running

            await env.restart()
            env.clock.advance(27 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            [message] = deadline_messages(env, table)
            assert f"<t:{deadline}:R>" in message.content
            skip = custom_id(message, "himiko:deadline:skip:")
            done = await env.double.click(other, table.id, message.id, skip)
            assert "skipped" in (await done.reply(TIMEOUT)).content
            await env.settled()
            assert "your time bank 0 min" in await mygames(env, player)

            while await env.current_user(table.id) != player.id:  # the other's turn(s)
                env.clock.advance(HOUR)
                await finish_turn(env, other, table)
            now = int(env.clock())
            assert f"<t:{now + 12 * HOUR}:R>" in env.turn_messages(table.id)[-1].content

    run(body)


@pytest.mark.parametrize(
    ("time_bank", "increment"),
    [("3 weeks", None), ("0h", None), ("31d", None), (None, "12h"), ("3d", "8d"), ("3d", "-1")],
)
def test_a_bad_time_bank_is_refused_clearly_and_opens_no_lobby(
    tmp_path: Path, time_bank: str | None, increment: str | None
) -> None:
    """``/new`` with a bank that is not a duration, out of bounds, or an increment alone."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            options: dict[str, object] = {"game": "yamatai"}
            options |= {} if time_bank is None else {"time_bank": time_bank}
            options |= {} if increment is None else {"increment": increment}
            reply = await (await env.double.slash(HOST, CHANNEL, "new", options)).reply(TIMEOUT)
            assert reply.ephemeral and "A time bank is a duration" in reply.content
            assert [m for m in env.double.messages(CHANNEL) if not m.ephemeral] == []

    run(body)


def test_a_typed_time_bank_is_offered_in_the_lobby_and_stored(tmp_path: Path) -> None:
    """``/new time_bank:2d 12h increment:6h`` (also "2j" in French words): the lobby shows it
    and the game is stored with it."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            rec = await env.double.slash(
                HOST,
                CHANNEL,
                "new",
                {"game": "yamatai", "seats": 2, "time_bank": "2j 12h", "increment": "6h"},
            )
            lobby = await rec.reply(TIMEOUT)
            assert "Time bank 2 d 12 h, +6 h per turn" in lobby.text()
            assert "b60i6" in custom_id(lobby, "himiko:lobby:start:")
            joined = await env.lobby_click(GUEST, env.double.message(lobby.id), "join")
            assert (await joined.response(TIMEOUT)).type == 7
            start = await env.lobby_click(HOST, env.double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            [thread] = env.double.threads(CHANNEL)
            await env.double.wait_for_message(thread.id, has_png, TIMEOUT)
            game = await env.game(thread.id)
            assert (game.time_bank, game.time_increment) == (60 * HOUR, 6 * HOUR)

    run(body)


def test_the_turn_pictures_tell_each_players_time_bank(tmp_path: Path) -> None:
    """The first player takes 30 h of 3 days: the picture of their turn's message says "bank
    1 d 18 h" under their name and "bank 3 d 0 h" under the other's; it is that picture byte
    for byte (not the one without banks), and ``/board`` a day later draws the same banks (the
    picture does not tick with the clock: D106)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await banked_game(env)
            player, other = await players(env, table)
            env.clock.advance(30 * HOUR)
            await finish_turn(env, player, table)
            [posted] = pngs(env.turn_messages(table.id)[-1])

            game, match = await env.game(table.id), await env.match(table.id)
            mine, theirs = game.seats_of(player.id)[0], game.seats_of(other.id)[0]
            banks = tuple(sorted({mine: 42 * HOUR, theirs: 72 * HOUR}.items()))
            turn = [t for t in replay_turns(match) if t.complete][-1]
            view, events = match.view(None), list(turn.events)
            with recording() as drawn:
                expected = render_picture(view, events, "en", None, (), False, None, banks)
            texts = [text for text, _ in drawn]
            assert "bank 1 d 18 h" in texts and "bank 3 d 0 h" in texts
            assert posted == expected != render_picture(view, events)

            env.clock.advance(24 * HOUR)  # the other's turn: its bank is shown as it began
            board = await env.double.slash(other, table.id, "board", {"public": True})
            assert pngs(await board.reply(TIMEOUT)) == [posted]

    run(body)
