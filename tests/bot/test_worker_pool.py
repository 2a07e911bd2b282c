"""The one worker pool (``bot.workers.worker_pool``) that the render, think and web pools are: its
warmer runs in each worker before any work, a pool says its own name in the log, and a worker
that stops answering is killed and its work done again (D150)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import pytest

from bot.workers.render_pool import RenderPool
from bot.workers.think_pool import ThinkPool
from bot.workers.worker_pool import WorkerPool, die_with_parent
from tests.stopped import gone, let_go, worker_process_id

from .pool_work import beats_for, hangs_in_a_worker, mark_warm, silent_for, warm_mark


def test_each_worker_is_warmed_before_its_work() -> None:
    async def body() -> tuple[str | None, int]:
        pool = WorkerPool(2, mark_warm, name="test pool")
        await pool.start()
        try:
            marks = await asyncio.gather(*(pool.call(warm_mark) for _ in range(4)))
            assert len(set(marks)) == 1
            return marks[0], pool.crashes
        finally:
            await pool.close()

    assert asyncio.run(body()) == (str(os.getpid()), 0)
    assert warm_mark() is None  # never warmed here


def test_the_pools_are_worker_pools_that_say_their_names(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def started_and_closed(pool: WorkerPool) -> None:
        assert isinstance(pool, WorkerPool)
        await pool.start()
        await pool.close()

    async def body() -> None:
        # the render pool's worker only tied to this process: its names, not its warm-up; the
        # two pools side by side, each with its own workers
        pools = (RenderPool(1, bytes, warm=die_with_parent), ThinkPool(1))
        await asyncio.gather(*map(started_and_closed, pools))

    with caplog.at_level(logging.INFO):
        asyncio.run(body())
    assert "render pool: 1 workers ready" in caplog.text
    assert "think pool: 1 workers ready" in caplog.text


def test_a_negative_count_is_refused() -> None:
    with pytest.raises(ValueError, match="0 \\(a thread\\) or more"):
        WorkerPool(-1, mark_warm, name="test pool")


# -- a worker that stops answering (issue 35 item 2, D150) ----------------------------------------

PATIENCE = 1.0  # seconds a test pool's worker may be silent
#: A shorter patience, for the tests whose worker is either silent throughout (taken from it
#: at once whatever the load) or gives signs of life all along, and where no fresh worker must
#: answer in time afterwards (D294): what they wait on is the patience or a multiple of it.
SHORT = 0.5


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@linux_only
def test_a_stopped_worker_is_killed_and_its_work_done_once_in_a_thread(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """SIGSTOP the pool's only worker: the next work is done once, in this process, once the
    worker has been silent for the pool's patience; the stopped worker is killed and the work
    after that goes to a new worker."""

    async def body() -> int:
        pool = WorkerPool(1, mark_warm, name="test pool", patience=PATIENCE)
        await pool.start()
        stopped = await worker_process_id(lambda: pool.call(os.getpid))
        before = pool.hangs  # a call done here while finding a worker (a loaded machine)
        try:
            os.kill(stopped, signal.SIGSTOP)
            assert await pool.call(os.getpid) == os.getpid()  # done here, in a thread
            assert (pool.hangs - before, pool.crashes) == (1, 0)
            assert await gone(stopped)
            fresh = await pool.call(os.getpid)
            assert fresh not in (stopped, os.getpid())
            assert await pool.call(warm_mark) == str(os.getpid())  # warmed as the first was
            assert (pool.hangs - before, pool.crashes) == (1, 0)
            return before
        finally:
            let_go(stopped)
            await pool.close()

    with caplog.at_level(logging.WARNING, logger="bot.workers.worker_pool"):
        before = asyncio.run(asyncio.wait_for(body(), 60))
    assert caplog.text.count("gave no sign of life for 1 s") == 1 + before


def test_work_that_deadlocks_in_a_worker_is_done_again_and_every_waiting_work_too() -> None:
    """A worker deadlocks in its work while more work waits behind it: the deadlocked work is
    done once more in a thread after the pool's patience, and the waiting work is done (by a
    thread, or by the new workers) rather than waiting for ever."""

    async def body() -> tuple[list[int], int]:
        pool = WorkerPool(1, mark_warm, name="test pool", patience=SHORT)
        await pool.start()
        try:
            answers = await asyncio.gather(
                pool.call(hangs_in_a_worker, 1), *(pool.call(abs, -n) for n in range(2, 5))
            )
            return answers, pool.hangs
        finally:
            await pool.close()

    answers, hangs = asyncio.run(asyncio.wait_for(body(), 60))
    assert answers == [1, 2, 3, 4]
    assert hangs == 1


def test_long_work_that_gives_signs_of_life_is_left_to_its_worker() -> None:
    """Work running for five times the patience, with a sign of life every tenth of it, and
    work waiting behind it: both are done by the worker, none is taken from it."""

    async def body() -> tuple[int, int, int, int]:
        pool = WorkerPool(1, mark_warm, name="test pool", patience=SHORT)
        await pool.start()
        try:
            long, behind = await asyncio.gather(
                pool.call(beats_for, 50, SHORT / 10), pool.call(os.getpid)
            )
            return long, behind, pool.hangs, pool.crashes
        finally:
            await pool.close()

    long, behind, hangs, crashes = asyncio.run(asyncio.wait_for(body(), 60))
    assert long == behind != os.getpid()
    assert (hangs, crashes) == (0, 0)


def test_silent_work_past_the_patience_counts_as_hung_but_none_means_waited_on() -> None:
    """The patience is what tells: work silent for three times it is taken from its worker;
    with no patience (None) the same work is waited on and done by the worker."""

    async def silent_work(patience: float | None) -> tuple[int, int]:
        pool = WorkerPool(1, mark_warm, name="test pool", patience=patience)
        await pool.start()
        try:
            return await pool.call(silent_for, 3 * SHORT), pool.hangs
        finally:
            await pool.close()

    async def body() -> tuple[tuple[int, int], tuple[int, int]]:
        # the two pools side by side, each with its own worker
        return await asyncio.gather(silent_work(SHORT), silent_work(None))

    patient, waiting = asyncio.run(body())
    assert patient == (os.getpid(), 1)
    pid, hangs = waiting
    assert pid != os.getpid() and hangs == 0


@linux_only
def test_closing_a_pool_with_a_stopped_worker_kills_it() -> None:
    """The bot stopping does not wait for ever on a stopped worker."""

    async def body() -> int:
        pool = WorkerPool(1, mark_warm, name="test pool", patience=SHORT)
        await pool.start()
        stopped = await worker_process_id(lambda: pool.call(os.getpid))
        try:
            os.kill(stopped, signal.SIGSTOP)
            await pool.close()
            assert await gone(stopped)
            return stopped
        finally:
            let_go(stopped)

    asyncio.run(asyncio.wait_for(body(), 60))


def test_a_patience_must_be_positive() -> None:
    for wrong in (0.0, -1.0):
        with pytest.raises(ValueError, match="patience must be a positive"):
            WorkerPool(1, mark_warm, name="test pool", patience=wrong)
