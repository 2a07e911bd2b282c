"""Recovery after partial failures, with faults injected in the Discord double and the database.

Each test ends with the store verified clean (every game replays to its snapshot).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from discord.http import Route

from bot.lobby_state import LobbyState
from bot.store import NewSeat
from bot.store import sqlite as sqlite_store
from bot.store.verify import verify_database
from engine import games
from tests.bot.support import old_lobby_id
from tests.discord_double import DROP, MessageRecord, UserSpec
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    as_posted,
    custom_id,
    himiko_env,
    run,
)
from tests.e2e.test_play import assert_clean_error, public, rest_of_turn, two_humans
from tests.waiting import eventually

POST = "POST /channels/{channel_id}/messages"
EDIT_ORIGINAL = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"
#: The store's busy timeout in the tests that lock the database: what they are about is a write
#: that waited out the timeout and failed (each holds the lock until it has), not the
#: production value (5 s, ``BUSY_TIMEOUT_MS``, read by
#: ``test_a_connection_waits_out_the_busy_timeout_it_is_opened_with``), D295.
BUSY_TIMEOUT_MS = 1000
#: What the bot logs when a turn message went out but could not be recorded.
NOT_RECORDED = "posted, but not recorded yet"


@pytest.fixture
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's connections opened in the test wait ``BUSY_TIMEOUT_MS`` for a lock."""
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", BUSY_TIMEOUT_MS)


def test_a_connection_waits_out_the_busy_timeout_it_is_opened_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5 s by default; the tests below that lock the database set a shorter one, which the
    store's connections, blocking and asynchronous, are then opened with."""
    path = tmp_path / "busy.sqlite3"

    def busy_timeout() -> int:
        conn = sqlite_store.connect_sync(path, create=True)
        try:
            return int(conn.execute("PRAGMA busy_timeout").fetchone()[0])
        finally:
            conn.close()

    async def async_busy_timeout() -> int:
        conn = await sqlite_store.connect_async(path)
        try:
            cursor = await conn.execute("PRAGMA busy_timeout")
            row = await cursor.fetchone()
            assert row is not None
            return int(row[0])
        finally:
            await conn.close()

    assert sqlite_store.BUSY_TIMEOUT_MS == 5000
    assert busy_timeout() == asyncio.run(async_busy_timeout()) == 5000
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", BUSY_TIMEOUT_MS)
    assert busy_timeout() == asyncio.run(async_busy_timeout()) == BUSY_TIMEOUT_MS


@contextlib.contextmanager
def locked(database: Path) -> Iterator[None]:
    """Hold SQLite's write lock from a second connection, as another process would."""
    locker = sqlite3.connect(database, isolation_level=None)
    try:
        locker.execute("BEGIN IMMEDIATE")
        yield
    finally:
        locker.execute("ROLLBACK")
        locker.close()


def computer_first_seed(*players: str) -> int:
    """A seed with which the second seat (the computer) plays first."""
    return next(s for s in range(100) if games.new("yamatai", players, s).current_seat == 1)


def quick_retries(env: Env, attempts: int = 3) -> None:
    """Let the runner retry at once and give up after ``attempts`` (the sweep takes over)."""
    env.bot.runner.first_retry, env.bot.runner.attempts = 0.05, attempts


async def verified(env: Env) -> None:
    """Every stored game replays to its snapshot."""
    report = await verify_database(env.database)
    assert report.ok and report.checked >= 1, report.problems


async def finish_turn(env: Env, player: UserSpec, table: Table) -> MessageRecord:
    """Play the player's whole turn with one ``/play`` per action; the last reply."""
    reply = None
    for action in rest_of_turn(await env.match(table.id)):
        reply = await (await env.play(player, table.id, action)).reply(TIMEOUT)
        assert not reply.loading
    assert reply is not None
    await env.settled()  # the turn message's picture follows it
    return reply


def pings(env: Env, table: Table, user: UserSpec) -> int:
    """How many of the bot's public messages in the thread ping the user."""
    return sum(user.id in m.pinged_user_ids() for m in public(env, table))


async def owed(env: Env, table: Table) -> bool:
    """Whether the thread's game still owes a message."""
    game = await env.game(table.id)
    return game.announced_version < game.version


