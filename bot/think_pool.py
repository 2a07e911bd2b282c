"""Computer players' decisions off the event loop: a small pool of worker processes.

A strong decision searches for 0.25-1 s and holds the GIL all that time, so a thread would slow
every other game's answers; a process does not (a ``bot.worker_pool.WorkerPool``, as the render
pool is). ``ThinkPool(0)`` thinks in a thread instead (tests, or a host where processes are
unwelcome). A worker that dies (killed, out of memory) is a partial failure: the pool is
rebuilt, the decision is made once more in a thread, and a warning is logged. Nothing is saved
before a decision comes back, so a decision lost with its worker, or with the bot, is simply
made again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from bot.worker_pool import WorkerPool, die_with_parent

log = logging.getLogger(__name__)

T = TypeVar("T")
DEFAULT_PROCESSES = 1  # THINK_PROCESSES when not set: one core stays with the loop and pictures

__all__ = ["DEFAULT_PROCESSES", "ThinkPool"]


def warm_worker(parent: int | None = None) -> None:
    """Import the engine's games (and their search) once per worker, tied to the bot's life."""
    if parent is not None:
        die_with_parent(parent)
    from engine import games

    for key in games.GAMES:
        games.computer_player(key, "strong")


class ThinkPool(WorkerPool):
    """Where computer players think: ``processes`` worker processes, or a thread when 0."""

    def __init__(self, processes: int) -> None:
        super().__init__(processes, warm_worker, name="think pool", log=log)

    async def think(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker (``work``: a module-level function), or in a thread;
        once more in a thread if the worker died (the pool's ``call``)."""
        return await self.call(work, *args)
