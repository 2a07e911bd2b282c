"""Work off the event loop: a pool of spawned worker processes, warmed at start-up.

Drawing a board or searching a computer player's move holds the GIL for its whole time, so a
thread does not keep the loop responsive under load; a process does. ``WorkerPool(0, ...)``
works in a thread instead (tests, or a host where processes are unwelcome). A worker that dies
(killed, out of memory) is a partial failure: the pool is rebuilt, the work is done once more
in a thread of this process, and a warning is logged. The render pool (``bot.render_pool``),
the think pool (``bot.think_pool``) and the web's pool (``bot.web.pictures``) are ones.
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
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent dies

#: Prepares a new worker process (imports, caches), given the bot's process id: a module-level
#: function (workers import it by name) that should start with ``die_with_parent(parent)``.
Warmer = Callable[[int], None]

__all__ = ["Warmer", "WorkerPool", "die_with_parent"]


def die_with_parent(parent: int) -> None:
    """End this worker when the bot's process dies, even by SIGKILL (Linux: PR_SET_PDEATHSIG);
    an orphaned worker would otherwise live on and hold the bot's stdout and stderr open."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the bot died before the line above took effect
        os._exit(0)


def _ready() -> int:
    """A worker's process id (submitted once per worker to start and warm them all)."""
    return os.getpid()


class WorkerPool:
    """``processes`` spawned worker processes prepared by ``warm``, or a thread when 0;
    ``name`` and ``log`` say who speaks in the log ("render pool", its module's logger)."""

    def __init__(
        self, processes: int, warm: Warmer, *, name: str, log: logging.Logger | None = None
    ) -> None:
        if processes < 0:
            raise ValueError("processes must be 0 (a thread) or more")
        self.processes = processes
        self.name = name
        self._warm = warm
        self._log = log or logging.getLogger(__name__)
        self._executor: ProcessPoolExecutor | None = None
        self.crashes = 0  # worker deaths survived (the work was done again in a thread)

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn: a fresh interpreter per worker, never a fork of a process running an event
        # loop, sockets and database connections
        return ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=self._warm,
            initargs=(os.getpid(),),
        )

    async def start(self) -> None:
        """Start the workers and wait until each is warmed (no-op for a thread)."""
        if self.processes == 0 or self._executor is not None:
            return
        self._executor = self._new_executor()
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(
            *(loop.run_in_executor(self._executor, _ready) for _ in range(self.processes))
        )
        self._log.info("%s: %d workers ready (pids %s)", self.name, self.processes, sorted(pids))

    async def call(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` run by a worker (``function``: module-level, workers import it
        by name), or in a thread; once more in a thread if the worker died."""
        executor = self._executor
        if executor is None:
            return await asyncio.to_thread(function, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, function, *args)
        except BrokenExecutor:
            self.crashes += 1
            self._log.warning("%s: a worker died; pool restarted, work done in a thread", self.name)
            if self._executor is executor:  # the first caller to see it replaces the pool
                self._executor = self._new_executor()
                executor.shutdown(wait=False, cancel_futures=True)
            return await asyncio.to_thread(function, *args)

    async def close(self) -> None:
        """Stop the workers (work under way finishes first)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
