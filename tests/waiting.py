"""Waiting in tests for a condition, never for a fixed time (the suite asserts no wall-clock)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

#: How often a condition is looked at again.
STEP = 0.01

T = TypeVar("T")


async def eventually(check: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    """Return once ``check()`` is true (looked at every 0.01 s); fail naming ``what`` if it is
    still false after ``timeout`` seconds (a bound for a broken test, not a measure)."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() >= end:
            raise AssertionError(f"still not {what} after {timeout} s")
        await asyncio.sleep(STEP)


async def found(
    find: Callable[[], Awaitable[T | None]], what: str, timeout: float = 10.0, step: float = STEP
) -> T:
    """What ``await find()`` gives once it is not None (asked again every ``step`` s: a
    database another process writes, read through a connection of its own); fail naming
    ``what`` after ``timeout`` seconds (a bound for a broken test, not a measure)."""
    end = time.monotonic() + timeout
    while (result := await find()) is None:
        if time.monotonic() >= end:
            raise AssertionError(f"still not {what} after {timeout} s")
        await asyncio.sleep(step)
    return result


async def settled(rounds: int = 20) -> None:
    """Let the event loop run everything ready, ``rounds`` times over (no clock involved)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
