"""Work off the event loop: a pool of spawned worker processes, warmed at start-up.

Drawing a board or searching a computer player's move holds the GIL for its whole time, so a
thread does not keep the loop responsive under load; a process does. ``WorkerPool(0, ...)``
works in a thread instead (tests, or a host where processes are unwelcome). A worker that dies
(killed, out of memory) is a partial failure: the pool is rebuilt, the work is done once more
in a thread of this process, and a warning is logged. The render pool (``bot.workers.render_pool``),
the think pool (``bot.workers.think_pool``) and the web's pool (``bot.web.pictures``) are ones.

A worker that stops answering (SIGSTOP, a deadlock) counts as dead (D150): each worker leaves a
sign of life in memory shared with the bot when it starts or ends a piece of work, and work
that runs long leaves one now and then (``beat``). Work waiting on a worker that is busy and
silent for ``patience`` seconds, or on workers none of which gave a sign since the work began
waiting ``patience`` ago, is taken from them: that generation of workers is killed, a new one
started, the work done once more in a thread, and a warning logged.
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
import time
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent dies
#: Seconds a worker may give no sign of life while work waits on it (D150), for pools that do
#: not say: twenty times the slowest picture measured (a game's recap GIF, 1.4 to 2.9 s, D93).
PATIENCE = 60.0
#: The longest pause between two looks at the workers' signs of life (seconds).
LOOK_EVERY = 1.0
#: Seconds a new generation's first worker may take to start (an interpreter spawned, the
#: warmer's module imported, its warm-up done) before work waiting on it counts as waiting on
#: hung workers.
STARTING = 60.0

#: Prepares a new worker process (imports, caches), given the bot's process id: a module-level
#: function (workers import it by name) that should start with ``die_with_parent(parent)``.
Warmer = Callable[[int], None]

__all__ = ["PATIENCE", "Warmer", "WorkerHung", "WorkerPool", "beat", "die_with_parent"]

#: In a worker: the shared signs of life of its generation and this worker's slot in them
#: (two numbers a worker: the monotonic time of its last sign, and 1.0 while it works).
_signs: tuple[Any, int] | None = None


class WorkerHung(Exception):
    """Work waited on a worker that gave no sign of life for the pool's patience."""


def die_with_parent(parent: int) -> None:
    """End this worker when the bot's process dies, even by SIGKILL (Linux: PR_SET_PDEATHSIG);
    an orphaned worker would otherwise live on and hold the bot's stdout and stderr open."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the bot died before the line above took effect
        os._exit(0)


def beat() -> None:
    """A sign of life from work that runs long (in a worker; nothing anywhere else): a pool
    takes work from a worker silent for its patience."""
    if _signs is not None:
        shared, slot = _signs
        shared[2 * slot] = time.monotonic()


def _mark(working: bool) -> None:
    """A sign of life, saying whether this worker works from now on."""
    if _signs is not None:
        shared, slot = _signs
        shared[2 * slot] = time.monotonic()
        shared[2 * slot + 1] = 1.0 if working else 0.0


def _start_worker(warm: Warmer, parent: int, shared: Any, claims: Any) -> None:
    """A new worker: warm up, then claim a slot in the shared signs of life (started)."""
    global _signs
    warm(parent)
    with claims.get_lock():
        slot = claims.value
        claims.value += 1
    if slot < len(shared) // 2:
        _signs = (shared, slot)
    _mark(False)


def _work(function: Callable[..., T], args: Sequence[object]) -> T:
    """``function(*args)`` in a worker, with a sign of life as it starts and as it ends."""
    _mark(True)
    try:
        return function(*args)
    finally:
        _mark(False)


def _ready() -> int:
    """A worker's process id (submitted once per worker to start and warm them all)."""
    return os.getpid()


class _Generation:
    """One ``ProcessPoolExecutor`` and its workers' shared signs of life."""

    def __init__(self, processes: int, warm: Warmer) -> None:
        # spawn: a fresh interpreter per worker, never a fork of a process running an event
        # loop, sockets and database connections
        context = multiprocessing.get_context("spawn")
        self.signs = context.Array("d", 2 * processes, lock=False)
        self.claims = context.Value("i", 0)  # how many workers started (claimed their slot)
        self.born = time.monotonic()
        self.executor = ProcessPoolExecutor(
            processes,
            mp_context=context,
            initializer=_start_worker,
            initargs=(warm, os.getpid(), self.signs, self.claims),
        )

    def hung(self, waiting_since: float, patience: float) -> bool:
        """Whether work waiting since ``waiting_since`` (monotonic) waits on a hung worker: one
        busy and silent for ``patience``, or none giving a sign since the wait began (and at
        least ``patience`` ago); before any worker started, none within ``STARTING``."""
        now = time.monotonic()
        if self.claims.value == 0:
            return now - self.born > max(patience, STARTING)
        signs = list(self.signs)
        times, working = signs[0::2], signs[1::2]
        if now - max([waiting_since, *times]) > patience:
            return True
        pairs = zip(times, working, strict=True)
        return any(busy and now - last > patience for last, busy in pairs)

    def kill(self) -> None:
        """SIGKILL every worker (a stopped process too: it would never take a SIGTERM)."""
        for pid in list(self.executor._processes or ()):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


