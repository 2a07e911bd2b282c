"""Turn deadlines and reminders on the Discord double, with the bot's clock injected."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.store import Reminder
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    as_posted,
    custom_id,
    has_png,
    himiko_env,
    run,
)
from tests.e2e.test_play import two_humans
from tests.e2e.test_recovery import finish_turn

HOUR = 3600


def reminders_to(env: Env, table: Table, user: UserSpec) -> list[MessageRecord]:
    """The bot's reminder messages (no picture) in the thread that ping the user."""
    return [
        m
        for m in env.double.messages(table.id, include_ephemeral=False)
        if m.author_id == env.double.app_id
        and not m.attachments
        and m.pinged_user_ids() == [user.id]
    ]


async def rows(env: Env, table: Table) -> list[Reminder]:
    """The game's reminder rows."""
    repo = env.bot.repo
    assert repo is not None
    return await repo.list_reminders((await env.game(table.id)).id)


def test_a_reminder_is_sent_once_with_the_deadline_and_collapses_after_downtime(
    tmp_path: Path,
) -> None:
    """Half time: one reminder; past the end: one more for both rows; never a second."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            deadline = int(env.clock()) + 48 * HOUR  # the default deadline
            assert f"<t:{deadline}:R>" in table.opening.text()
            unsent = [r for r in await rows(env, table) if r.sent_at is None]
            assert {r.user_id for r in unsent} == {player.id} and len(unsent) == 3

            env.clock.advance(24 * HOUR - 1)
            assert await env.bot.scheduler.tick() == 0
            env.clock.advance(1)
            assert await env.bot.scheduler.tick() == 1
            [reminder] = reminders_to(env, table, player)
            assert f"<t:{deadline}:R>" in reminder.content
            assert reminder.mentioned_user_ids() == [player.id]
            assert await env.bot.scheduler.tick() == 0
            assert reminders_to(env, table, other) == []

            # the near reminder is overdue by hours too: it is sent as one message
            await env.restart()
            env.clock.advance(30 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            assert len(reminders_to(env, table, player)) == 2
            assert all(r.sent_at is not None for r in await rows(env, table))

    run(body)


def test_no_reminder_for_a_played_turn_and_the_next_player_gets_theirs(tmp_path: Path) -> None:
    """The first player moves in time: their reminders are dropped, the next player's count."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            env.clock.advance(10 * HOUR)
            await finish_turn(env, player, table)
            [turn] = [m for m in env.turn_messages(table.id) if m.id != table.opening.id]
            deadline = int(env.clock()) + 48 * HOUR
            assert f"<t:{deadline}:R>" in turn.text_displays()[0]  # its card's heading
            assert as_posted(env.double, turn).pinged_user_ids() == [other.id]
            env.clock.advance(24 * HOUR)  # the first player's half time passed long ago
            assert await env.bot.scheduler.tick() == 1
            assert reminders_to(env, table, player) == []
            assert len(reminders_to(env, table, other)) == 1
            cancelled = [r for r in await rows(env, table) if r.user_id == player.id]
            assert cancelled and all(r.cancelled_at and not r.sent_at for r in cancelled)

    run(body)


def test_a_restart_between_claim_and_send_sends_once_after_the_lease(tmp_path: Path) -> None:
    """The process died after claiming: nothing until the lease runs out, then exactly once."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            env.clock.advance(24 * HOUR)
            [claimed] = await env.bot.rooms.deadlines.claim_due_reminders(
                lease=env.bot.scheduler.lease
            )
            await env.restart()  # the claim was never sent
            assert await env.bot.scheduler.tick() == 0  # still leased
            env.clock.advance(env.bot.scheduler.lease)
            assert await env.bot.scheduler.tick() == 1
            await env.restart()
            assert await env.bot.scheduler.tick() == 0
            [reminder] = reminders_to(env, table, player)
            assert claimed.kind == "half" and "<t:" in reminder.content

    run(body)


def make_all_due(database: str | Path) -> None:
    """Set every reminder due, beside the bot that writes 20 times a second.

    In a thread: on the event loop, the busy wait would stop the bot's own open transaction from
    ever ending (the flaky "database is locked" of a loaded run). The write lock is taken first:
    a deferred transaction whose snapshot another write overtook fails at once, busy timeout or
    not."""
    conn = sqlite3.connect(database, timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE reminders SET due_at = 0")
        conn.execute("COMMIT")
    finally:
        conn.close()


def test_rows_made_due_reach_the_thread_through_the_scheduler_loop(tmp_path: Path) -> None:
    """The acceptance contract: ``due_at`` set in the past, the loop pings within a few ticks."""

    async def body() -> None:
        async with himiko_env(tmp_path, scheduler_interval=0.05) as env:
            table, player, _ = await two_humans(env)
            await asyncio.to_thread(make_all_due, env.database)
            message = await env.double.wait_for_message(
                table.id, lambda m: f"<@{player.id}>" in m.content and not m.attachments, TIMEOUT
            )
            assert message.pinged_user_ids() == [player.id]
            await env.restart()
            env.clock.advance(100 * HOUR)
            assert await env.bot.scheduler.tick() == 0
            assert len(reminders_to(env, table, player)) == 1

    run(body)


def test_the_host_chooses_the_deadline_in_the_lobby_and_none_means_no_reminders(
    tmp_path: Path,
) -> None:
    """12 hours: the game keeps it; no deadline: no reminder rows and no deadline shown."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            known: set[int] = set()
            for hours in (12, 0):
                lobby = await env.open_lobby(HOST)
                assert "48 hours" in double.message(lobby.id).text()
                await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
                menu = custom_id(double.message(lobby.id), "himiko:lobby:deadline:")
                chosen = await double.click(HOST, CHANNEL, lobby.id, menu, [str(hours)])
                assert (await chosen.response(TIMEOUT)).type == 7
                known.update(t.id for t in double.threads(CHANNEL))
                start = await env.lobby_click(HOST, double.message(lobby.id), "start")
                await start.wait_event("edit_original", TIMEOUT)
                thread = await double.wait_for_thread(CHANNEL, lambda t: t.id not in known)
                opening = await double.wait_for_message(thread.id, has_png, TIMEOUT)
                game = await env.game(thread.id)
                reminders = await env.bot.repo.list_reminders(game.id) if env.bot.repo else []
                if hours:
                    assert game.turn_deadline == hours * HOUR
                    assert f"<t:{int(env.clock()) + hours * HOUR}:R>" in opening.text()
                    assert len(reminders) == 3
                else:
                    assert game.turn_deadline is None and reminders == []
                    assert "<t:" not in opening.text()

    run(body)


