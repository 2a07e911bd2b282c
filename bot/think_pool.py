"""Computer players' decisions off the event loop: a small pool of worker processes.

A strong decision searches for 0.25-1 s and holds the GIL all that time, so a thread would slow
every other game's answers; a process does not (like ``bot.render_pool``). ``ThinkPool(0)``
thinks in a thread instead (tests, or a host where processes are unwelcome). A worker that dies
(killed, out of memory) is a partial failure: the pool is rebuilt, the decision is made once
more in a thread, and a warning is logged. Nothing is saved before a decision comes back, so a
decision lost with its worker, or with the bot, is simply made again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from typing import Any, TypeVar

from bot.render_pool import die_with_parent

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


def _ready() -> int:
    """A worker's process id (submitted once per worker to start and warm them all)."""
    return os.getpid()


class ThinkPool:
    """Where computer players think: ``processes`` worker processes, or a thread when 0."""

    def __init__(self, processes: int) -> None:
        if processes < 0:
            raise ValueError("processes must be 0 (a thread) or more")
        self.processes = processes
        self._executor: ProcessPoolExecutor | None = None
        self.crashes = 0  # worker deaths survived (the decision was made in a thread)

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn: a fresh interpreter, never a fork of a process with a loop, sockets, databases
        return ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=warm_worker,
            initargs=(os.getpid(),),
        )

    async def start(self) -> None:
        """Start the workers and wait until each has imported the games (no-op for a thread)."""
        if self.processes == 0 or self._executor is not None:
            return
        self._executor = self._new_executor()
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(
            *(loop.run_in_executor(self._executor, _ready) for _ in range(self.processes))
        )
        log.info("think pool: %d workers ready (pids %s)", self.processes, sorted(set(pids)))

    async def think(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker (``work``: a module-level function), or in a thread;
        once more in a thread if the worker died."""
        executor = self._executor
        if executor is None:
            return await asyncio.to_thread(work, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, work, *args)
        except BrokenExecutor:
            self.crashes += 1
            log.warning("think pool: a worker died; pool restarted, decision made in a thread")
            if self._executor is executor:  # the first caller to see it replaces the pool
                self._executor = self._new_executor()
                executor.shutdown(wait=False, cancel_futures=True)
            return await asyncio.to_thread(work, *args)

    async def close(self) -> None:
        """Stop the workers (decisions under way finish first)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
