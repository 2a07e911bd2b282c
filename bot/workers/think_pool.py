"""Computer players' decisions off the event loop: a small pool of worker processes.

A strong decision searches for 0.25-1 s and holds the GIL all that time, so a thread would slow
every other game's answers; a process does not (a ``bot.workers.worker_pool.WorkerPool``, as the
render pool is). ``ThinkPool(0)`` thinks in a thread instead (tests, or a host where processes are
unwelcome). A worker that dies (killed, out of memory) is a partial failure: the pool is
rebuilt, the decision is made once more in a thread, and a warning is logged. Nothing is saved
before a decision comes back, so a decision lost with its worker, or with the bot, is simply
made again.

A worker that stops answering (SIGSTOP, a deadlock) counts as dead too (D150): the work leaves a
sign of life after each decision (``bot.workers.worker_pool.beat``), and a worker silent for the
pool's patience, a decision's deadline ``PATIENCE_FACTOR`` times over plus ``PATIENCE_MARGIN``
seconds (THINK_PATIENCE_S sets another), is killed and the decision made again in a thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from bot.workers.worker_pool import WorkerPool, die_with_parent

log = logging.getLogger(__name__)

T = TypeVar("T")
DEFAULT_PROCESSES = 1  # THINK_PROCESSES when not set: one core stays with the loop and pictures
#: A worker silent (no decision made) for a decision's deadline this many times over, plus
#: ``PATIENCE_MARGIN`` seconds, counts as hung: a decision on a loaded machine overshoots its
#: deadline by a sample per candidate action at most, never by several seconds.
PATIENCE_FACTOR = 5
PATIENCE_MARGIN = 10.0

__all__ = [
    "DEFAULT_PROCESSES",
    "PATIENCE_FACTOR",
    "PATIENCE_MARGIN",
    "ThinkPool",
    "default_patience",
]


def default_patience() -> float:
    """Seconds a think worker may be silent before it counts as hung, unless THINK_PATIENCE_S
    says otherwise: a decision's deadline (``DECISION_SECONDS``) x 5 + 10 s, so 15 s (D150)."""
    from bot.service.thinking import DECISION_SECONDS  # here: bot.service imports this module

    return DECISION_SECONDS * PATIENCE_FACTOR + PATIENCE_MARGIN


def warm_worker(parent: int | None = None) -> None:
    """Import the engine's games (and their search) once per worker, tied to the bot's life."""
    if parent is not None:
        die_with_parent(parent)
    from engine import games

    for key in games.GAMES:
        games.computer_player(key, "strong")


class ThinkPool(WorkerPool):
    """Where computer players think: ``processes`` worker processes, or a thread when 0;
    ``patience``: the seconds a worker may be silent before it counts as hung (None: the
    default, ``default_patience()``)."""

    def __init__(self, processes: int, patience: float | None = None) -> None:
        wait = default_patience() if patience is None else patience
        super().__init__(processes, warm_worker, name="think pool", log=log, patience=wait)

    async def think(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker (``work``: a module-level function), or in a thread;
        once more in a thread if the worker died or hung (the pool's ``call``)."""
        return await self.call(work, *args)