def test_cancel_after_a_partly_failed_start_abandons_the_game(tmp_path: Path) -> None:
    """Start made the game but neither the opening nor the lobby edit got through; Cancel."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            quick_retries(env, attempts=2)
            lobby = await env.open_lobby(HOST, seats=2)
            await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
            double.faults.fail(POST, status=503, times=100, channel_id=lobby.id)
            double.faults.fail(EDIT_ORIGINAL, status=DROP)
            start = await env.lobby_click(HOST, double.message(lobby.id), "start")
            told = await start.reply(TIMEOUT)  # the lobby edit failed: the host is told instead
            assert told.ephemeral and f"<#{lobby.id}>" in told.content
            assert (await env.game(lobby.id)).status == "active"
            await env.settled()  # retried the opening, gave up for now
            assert double.message(lobby.id).custom_ids()  # the lobby still shows its buttons

            cancel = await env.lobby_click(HOST, double.message(lobby.id), "cancel")
            assert (await cancel.response(TIMEOUT)).type == 7
            assert double.message(lobby.id).custom_ids() == []
            assert "cancelled" in double.message(lobby.id).text()
            assert (await env.game(lobby.id)).status == "abandoned"
            assert await env.bot.rooms.reading.active_game_id(lobby.id) is None

            double.faults.clear()
            await env.bot.sweep()  # the thread is owed the news
            await env.settled()
            [note] = double.messages(lobby.id, include_ephemeral=False)
            assert "cancelled" in note.text() and not note.attachments  # its card, no board
            assert not note.pinged_user_ids()
            await verified(env)

    run(body)


@pytest.mark.usefixtures("short_busy_timeout")
def test_start_while_the_database_is_locked_fails_cleanly_and_works_again(tmp_path: Path) -> None:
    """The game cannot be saved during Start: the host is told, Start again reuses the thread."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST, seats=2)
            await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
            with locked(Path(env.database)):
                start = await env.lobby_click(HOST, double.message(lobby.id), "start")
                refused = await start.reply(TIMEOUT)
            assert_clean_error(refused)
            assert "Click Start again" in refused.content
            assert await env.bot.rooms.reading.active_game_id(lobby.id) is None
            assert double.message(lobby.id).custom_ids()  # the lobby is open again

            again = await env.lobby_click(HOST, double.message(lobby.id), "start")
            await again.wait_event("edit_original", TIMEOUT)
            [thread] = double.threads(CHANNEL)  # the thread of the first try, reused
            [opening] = env.turn_messages(thread.id)
            assert "plays first" in opening.text()
            assert double.message(lobby.id).custom_ids() == []
            await verified(env)

    run(body)


def test_lost_answers_at_start_still_give_one_opening_and_computers_play(tmp_path: Path) -> None:
    """The opening's answer and the lobby edit are lost; a computer plays first."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            quick_retries(env)
            env.bot.rooms.playing._seed_source = lambda: computer_first_seed("Hana", "Computer 1")
            lobby = await env.open_lobby(HOST, seats=2, computers=True)
            double.faults.lose_response(POST, channel_id=lobby.id)  # posted, answer lost
            double.faults.fail(EDIT_ORIGINAL, status=DROP)
            start = await env.lobby_click(HOST, lobby, "start")
            told = await start.reply(TIMEOUT)
            assert told.ephemeral and f"<#{lobby.id}>" in told.content
            await env.settled()
            table = Table(double.channel(lobby.id), double.message(lobby.id), lobby)
            opening, turn = env.turn_messages(table.id)  # the retry repeated the nonce
            assert "plays first" in opening.text() and "Computer 1" in opening.text()
            assert as_posted(double, turn).pinged_user_ids() == [HOST.id]  # the computer played
            assert await env.current_user(table.id) == HOST.id
            assert not await owed(env, table)

            assert double.message(lobby.id).custom_ids()  # the edit is owed...
            await env.bot.sweep()
            assert double.message(lobby.id).custom_ids() == []  # ...and done by the sweep
            assert f"<#{lobby.id}>" in double.message(lobby.id).text()
            await verified(env)

    run(body)


@pytest.mark.usefixtures("short_busy_timeout")
def test_one_turn_message_and_one_ping_when_an_answer_or_the_record_is_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A post whose answer is lost, then a post recorded while the database is locked."""
    caplog.set_level(logging.WARNING, logger="bot.thread.door")

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, player, other = await two_humans(env)
            quick_retries(env)
            double.faults.lose_response(POST, channel_id=table.id)
            await finish_turn(env, player, table)
            await env.settled()
            assert len(env.turn_messages(table.id)) == 2 and pings(env, table, other) == 2
            assert not await owed(env, table)

            # the next post waits out a rate limit; meanwhile another process locks the database,
            # until the post has gone out and its record failed
            double.faults.rate_limit(POST, retry_after=0.3, channel_id=table.id)
            before = caplog.text.count(NOT_RECORDED)

            def record_failed() -> bool:
                return caplog.text.count(NOT_RECORDED) > before

            playing = asyncio.create_task(finish_turn(env, other, table))
            await eventually(lambda: any(r.status == 429 for r in double.requests), "a 429")
            with locked(Path(env.database)):
                await eventually(record_failed, "the record failed", TIMEOUT)
            reply = await asyncio.wait_for(playing, TIMEOUT)
            assert "Your turn is over" in reply.content and "could not" not in reply.content
            await env.settled()
            assert len(env.turn_messages(table.id)) == 3 and pings(env, table, player) == 2
            assert not await owed(env, table)
            await verified(env)

    run(body, timeout=90)


