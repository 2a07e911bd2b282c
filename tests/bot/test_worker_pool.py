"""The one worker pool (``bot.worker_pool``) that the render, think and web pools are: its
warmer runs in each worker before any work, and a pool says its own name in the log."""

from __future__ import annotations

import asyncio
import logging
import os

import pytest

from bot.render_pool import RenderPool
from bot.think_pool import ThinkPool
from bot.worker_pool import WorkerPool, die_with_parent

WARMED = "HIMIKO_TEST_WARMED"


def mark_warm(parent: int) -> None:
    """A warmer: ties the worker to its parent and leaves a mark work can see."""
    die_with_parent(parent)
    os.environ[WARMED] = str(parent)


def warm_mark() -> str | None:
    """The warmer's mark in the process running this."""
    return os.environ.get(WARMED)


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
    async def body() -> None:
        for pool in (RenderPool(1, bytes), ThinkPool(1)):
            assert isinstance(pool, WorkerPool)
            await pool.start()
            await pool.close()

    with caplog.at_level(logging.INFO):
        asyncio.run(body())
    assert "render pool: 1 workers ready" in caplog.text
    assert "think pool: 1 workers ready" in caplog.text


def test_a_negative_count_is_refused() -> None:
    with pytest.raises(ValueError, match="0 \\(a thread\\) or more"):
        WorkerPool(-1, mark_warm, name="test pool")
