"""Pictures drawn after their message: queued per game and view, the newest only, bounded.

A turn message is posted as soon as its turn is saved; its picture follows
(``bot.thread.outbox``). The work waits here, one entry per (game, view): a newer version of the
same game and view that arrives before the older picture started replaces it, so a superseded
picture is never drawn (a final board has no newer version: it is always drawn). ``workers``
entries are drawn at once (as many as the render pool has workers), the ones somebody waits on
first. The queue holds at most ``limit`` entries: when full, an entry nobody waits on (a board
after computer turns, a picture owed since a restart) is skipped, or makes room for one somebody
waits on; an entry a player waits on is always taken. A skipped picture stays owed in the store
and the next sweep queues it again: it waits, it is not lost.

A player's panel step (or mid-turn ``/play``) queues its picture here too, under (game, "step",
user), versioned by ``put_newest``'s tickets (D100): the newest step's picture only.

A job draws; what it returns (its delivery: the Discord edit that attaches the picture) runs
beside the queue, so an edit Discord fails and discord.py retries for seconds never holds a
worker while other pictures wait (D128). Until its delivery ends the picture counts as being
drawn (``holds``), so a sweep does not queue it again.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 256  # entries; a picture is about 16-19 ms of a worker

#: Attaches a drawn picture to its message (never raises: failures are logged by the caller).
Delivery = Callable[[], Awaitable[None]]

#: Draws one picture and returns its delivery, or None when there is nothing to attach (never
#: raises: failures are logged by the caller's job).
Job = Callable[[], Awaitable[Delivery | None]]


@dataclass
class _Entry:
    version: int
    job: Job
    waited: bool


class PictureQueue:
    """Picture work per (game, view): the newest version only, bounded, waited-on first."""

    def __init__(self, workers: int = 1, limit: int = DEFAULT_LIMIT) -> None:
        if workers < 1 or limit < 1:
            raise ValueError("a picture queue needs at least one worker and one entry")
        self.workers, self.limit = workers, limit
        self._waiting: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._drawing: dict[Hashable, int] = {}  # key -> version being drawn
        self._tasks: set[asyncio.Task[None]] = set()
        self._deliveries: set[asyncio.Task[None]] = set()
        self._idle = asyncio.Event()
        self._idle.set()
        self.superseded = 0  # pictures replaced by a newer version before they started
        self._tickets = itertools.count(1)  # versions of work that has none of its own
        # the newest ticket put per key: a step asked after an older one's drawing ended, its
        # attachment still under way, is newer though neither waits nor is drawn (D128)
        self._newest: dict[Hashable, int] = {}
        self.skipped = 0  # pictures nobody waited on, left for the next sweep (queue full)

    def __len__(self) -> int:
        return len(self._waiting)

    def holds(self, key: Hashable, version: int) -> bool:
        """Whether ``version`` (or a newer one) of ``key`` is queued or being drawn."""
        entry = self._waiting.get(key)
        return (entry is not None and entry.version >= version) or (
            self._drawing.get(key, -1) >= version
        )

    def put(self, key: Hashable, version: int, job: Job, *, waited: bool = True) -> bool:
        """Queue ``job``, the picture of ``version`` of ``key`` (game, view); False if it was
        not taken (an older version than one queued, or the queue is full and nobody waits)."""
        old = self._waiting.get(key)
        if old is not None:
            if old.version > version:
                return False
            self.superseded += 1
            self._waiting[key] = _Entry(version, job, waited or old.waited)
            self._wake()
            return True
        if len(self._waiting) >= self.limit and not self._make_room(waited):
            self.skipped += 1
            log.info("pictures: queue full, picture of %s left for the next sweep", key)
            return False
        self._waiting[key] = _Entry(version, job, waited)
        self._wake()
        return True

    def put_newest(self, key: Hashable, job: Callable[[int], Awaitable[Delivery | None]]) -> int:
        """Queue ``job(version)`` as the newest picture of ``key`` (a player's panel step: no
        game version orders them, a page turned changes none), somebody waiting on it; its
        version, for ``newer``."""
        version = next(self._tickets)
        self._newest[key] = version
        self.put(key, version, lambda: job(version))
        return version

    def newer(self, key: Hashable, version: int) -> bool:
        """Whether a newer picture of ``key`` than ``version`` was asked for (``put_newest``),
        or is queued or being drawn."""
        return self._newest.get(key, -1) > version or self.holds(key, version + 1)

    def _make_room(self, waited: bool) -> bool:
        """Room for one more: a command's picture takes the place of the oldest one nobody
        waits on (skipped: drawn by a later sweep), or goes over the bound."""
        if not waited:
            return False
        unwaited = next((k for k, e in self._waiting.items() if not e.waited), None)
        if unwaited is not None:
            del self._waiting[unwaited]
            self.skipped += 1
        return True

    def _next(self) -> tuple[Hashable, _Entry] | None:
        key = next((k for k, e in self._waiting.items() if e.waited), None)
        if key is None:
            key = next(iter(self._waiting), None)
        if key is None:
            return None
        return key, self._waiting.pop(key)

    def _wake(self) -> None:
        self._idle.clear()
        while len(self._tasks) < self.workers and len(self._waiting) > len(self._tasks):
            task = asyncio.create_task(self._work(), name="himiko-pictures")
            self._tasks.add(task)
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._deliveries.discard(task)
        if self._waiting:  # put after the worker found nothing left, before it was discarded
            self._wake()
        elif not self._tasks and not self._deliveries:
            self._idle.set()

    async def _work(self) -> None:
        while (found := self._next()) is not None:
            key, entry = found
            self._drawing[key] = entry.version
            delivery: Delivery | None = None
            try:
                delivery = await entry.job()
            except Exception:  # a job logs its own failures; the queue must go on
                log.warning("pictures: drawing %s failed", key, exc_info=True)
            finally:
                if delivery is None:
                    self._drawn(key, entry.version)
                else:
                    task = asyncio.create_task(self._deliver(key, entry.version, delivery))
                    self._deliveries.add(task)
                    task.add_done_callback(self._done)

    async def _deliver(self, key: Hashable, version: int, delivery: Delivery) -> None:
        try:
            await delivery()
        except Exception:  # a delivery logs its own failures
            log.warning("pictures: attaching %s failed", key, exc_info=True)
        finally:
            self._drawn(key, version)

    def _drawn(self, key: Hashable, version: int) -> None:
        """``version`` of ``key`` is no longer being drawn or attached."""
        if self._drawing.get(key) == version:
            del self._drawing[key]

    async def idle(self) -> None:
        """Wait until every queued picture was drawn and attached (tests, a shutdown)."""
        await self._idle.wait()

    async def close(self) -> None:
        """Forget what waits and cancel what is being drawn or attached (still owed in the
        store)."""
        self._waiting.clear()
        tasks = [*self._tasks, *self._deliveries]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._idle.set()