def test_an_owed_turn_is_posted_after_a_gateway_resume(tmp_path: Path) -> None:
    """The runner gave up during an outage; the reconnect's sweep posts the turn."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, player, other = await two_humans(env)
            quick_retries(env, attempts=1)
            double.faults.fail(POST, status=503, times=2, channel_id=table.id)
            reply = await finish_turn(env, player, table)
            assert "saved" in reply.content and "could not post" in reply.content
            await env.settled()
            assert len(env.turn_messages(table.id)) == 1 and await owed(env, table)

            shown = {m.id for m in double.messages(table.id)}
            await double.reconnect()
            turn = await double.wait_for_message(
                table.id, lambda m: other.id in m.pinged_user_ids(), TIMEOUT, besides=shown
            )
            await env.settled()
            assert env.turn_messages(table.id)[-1].id == turn.id
            assert pings(env, table, other) == 2 and not await owed(env, table)
            await verified(env)

    run(body)


def test_a_failed_resignation_note_is_swept_and_the_resigner_told_it_worked(
    tmp_path: Path,
) -> None:
    """The note about a resignation fails past the runner's retries; the periodic sweep posts it."""

    async def body() -> None:
        async with himiko_env(tmp_path, sweep_interval=0.2) as env:
            double = env.double
            table, _, other = await two_humans(env)
            quick_retries(env, attempts=1)
            double.faults.fail(POST, status=503, times=2, channel_id=table.id)
            ask = await (await double.slash(other, table.id, "resign")).reply(TIMEOUT)
            yes = await double.click(other, table.id, ask.id, custom_id(ask, "himiko:resign:ok:"))
            assert (await yes.reply(TIMEOUT)).content == "You resigned."
            note = await double.wait_for_message(
                table.id, lambda m: not m.ephemeral and "resigned" in m.text(), TIMEOUT
            )
            assert note.pinged_user_ids() == []
            await env.settled()
            assert len([m for m in public(env, table) if "resigned" in m.text()]) == 1
            assert (await env.game(table.id)).status == "finished"  # the other player won
            assert not await owed(env, table)
            await verified(env)

    run(body)


def test_a_forged_lobby_click_seats_nobody(tmp_path: Path) -> None:
    """Custom ids a tampered client makes up never replace the lobby the bot posted.

    discord.py drops a click whose custom id is not on the message; the bot itself rebuilds an
    uncached lobby from its own message (tests/bot/test_lobby_start.py covers the state).
    """

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST, seats=2)
            await env.restart()  # the lobby is not cached any more
            # an id of the kind lobbies posted before wrote: it names the players
            forged = old_lobby_id(LobbyState("yamatai", 2, True, (WATCHER.id, GUEST.id)), "start")
            start = await double.forged_click(WATCHER, CHANNEL, lobby.id, forged)
            joined = await env.lobby_click(GUEST, lobby, "join")  # a real click, after it
            assert (await joined.response(TIMEOUT)).type == 7
            assert start.callback is None  # never answered, nothing done
            shown = double.message(lobby.id)
            assert "Kenji" in shown.text() and "Mio" not in shown.text()
            real = LobbyState("yamatai", 2, False, (HOST.id, GUEST.id), language="en")
            real_id = real.custom_id("start")
            assert custom_id(shown, "himiko:lobby:start:") == real_id
            assert double.threads(CHANNEL) == []
            refused = await env.lobby_click(WATCHER, shown, "start")
            assert_clean_error(await refused.reply(TIMEOUT))

    run(body)


