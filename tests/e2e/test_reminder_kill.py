"""A reminder sent just before ``python -m bot`` was killed (SIGKILL between the send and its
record) is not sent again by the next process, even once Discord forgot its nonce (issue 24)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.discord_double import DiscordDouble, MessageRecord
from tests.e2e import quick_bot
from tests.e2e.harness import (
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    Env,
    Table,
    first_player_id,
    make_double,
    run,
)
from tests.e2e.test_process import _environment
from tests.waiting import found

POST = "POST /channels/{channel_id}/messages"


async def spawn(double: DiscordDouble, tmp_path: Path, name: str) -> asyncio.subprocess.Process:
    """``python -m bot`` on the test's database, ticking its reminders every 0.1 s, thinking
    and drawing in threads; its output goes to ``tmp_path/<name>.log``."""
    env = _environment(double, tmp_path, double.token)
    env.update(SCHEDULER_INTERVAL_S="0.1", RENDER_PROCESSES="0", THINK_PROCESSES="0")
    log = (tmp_path / f"{name}.log").open("wb")
    return await asyncio.create_subprocess_exec(
        *quick_bot.command(), cwd=tmp_path, env=env, stdout=log, stderr=log
    )


def reminders(double: DiscordDouble, table: Table, user: int) -> list[MessageRecord]:
    """The bot's messages in the thread without a picture that ping ``user``: reminders."""
    return [
        m
        for m in double.messages(table.id, include_ephemeral=False)
        if m.author_id == double.app_id and not m.attachments and m.pinged_user_ids() == [user]
    ]


def half_reminder(db: Path) -> tuple[int | None, int | None, int]:
    """The first player's half-time reminder row: (claimed_until, sent_at, claims)."""
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT claimed_until, sent_at, claims FROM reminders WHERE kind = 'half'"
        ).fetchone()
    return row[0], row[1], row[2]


def test_a_reminder_sent_just_before_a_kill_pings_the_player_once(tmp_path: Path) -> None:
    """The reminder's message is posted and the process killed before the answer comes back
    (so before it records the reminder as sent). Its lease runs out; the next process claims
    it again, finds the message in the thread and only records it. Discord's nonce window is
    over by then (``nonce_window=0``): the nonce alone would not stop a second ping."""

    async def body() -> None:
        db = tmp_path / "himiko.sqlite3"
        async with make_double(nonce_window=0.0) as double:
            process = await spawn(double, tmp_path, "first")
            try:
                await double.wait_for_commands(GUILD, 30)
                await double.wait_ready(TIMEOUT)
                table = await Env(double, db).start_game(HOST, [GUEST])
                player = first_player_id(table.opening)
                assert player is not None
                held = double.faults.hold_response(POST, channel_id=table.id)
                with sqlite3.connect(db, timeout=30) as conn:  # half time has come
                    conn.execute("UPDATE reminders SET due_at = 0 WHERE kind = 'half'")
                await asyncio.wait_for(held.reached.wait(), 30)
                [sent] = reminders(double, table, player)  # posted; the bot has no answer yet
                process.kill()
                await process.wait()
                held.release()
                claimed, recorded, claims = half_reminder(db)
                assert claimed is not None and recorded is None and claims == 1
                with sqlite3.connect(db, timeout=30) as conn:  # its lease ran out
                    conn.execute("UPDATE reminders SET claimed_until = 0 WHERE kind = 'half'")

                process = await spawn(double, tmp_path, "second")

                async def recorded_again() -> tuple[int | None, int | None, int] | None:
                    row = half_reminder(db)  # the other process's database
                    return row if row[1] is not None else None

                _, recorded, claims = await found(
                    recorded_again, "the reminder recorded", 30, step=0.05
                )
                assert recorded is not None and claims == 2
                assert [m.id for m in reminders(double, table, player)] == [sent.id]
            finally:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
        log = (tmp_path / "second.log").read_text()
        assert "already in the thread, recorded" in log, log
        assert "Traceback" not in log, log

    run(body, timeout=120)
