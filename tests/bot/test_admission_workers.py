"""The render workers yield the cores to the event loop (D118): they run at a lower priority,
so under contention the loop's answers win and the pictures, which follow, wait."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from typing import Any

from bot.workers.render_pool import WORKER_NICENESS, RenderPool


def niceness(view: dict[str, Any], events: Sequence[dict[str, Any]] | None) -> bytes:
    """The niceness of whoever draws it."""
    return str(os.nice(0)).encode()


def test_the_render_workers_run_at_a_lower_priority_than_the_bot() -> None:
    """A worker process is ``WORKER_NICENESS`` nicer than the bot; drawing in a thread (no
    workers) leaves the bot's own priority alone."""

    async def body(processes: int) -> int:
        pool = RenderPool(processes, niceness)
        await pool.start()
        try:
            return int(await pool.draw({}, None))
        finally:
            await pool.close()

    mine = os.nice(0)
    assert WORKER_NICENESS > 0
    assert asyncio.run(body(1)) == min(19, mine + WORKER_NICENESS)
    assert asyncio.run(body(0)) == mine == os.nice(0)
