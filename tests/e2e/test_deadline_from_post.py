"""A turn's clock starts when its message is posted (D156): a fixed deadline whose opening the
thread refused for hours counts from the post, on SQLite and on PostgreSQL. (A time bank's turn:
tests/e2e/test_time_bank.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import GUEST, HOST, TIMEOUT, Table, has_png, himiko_env, run
from tests.e2e.test_recovery import POST, quick_retries
from tests.e2e.test_reminders import HOUR, reminders_to, rows

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def test_a_fixed_deadline_starts_when_the_opening_is_posted(tmp_path: Path) -> None:
    """D156 (docs/bot.md: "starts when the turn's message is posted"): Start saves the game but
    the thread refuses its opening for 10 h, a restart on the way. Posted at last, the opening
    states 48 h from the post, the reminder rows count from it, and the half-time reminder
    comes 24 h after the post, not after Start."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            quick_retries(env, attempts=1)
            lobby = await env.open_lobby(HOST, seats=2)
            await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
            double.faults.fail(POST, status=503, times=1000, channel_id=lobby.id)
            start = await env.lobby_click(HOST, double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            await env.settled()
            table = Table(double.channel(lobby.id), lobby, lobby)
            assert (await env.game(table.id)).status == "active"
            assert await rows(env, table) == []  # nothing runs before the opening is shown
            env.clock.advance(4 * HOUR)
            await env.restart()  # between "saved" and "posted": still refused at start-up
            quick_retries(env, attempts=1)
            await env.settled()
            env.clock.advance(6 * HOUR)

            double.faults.clear()
            await env.bot.sweep()
            opening = await double.wait_for_message(table.id, has_png, TIMEOUT)
            await env.settled()
            posted = int(env.clock())
            deadline = posted + 48 * HOUR
            assert f"<t:{deadline}:R>" in opening.text()
            player = GUEST if await env.current_user(table.id) == GUEST.id else HOST
            due = {r.kind: (r.due_at, r.deadline_at) for r in await rows(env, table)}
            assert due == {
                "half": (posted + 24 * HOUR, deadline),
                "near": (posted + 44 * HOUR, deadline),
                "deadline": (deadline, deadline),
            }
            env.clock.advance(24 * HOUR - 1)
            assert await env.bot.scheduler.tick() == 0
            env.clock.advance(1)
            assert await env.bot.scheduler.tick() == 1
            [reminder] = reminders_to(env, table, player)
            assert f"<t:{deadline}:R>" in reminder.content

    run(body, timeout=120)