class WorkerPool:
    """``processes`` spawned worker processes prepared by ``warm``, or a thread when 0;
    ``name`` and ``log`` say who speaks in the log ("render pool", its module's logger);
    ``patience``: the seconds a worker may give no sign of life while work waits on it before
    it counts as dead (None: waited on for ever)."""

    def __init__(
        self,
        processes: int,
        warm: Warmer,
        *,
        name: str,
        log: logging.Logger | None = None,
        patience: float | None = PATIENCE,
    ) -> None:
        if processes < 0:
            raise ValueError("processes must be 0 (a thread) or more")
        if patience is not None and patience <= 0:
            raise ValueError(f"patience must be a positive number of seconds, not {patience}")
        self.processes = processes
        self.name = name
        self.patience = patience
        self._warm = warm
        self._log = log or logging.getLogger(__name__)
        self._workers: _Generation | None = None
        self.crashes = 0  # worker deaths survived (the work was done again in a thread)
        self.hangs = 0  # hung workers survived (killed; the work was done again in a thread)

    @property
    def _executor(self) -> ProcessPoolExecutor | None:
        """The executor of the workers now (None in a thread)."""
        return None if self._workers is None else self._workers.executor

    async def start(self) -> None:
        """Start the workers and wait until each is warmed (no-op for a thread)."""
        if self.processes == 0 or self._workers is not None:
            return
        self._workers = _Generation(self.processes, self._warm)
        loop = asyncio.get_running_loop()
        executor = self._workers.executor
        pids = await asyncio.gather(
            *(loop.run_in_executor(executor, _ready) for _ in range(self.processes))
        )
        self._log.info("%s: %d workers ready (pids %s)", self.name, self.processes, sorted(pids))

    async def call(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` run by a worker (``function``: module-level, workers import it
        by name), or in a thread; once more in a thread if the worker died or hung."""
        workers = self._workers
        if workers is None:
            return await asyncio.to_thread(function, *args)
        try:
            return await self._watched(workers, function, args)
        except (BrokenExecutor, WorkerHung) as failure:
            if self._workers is workers:  # the first to see it: the others waited on the same
                self._tell(failure)
            self._retire(workers)
        return await asyncio.to_thread(function, *args)

    def _tell(self, failure: BaseException) -> None:
        """Count and log a generation's failure (once per generation)."""
        if isinstance(failure, WorkerHung):
            self.hangs += 1
            self._log.warning(
                "%s: a worker gave no sign of life for %.0f s; its workers killed, pool "
                "restarted, work done in a thread",
                self.name,
                self.patience,
            )
        else:
            self.crashes += 1
            self._log.warning("%s: a worker died; pool restarted, work done in a thread", self.name)

    async def _watched(
        self, workers: _Generation, function: Callable[..., T], args: Sequence[object]
    ) -> T:
        """The work's result from a worker; ``WorkerHung`` if it waits on a hung one."""
        since = time.monotonic()
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(workers.executor, _work, function, args)
        if self.patience is None:
            return await future
        look = min(LOOK_EVERY, self.patience / 4)
        try:
            while True:
                done, _ = await asyncio.wait({future}, timeout=look)
                if done:
                    return future.result()
                if workers.hung(since, self.patience):
                    raise WorkerHung
        finally:
            future.cancel()  # its answer, if it ever comes, is not wanted (no-op once done)

    def _retire(self, workers: _Generation) -> None:
        """Replace a generation that failed (the first caller to see it does) and kill its
        workers: the work waiting on them gets ``BrokenExecutor`` and is done again."""
        if self._workers is workers:
            self._workers = _Generation(self.processes, self._warm)
            for _ in range(self.processes):  # spawned and warmed now, not at the next work
                self._workers.executor.submit(_ready)
        workers.kill()
        workers.executor.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers (work under way finishes first; a hung worker is killed)."""
        workers, self._workers = self._workers, None
        if workers is None:
            return
        since = time.monotonic()
        stopped = asyncio.ensure_future(
            asyncio.to_thread(workers.executor.shutdown, wait=True, cancel_futures=True)
        )
        while self.patience is not None and not stopped.done():
            await asyncio.wait({stopped}, timeout=min(LOOK_EVERY, self.patience / 4))
            if not stopped.done() and workers.hung(since, self.patience):
                workers.kill()
        await stopped