def test_mygames_lists_games_waiting_on_me_first_with_deadlines_and_threads(
    tmp_path: Path,
) -> None:
    """Two games; the host is to move in one: that one first, both with their deadlines."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            first, _, _ = await two_humans(env)
            env.clock.advance(HOUR)
            second, _, _ = await two_humans(env)
            mine = [t for t in (first, second) if await env.current_user(t.id) == HOST.id]
            theirs = [t for t in (first, second) if t not in mine]
            if not mine or not theirs:  # both wait on the same player: move one game on
                table = first
                player = HOST if await env.current_user(table.id) == HOST.id else GUEST
                await finish_turn(env, player, table)
                mine = [t for t in (first, second) if await env.current_user(t.id) == HOST.id]
                theirs = [t for t in (first, second) if t not in mine]
            reply = await (await env.double.slash(HOST, CHANNEL, "mygames")).reply(TIMEOUT)
            assert reply.ephemeral and reply.pinged_user_ids() == []
            lines = reply.text_displays()[1:]  # a section per game under the title (D202)
            assert f"<#{mine[0].id}>" in lines[0] and "your turn" in lines[0]
            assert f"<#{theirs[0].id}>" in lines[1] and f"<@{GUEST.id}>" in lines[1]
            assert all("deadline <t:" in line and "Yamatai" in line for line in lines)
            none = await (await env.double.slash(WATCHER, CHANNEL, "mygames")).reply(TIMEOUT)
            assert none.ephemeral and "no active game" in none.text()

    run(body)


def test_the_log_shows_the_pace_once_a_turn_was_played(tmp_path: Path) -> None:
    """``/log``: no pace before the first complete turn, then the median time to move."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            empty = await (await env.double.slash(player, table.id, "log")).reply(TIMEOUT)
            assert "Pace" not in empty.content
            await finish_turn(env, player, table)
            log = await (await env.double.slash(WATCHER, table.id, "log")).reply(TIMEOUT)
            assert log.ephemeral and "**Pace** (median time to move): " in log.content

    run(body)


def test_at_the_deadline_the_other_player_skips_the_turn_and_the_computer_plays_it(
    tmp_path: Path,
) -> None:
    """Two humans: at the deadline a Skip button; the absent player may not vote, the other's
    vote is the majority; the computer plays the turn, marked in the turn message and ``/log``."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            env.clock.advance(48 * HOUR)
            assert await env.bot.scheduler.tick() == 1  # the three rows collapse into one
            [message] = [m for m in env.double.messages(table.id) if not m.attachments]
            assert message.pinged_user_ids() == [player.id] and "deadline" in message.content
            skip = custom_id(message, "himiko:deadline:skip:")
            refused = await (await env.double.click(player, table.id, message.id, skip)).reply(
                TIMEOUT
            )
            assert refused.ephemeral and "Only the other players" in refused.content
            assert await env.current_user(table.id) == player.id
            done = await env.double.click(other, table.id, message.id, skip)
            assert "skipped" in (await done.reply(TIMEOUT)).content
            await env.settled()  # the turn message's picture follows it
            turn = env.turn_messages(table.id)[-1]
            assert "Time ran out" in turn.text()
            assert as_posted(env.double, turn).pinged_user_ids() == [other.id]
            assert await env.current_user(table.id) == other.id
            # decided: the buttons are gone (a click already on its way is told "already over":
            # test_turn_deadlines), the message stays
            voted = env.double.message(message.id)
            assert voted.component(skip) is None and "deadline" in voted.content
            log = await (await env.double.slash(WATCHER, table.id, "log")).reply(TIMEOUT)
            assert "played by the computer" in log.content

    run(body)
