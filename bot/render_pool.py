"""Pictures drawn off the event loop: a pool of worker processes, warmed at start-up.

Drawing a board holds the GIL for its whole time (text, palette mapping, zlib), so a thread
does not keep the loop responsive under load; a process does. ``RenderPool(0)`` draws in a
thread instead (tests, or a host where processes are unwelcome). A worker that dies (killed,
out of memory) is a partial failure: the pool is rebuilt, the picture is drawn once more in
this process, and a warning is logged. The play itself was saved before its picture was asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from typing import Any, TypeVar

from engine.contract import Event

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_DEFAULT_PROCESSES = 4
PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent dies

__all__ = ["MAX_DEFAULT_PROCESSES", "PictureDrawer", "RenderPool", "default_processes"]


#: Draws a game's picture: (view, events marked or None, then any more arguments: the language,
#: the legal actions marked, the bot's extras such as stand-ins) -> PNG bytes; a module-level
#: function (workers import it by name) in processes.
PictureDrawer = Callable[..., bytes]


def default_processes(cpus: int | None = None) -> int:
    """Workers when RENDER_PROCESSES is not set: one core left to the event loop, 1 to 4."""
    count = os.cpu_count() if cpus is None else cpus
    return max(1, min(MAX_DEFAULT_PROCESSES, (count or 1) - 1))


def die_with_parent(parent: int) -> None:
    """End this worker when the bot's process dies, even by SIGKILL (Linux: PR_SET_PDEATHSIG);
    an orphaned worker would otherwise live on and hold the bot's stdout and stderr open."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the bot died before the line above took effect
        os._exit(0)


def warm_worker(parent: int | None = None) -> None:
    """Load fonts, static layers, sprites and palettes: one board per game (in each worker),
    after tying the worker's life to the bot's process (``parent``)."""
    if parent is not None:
        die_with_parent(parent)
    from engine import games
    from render import render_board

    for key, rules in games.GAMES.items():
        view = games.new(key, [f"P{i}" for i in range(rules.min_players)], 0).view(None)
        render_board(view)


def _ready() -> int:
    """A worker's process id (submitted once per worker to start and warm them all)."""
    return os.getpid()


class RenderPool:
    """Where pictures are drawn: ``processes`` worker processes, or a thread when 0."""

    def __init__(self, processes: int, drawer: PictureDrawer) -> None:
        if processes < 0:
            raise ValueError("processes must be 0 (a thread) or more")
        self.processes = processes
        self._drawer = drawer
        self._executor: ProcessPoolExecutor | None = None
        self.crashes = 0  # worker deaths survived (the picture was drawn in-process)

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn: a fresh interpreter per worker, never a fork of a process running an event
        # loop, sockets and database connections
        return ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=warm_worker,
            initargs=(os.getpid(),),
        )

    async def start(self) -> None:
        """Start the workers and wait until each has warmed its caches (no-op for a thread)."""
        if self.processes == 0 or self._executor is not None:
            return
        self._executor = self._new_executor()
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(
            *(loop.run_in_executor(self._executor, _ready) for _ in range(self.processes))
        )
        log.info("render pool: %d workers warmed (pids %s)", self.processes, sorted(set(pids)))

    async def draw(
        self, view: dict[str, Any], events: Sequence[Event] | None, *more: object
    ) -> bytes:
        """The picture, drawn by a worker (or a thread); once more in-process if a worker died.
        ``more``: further arguments of the drawer (e.g. the language)."""
        return await self.call(self._drawer, view, events, *more)

    async def call(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` run by a worker (or a thread): a module-level function (workers
        import it by name), e.g. the drawer or a game's recap; once more in-process if a
        worker died."""
        executor = self._executor
        if executor is None:
            return await asyncio.to_thread(function, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, function, *args)
        except BrokenExecutor:
            self.crashes += 1
            log.warning("render pool: a worker died; pool restarted, picture drawn in-process")
            if self._executor is executor:  # the first caller to see it replaces the pool
                self._executor = self._new_executor()
                executor.shutdown(wait=False, cancel_futures=True)
            return await asyncio.to_thread(function, *args)

    async def close(self) -> None:
        """Stop the workers (pictures being drawn finish first)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
