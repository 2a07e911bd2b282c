"""Work the pool tests hand to worker processes, in a module cheap to import.

A spawned worker imports the module of each function it is handed before it runs it: a test
module importing the whole bot (``bot.service``: discord.py, aiohttp, the games) costs each new
worker about a second of CPU, and a test about the pool itself (a dead, a stopped, a closed
worker) starts several generations of them. These functions need nothing but the standard
library and the pool's own module (``bot.workers.worker_pool``).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from typing import Any

from bot.workers.worker_pool import beat, die_with_parent

#: The environment variable ``mark_warm`` sets in a worker.
WARMED = "HIMIKO_TEST_WARMED"


def in_a_worker() -> bool:
    """Whether this runs in a pool's worker process (not in the test's own)."""
    return multiprocessing.parent_process() is not None


def drawer_pid(view: dict[str, Any], events: Sequence[dict[str, Any]] | None) -> bytes:
    """A drawer: the process id of whoever draws it."""
    return str(os.getpid()).encode()


def drawer_dies_in_a_worker(view: dict[str, Any], events: Sequence[dict[str, Any]] | None) -> bytes:
    """A drawer that kills the worker process drawing it (as the out-of-memory killer would);
    fine in-process."""
    if in_a_worker():
        os._exit(9)
    return b"\x89PNG drawn in-process"


def dies_in_a_worker(answer: int) -> int:
    """Kills the worker process running it (as the out-of-memory killer would); fine here."""
    if in_a_worker():
        os._exit(9)
    return answer


def doubled(value: int) -> tuple[int, bool]:
    """The value doubled, and whether a worker process computed it."""
    return value * 2, in_a_worker()


def mark_warm(parent: int) -> None:
    """A warmer: ties the worker to its parent and leaves a mark work can see."""
    die_with_parent(parent)
    os.environ[WARMED] = str(parent)


def warm_mark() -> str | None:
    """The warmer's mark in the process running this."""
    return os.environ.get(WARMED)


def hangs_in_a_worker(answer: int) -> int:
    """Never returns in a worker process (a deadlock); ``answer`` anywhere else."""
    if in_a_worker():
        threading.Event().wait()
    return answer


def beats_for(steps: int, every: float) -> int:
    """Long work that gives a sign of life every step (``every`` seconds); the process id of
    the worker that did it."""
    for _ in range(steps):
        time.sleep(every)
        beat()
    return os.getpid()


def silent_for(seconds: float) -> int:
    """Work that gives no sign of life for ``seconds`` in a worker (done at once when the pool
    does it again in this process); the process id that did it."""
    if in_a_worker():
        time.sleep(seconds)
    return os.getpid()


def warm_at_this_priority(parent: int) -> None:
    """The render workers' warm-up (a board per game drawn: fonts, layers, palettes loaded),
    at the test process's priority rather than the bot's lower one: a test about what the
    warm-up leaves behind, not about priority, is then not starved on a loaded machine."""
    from bot.workers.render_pool import warm_worker

    die_with_parent(parent)
    warm_worker(None)  # None: neither tied to a parent nor made nicer (done above, or not)
