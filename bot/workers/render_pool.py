"""Pictures drawn off the event loop: a pool of worker processes, warmed at start-up.

Drawing a board holds the GIL for its whole time (text, palette mapping, zlib), so a thread
does not keep the loop responsive under load; a process does. ``RenderPool(0)`` draws in a
thread instead (tests, or a host where processes are unwelcome). A worker that dies (killed,
out of memory) is a partial failure: the pool is rebuilt, the picture is drawn once more in
this process, and a warning is logged (the pool itself is ``bot.workers.worker_pool``'s). The play
itself was saved before its picture was asked. A worker silent for ``PATIENCE`` seconds while
a picture waits on it (SIGSTOP, a deadlock) counts as dead the same way (D150).

The workers run at a lower CPU priority (``WORKER_NICENESS``, D118): when the cores are contended
the event loop's answers win them and the pictures, which follow their messages, wait.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
from collections.abc import Callable, Sequence
from typing import Any

from bot.workers.worker_pool import PATIENCE, Warmer, WorkerPool, die_with_parent
from engine.contract import Event

log = logging.getLogger(__name__)

MAX_DEFAULT_PROCESSES = 4
#: How much lower than the bot's process its render workers run (``os.nice``): 10 gives the
#: loop about nine tenths of a contended core; an idle core still draws at full speed.
WORKER_NICENESS = 10

__all__ = [
    "MAX_DEFAULT_PROCESSES",
    "PATIENCE",
    "WORKER_NICENESS",
    "PictureDrawer",
    "RenderPool",
    "default_processes",
]


#: Draws a game's picture: (view, events marked or None, then any more arguments: the legal
#: actions marked, the picture's extras) -> PNG bytes; a module-level
#: function (workers import it by name) in processes.
PictureDrawer = Callable[..., bytes]


def default_processes(cpus: int | None = None) -> int:
    """Workers when RENDER_PROCESSES is not set: one core left to the event loop, 1 to 4."""
    count = os.cpu_count() if cpus is None else cpus
    return max(1, min(MAX_DEFAULT_PROCESSES, (count or 1) - 1))


def warm_worker(parent: int | None = None) -> None:
    """Load fonts, static layers, sprites and palettes: one board per game (in each worker),
    after tying the worker's life to the bot's process (``parent``)."""
    if parent is not None:
        die_with_parent(parent)
        with contextlib.suppress(OSError, AttributeError):  # not permitted, or no nice here
            os.nice(WORKER_NICENESS)
    from engine import games
    from render import render_board

    for key, rules in games.GAMES.items():
        view = games.new(key, [f"P{i}" for i in range(rules.min_players)], 0).view(None)
        render_board(view)


def draw_pickled(drawer: PictureDrawer, payload: bytes) -> bytes:
    """Draw a picture from its pickled arguments (view, events, then the drawer's others) (in a
    worker)."""
    return drawer(*pickle.loads(payload))


class RenderPool(WorkerPool):
    """Where pictures are drawn: ``processes`` worker processes, or a thread when 0;
    ``patience``: the seconds a worker may be silent while a picture waits on it (a picture
    gives a sign of life as it starts and ends: a minute is twenty times the slowest, a recap
    GIF); ``warm``: what prepares each worker (the bot's: ``warm_worker``; a test about the
    pool itself gives a lighter one)."""

    def __init__(
        self,
        processes: int,
        drawer: PictureDrawer,
        patience: float | None = PATIENCE,
        *,
        warm: Warmer = warm_worker,
    ) -> None:
        super().__init__(processes, warm, name="render pool", log=log, patience=patience)
        self.drawer = drawer  # module-level in processes: a worker function may be handed it

    async def draw(
        self, view: dict[str, Any], events: Sequence[Event] | None, *more: object
    ) -> bytes:
        """The picture, drawn by a worker (or a thread); once more in-process if a worker died
        or hung.
        ``more``: the drawer's further arguments (``render_picture``'s: the legal actions
        marked and the picture's extras)."""
        return await self.call(self.drawer, view, events, *more)

    async def draw_payload(self, payload: bytes) -> bytes:
        """``draw`` of a picture's pickled arguments (``picture_payload``): the
        bytes its key was hashed from are the bytes sent, not the view pickled again."""
        return await self.call(draw_pickled, self.drawer, payload)