def test_a_lobby_posted_before_the_players_left_its_ids_still_works(tmp_path: Path) -> None:
    """A lobby message as the bot posted them before: the user ids in its custom ids, only the
    names in its embed. Join reads it, and the lobby is shown the new way; Start seats both."""
    state = LobbyState("yamatai", 2, False, (HOST.id,), ("Hana",), language="en")
    buttons = [
        {"type": 2, "style": 1, "label": action, "custom_id": old_lobby_id(state, action)}
        for action in ("join", "leave", "start", "cancel")
    ]
    fields = [
        {"name": "Host", "value": f"<@{HOST.id}>"},
        {"name": "👥 Players (1/2)", "value": "1. Hana"},
    ]
    posted = {
        "embeds": [{"title": "Yamatai: a new game", "fields": fields}],
        "components": [{"type": 1, "components": buttons}],
        "allowed_mentions": {"parse": []},
    }

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL)
            lobby = double.message(int((await env.bot.http.request(route, json=posted))["id"]))
            assert (
                custom_id(lobby, "himiko:lobby:join:")
                == "himiko:lobby:join:yamatai:2:0:2g2jh1vidcsh:en"
            )
            joined = await env.lobby_click(GUEST, lobby, "join")
            assert (await joined.response(TIMEOUT)).type == 7
            shown = double.message(lobby.id)
            assert custom_id(shown, "himiko:lobby:start:") == state.custom_id("start")
            assert f"1. Hana (<@{HOST.id}>)\n2. Kenji (<@{GUEST.id}>)" in shown.text()
            start = await env.lobby_click(HOST, shown, "start")
            await start.wait_event("edit_original", TIMEOUT)
            [thread] = double.threads(CHANNEL)
            await double.wait_for_message(thread.id, lambda m: bool(m.attachments), TIMEOUT)
            game = await env.game(thread.id)
            assert [(s.user_id, s.player) for s in game.seats] == [
                (HOST.id, "Hana"),
                (GUEST.id, "Kenji"),
            ]
            await verified(env)

    run(body)


def test_games_with_many_games_fits_one_message(tmp_path: Path) -> None:
    """``/games`` lists what fits in Discord's 2000 characters and says how many more."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            repo = env.bot.repo
            assert repo is not None
            match = games.new("yamatai", ["Hana", "Kenji"], 1)
            colours = [str(p["colour"]) for p in match.view(None)["players"]]
            for i in range(120):
                await repo.create_game(
                    guild_id=GUILD,
                    channel_id=CHANNEL,
                    thread_id=400_000_000_000_000_000 + i,
                    game_key="yamatai",
                    seed=1,
                    options=match.options,
                    seats=[
                        NewSeat(0, HOST.id, "Hana", colours[0]),
                        NewSeat(1, GUEST.id, "Kenji", colours[1]),
                    ],
                    snapshot=match.to_json(),
                    current_seat=match.current_seat,
                )
                await repo.mark_announced(i + 1, 1)
            reply = await (await env.double.slash(HOST, CHANNEL, "games")).reply(TIMEOUT)
            shown = reply.text_displays()
            assert reply.is_v2 and sum(map(len, shown)) <= 4000 and reply.pinged_user_ids() == []
            assert "**Being played here:** 120 games" in shown
            [listed] = [text for text in shown if text.startswith("- ")]
            lines = listed.splitlines()
            assert len(lines) == 6 and all(" in <#4000" in line for line in lines[:5])
            assert lines[-1] == "…and 115 more."
            await verified(env)

    run(body)


def test_the_end_of_a_game_is_told_once_across_failures_and_a_restart(tmp_path: Path) -> None:
    """The lobby's channel refuses the result line: the thread has the end, nothing is recorded;
    after a restart the end is finished: one final message, one ping each, one line, the lobby."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            quick_retries(env, attempts=2)
            table = await env.start_game(HOST, [GUEST], game="nim")
            users = {HOST.id: HOST, GUEST.id: GUEST}
            double.faults.fail(POST, status=503, times=100, channel_id=CHANNEL)
            while (current := await env.current_user(table.id)) is not None:
                action = (await env.match(table.id)).legal_actions()[-1]
                await (await env.play(users[current], table.id, action)).reply(TIMEOUT)
            await env.settled()  # retried the result line, gave up for now
            finals = [m for m in public(env, table) if "The game is over." in m.text()]
            assert len(finals) == 1
            assert sorted(as_posted(double, finals[0]).pinged_user_ids()) == sorted(users)
            assert await owed(env, table)  # not recorded: the line and the lobby are owed
            assert "is over" not in double.message(table.lobby.id).text()  # after the line

            double.faults.clear()
            await env.restart()  # the sweep at start finishes what the end owes
            await env.settled()
            finals = [m for m in public(env, table) if "The game is over." in m.text()]
            assert len(finals) == 1  # the thread message repeated its nonce: still one
            lines = [
                m for m in double.messages(CHANNEL, include_ephemeral=False) if "won" in m.content
            ]
            assert len(lines) == 1 and f"<#{table.id}>" in lines[0].content
            assert lines[0].pinged_user_ids() == []
            assert "is over" in double.message(table.lobby.id).text()
            assert not await owed(env, table)
            await verified(env)

    run(body)
