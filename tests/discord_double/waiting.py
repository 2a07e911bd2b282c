"""A change notifier: wait until a condition on the double's state holds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Notifier:
    """Wakes every waiter whenever the recorded state changes."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def bump(self) -> None:
        """Signal that something changed."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait_for(self, probe: Callable[[], T | None], timeout: float, what: str) -> T:
        """Return the first non-None result of ``probe``, re-checked after every change."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = probe()
            if result is not None:
                return result
            event = self._event
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:.1f}s waiting for {what}")
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                raise TimeoutError(f"timed out after {timeout:.1f}s waiting for {what}") from None
