"""Picture work queued per game and view (issue 25 item 2): superseded pictures are never drawn,
the queue is bounded, and a picture a player waits on is never refused. The "pool" is gated: a
job records that it started, then waits for the gate."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.thread.picture_queue import Job, PictureQueue
from tests.waiting import eventually, settled


class Pool:
    """Jobs that record their start and wait for one gate (the render pool, held)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.drawn: list[str] = []

    def job(self, name: str) -> Job:
        """A picture called ``name``."""

        async def draw() -> None:
            self.drawn.append(name)
            await self.gate.wait()

        return draw


async def started(pool: Pool, count: int) -> None:
    """Wait until ``count`` pictures started."""
    await eventually(lambda: len(pool.drawn) >= count, f"{count} pictures started")


def test_a_newer_version_replaces_the_picture_not_started_yet() -> None:
    async def body() -> None:
        pool, queue = Pool(), PictureQueue(workers=1)
        assert queue.put((1, "turn"), 1, pool.job("g1 v1"))
        await started(pool, 1)  # v1 is being drawn: it is not replaced
        assert queue.put((1, "turn"), 2, pool.job("g1 v2"))
        assert queue.put((2, "turn"), 1, pool.job("g2 v1"))  # another game: its own entry
        assert queue.put((1, "turn"), 3, pool.job("g1 v3"))  # v2 never started: replaced
        assert not queue.put((1, "turn"), 2, pool.job("g1 v2 again"))  # older than queued
        assert queue.holds((1, "turn"), 3) and not queue.holds((1, "turn"), 4)
        pool.gate.set()
        await asyncio.wait_for(queue.idle(), 5)
        assert pool.drawn == ["g1 v1", "g1 v3", "g2 v1"]
        assert queue.superseded == 1

    asyncio.run(body())


def test_when_full_pictures_nobody_waits_on_are_skipped_never_a_command() -> None:
    async def body() -> None:
        pool, queue = Pool(), PictureQueue(workers=1, limit=2)
        assert queue.put((1, "turn"), 1, pool.job("busy"))
        await started(pool, 1)
        assert queue.put((2, "turn"), 1, pool.job("computer a"), waited=False)
        assert queue.put((3, "turn"), 1, pool.job("computer b"), waited=False)
        assert not queue.put((4, "turn"), 1, pool.job("computer c"), waited=False)  # full
        assert queue.put((5, "turn"), 1, pool.job("command x"))  # takes computer a's place
        assert len(queue) == 2
        assert queue.put((6, "turn"), 1, pool.job("command y"))  # computer b's place
        assert queue.put((7, "turn"), 1, pool.job("command z"))  # none left: over the bound
        assert len(queue) == 3 and queue.skipped == 3
        assert not queue.put((8, "turn"), 1, pool.job("computer d"), waited=False)
        assert len(queue) == 3 and queue.skipped == 4
        pool.gate.set()
        await asyncio.wait_for(queue.idle(), 5)
        assert pool.drawn == ["busy", "command x", "command y", "command z"]

    asyncio.run(body())


def test_a_failed_picture_does_not_stop_the_queue_and_close_forgets_the_rest() -> None:
    async def body() -> None:
        pool, queue = Pool(), PictureQueue(workers=1)

        async def broken() -> None:
            raise OSError("the render worker died")

        assert queue.put((1, "turn"), 1, broken)
        assert queue.put((2, "turn"), 1, pool.job("next"))
        await started(pool, 1)
        assert queue.put((3, "turn"), 1, pool.job("never"))
        await queue.close()  # a shutdown: what waits stays owed in the store
        await asyncio.wait_for(queue.idle(), 5)
        assert pool.drawn == ["next"] and len(queue) == 0

    asyncio.run(body())


def test_a_queue_needs_a_worker_and_room() -> None:
    with pytest.raises(ValueError):
        PictureQueue(workers=0)
    with pytest.raises(ValueError):
        PictureQueue(limit=0)


def test_a_players_newest_step_replaces_the_one_not_started_and_knows_it_is_newest() -> None:
    """Steps have no game version: ``put_newest`` numbers them; a step not started is replaced
    by the next, and one being drawn learns a newer one is waiting (``newer``)."""

    async def body() -> None:
        pool = Pool()
        queue = PictureQueue(workers=1)
        key = (1, "step", 7)
        stale: list[bool] = []

        def step(name: str) -> Callable[[int], Awaitable[None]]:
            async def draw(version: int) -> None:
                await pool.job(name)()
                stale.append(queue.newer(key, version))

            return draw

        first = queue.put_newest(key, step("a"))
        await started(pool, 1)
        second = queue.put_newest(key, step("b"))
        third = queue.put_newest(key, step("c"))
        assert first < second < third and queue.newer(key, first) and not queue.newer(key, third)
        pool.gate.set()
        await queue.idle()
        assert pool.drawn == ["a", "c"] and queue.superseded == 1
        assert stale == [True, False]  # "a" is not shown: "c" was waiting

    asyncio.run(body())


def test_an_attachment_under_way_holds_no_worker_and_keeps_its_picture_held() -> None:
    """A drawn picture's delivery (Discord's edit, retried for seconds when it fails) runs
    beside the queue: the one worker draws the next picture meanwhile, and the picture counts
    as being drawn until its delivery ends, so a sweep does not queue it again (D128)."""

    async def body() -> None:
        edit, drawn = asyncio.Event(), []
        queue = PictureQueue(workers=1)

        def job(name: str) -> Job:
            async def attach() -> None:
                await edit.wait()

            async def draw() -> Callable[[], Awaitable[None]]:
                drawn.append(name)
                return attach

            return draw

        assert queue.put((1, "turn"), 1, job("g1"))
        assert queue.put((2, "turn"), 1, job("g2"))
        await eventually(lambda: len(drawn) == 2, "both pictures drawn")
        assert drawn == ["g1", "g2"]  # g2 drawn while g1's edit hangs
        assert queue.holds((1, "turn"), 1) and queue.holds((2, "turn"), 1)
        idle = asyncio.create_task(queue.idle())
        await settled()
        assert not idle.done()  # idle waits for the attachments too
        edit.set()
        await asyncio.wait_for(idle, 5)
        assert not queue.holds((1, "turn"), 1) and not queue.holds((2, "turn"), 1)

    asyncio.run(body())


def test_a_picture_put_as_the_last_worker_ends_is_still_drawn() -> None:
    """A picture queued after the worker found nothing more to draw, but before the loop ran
    the worker's end (its done callback), was never drawn: no worker was started for it and
    the queue never went idle (a full-game e2e test hung on it now and then)."""

    async def body() -> None:
        loop = asyncio.get_running_loop()
        queue, drawn = PictureQueue(workers=1), []

        def job(name: str, then: Callable[[], object] | None = None) -> Job:
            async def draw() -> None:
                drawn.append(name)
                if then is not None:  # runs after this job's worker returns, before its end
                    loop.call_soon(then)

            return draw

        queue.put((1, "turn"), 1, job("g1", lambda: queue.put((2, "turn"), 1, job("g2"))))
        await asyncio.wait_for(queue.idle(), 5)
        assert drawn == ["g1", "g2"]

    asyncio.run(body())
