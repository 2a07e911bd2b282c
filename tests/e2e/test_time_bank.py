"""The time bank (issue 21 item 13) on the Discord double with the bot's clock injected: chosen
in the lobby, the time a player takes comes off their bank, reminders and the deadline vote
follow it, ``/mygames`` and ``/log`` show it, and it survives restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.history import replay_turns
from bot.service.pictures import render_picture
from render.extras import Extras
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
    shown,
)
from tests.e2e.test_recovery import POST, finish_turn, quick_retries
from tests.e2e.test_reminders import HOUR, reminders_to, rows
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
    """What the user's ``/mygames`` card says."""
    return (await (await env.double.slash(user, CHANNEL, "mygames")).reply(TIMEOUT)).text()


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
            assert f"<t:{start + 72 * HOUR}:R>" in table.opening.text()  # the whole bank

            env.clock.advance(30 * HOUR)  # before half of 72 h: no reminder yet
            assert await env.bot.scheduler.tick() == 0
            await finish_turn(env, player, table)
            env.clock.advance(HOUR)
            await finish_turn(env, other, table)
            assert await env.current_user(table.id) == player.id

            now = int(env.clock())
            deadline = now + 54 * HOUR  # 72 - 30 left, + 12
            assert f"<t:{deadline}:R>" in env.turn_messages(table.id)[-1].text()
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
            assert f"<t:{now + 12 * HOUR}:R>" in env.turn_messages(table.id)[-1].text()

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
            card = env.turn_messages(table.id)[-1]  # its card: the turn picture, the board
            assert shown(card) == ["turn.png", "board.png"]
            whole = card.attachment("board.png")  # the whole board, drawn as before cards
            assert whole is not None
            posted = whole.data

            game, match = await env.game(table.id), await env.match(table.id)
            mine, theirs = game.seats_of(player.id)[0], game.seats_of(other.id)[0]
            banks = tuple(sorted({mine: 42 * HOUR, theirs: 72 * HOUR}.items()))
            turn = [t for t in replay_turns(match) if t.complete][-1]
            view, events = match.view(None), list(turn.events)
            with recording() as drawn:
                expected = render_picture(view, events, None, Extras(banks=banks))
            texts = [text for text, _ in drawn]
            assert "bank 1 d 18 h" in texts and "bank 3 d 0 h" in texts
            assert posted == expected != render_picture(view, events)

            env.clock.advance(24 * HOUR)  # the other's turn: its bank is shown as it began
            board = await env.double.slash(other, table.id, "board", {"public": True})
            assert pngs(await board.reply(TIMEOUT)) == [posted]

    run(body)


def test_a_turn_shown_late_starts_the_next_players_bank_when_it_is_posted(tmp_path: Path) -> None:
    """D103, D156: the first player moves after 5 h; the thread refuses the turn's message for
    10 h, with a restart on the way. Posted at last, the message gives the other player their
    whole bank (72 h, not 62 h), the stored bank turn begins at the post, its reminders count
    from it; the mover's bank lost their 5 h and nothing of the outage."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await banked_game(env)
            player, other = await players(env, table)
            begun = int(env.clock())
            quick_retries(env, attempts=1)
            env.clock.advance(5 * HOUR)
            env.double.faults.fail(POST, status=503, times=1000, channel_id=table.id)
            reply = await finish_turn(env, player, table)
            assert "could not post" in reply.content
            moved = int(env.clock())
            env.clock.advance(4 * HOUR)
            await env.restart()  # between "saved" and "posted": still refused at start-up
            quick_retries(env, attempts=1)
            await env.settled()
            assert env.turn_messages(table.id) == [env.double.message(table.opening.id)]
            env.clock.advance(6 * HOUR)

            shown = {m.id for m in env.double.messages(table.id)}
            env.double.faults.clear()
            await env.bot.sweep()  # its runner may post before this returns
            turn = await env.double.wait_for_message(
                table.id, lambda m: other.id in m.pinged_user_ids(), TIMEOUT, besides=shown
            )
            await env.settled()
            posted = int(env.clock())
            assert f"<t:{posted + 72 * HOUR}:R>" in turn.text()  # the whole bank, from the post

            repo = env.bot.repo
            assert repo is not None
            game = await env.game(table.id)
            mine, theirs = game.seats_of(player.id)[0], game.seats_of(other.id)[0]
            first, second = await repo.bank_turns(game.id)
            assert (first.seat, first.started_at, first.ended_at) == (mine, begun, moved)
            assert (second.seat, second.started_at, second.available) == (theirs, posted, 72 * HOUR)
            due = {r.kind: r.due_at for r in await rows(env, table) if r.user_id == other.id}
            assert due == {
                "half": posted + 36 * HOUR,
                "near": posted + 66 * HOUR,
                "deadline": posted + 72 * HOUR,
            }
            assert "your time bank 3 d" in await mygames(env, other)
            assert "your time bank 2 d 19 h" in await mygames(env, player)  # 72 - 5

    run(body, timeout=120)
