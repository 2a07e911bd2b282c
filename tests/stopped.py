"""Tests that SIGSTOP a worker process: find a worker's pid, never this process's, and clean up.

A pool under load may do a call in this process (its fallback when a worker is silent for the
pool's patience): the pid it then returns is the test runner's own, and stopping "the worker"
would stop the test run, and killing it afterwards would kill the run. ``worker_process_id`` asks
again until a worker answers; ``let_go`` never signals this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Awaitable, Callable

import pytest

TRIES = 20  # calls done here in a row before the test gives up: the pool has no worker at all


async def worker_process_id(ask: Callable[[], Awaitable[object]]) -> int:
    """The pid a pool's worker process answers ``ask`` with (``ask`` returns a pid as an int,
    str or bytes); a call the pool did in this process is asked again."""
    for _ in range(TRIES):
        answer = await ask()
        pid = int(answer.decode() if isinstance(answer, bytes) else str(answer))
        if pid != os.getpid():
            return pid
    pytest.fail(f"the pool did {TRIES} calls in this process in a row: no worker to stop")


def alive(pid: int) -> bool:
    """Whether a process exists and is neither a zombie nor dead and reaped."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(")")[-1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


async def gone(pid: int) -> bool:
    """Whether the process ended (a bound, not a speed: a killed process ends at once)."""
    for _ in range(300):
        if not alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


def let_go(pid: int) -> None:
    """Clean up after a test that stopped a worker: continue it, then kill it (never this
    process)."""
    if pid == os.getpid():
        return
    for sig in (signal.SIGCONT, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
