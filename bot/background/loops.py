"""The bot's background loops (sweep, reminders, league catch-up): one small shared helper."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Every:
    """Runs ``body`` now and again in one background task, until stopped.

    ``interval`` is asked before each pause (so a changed setting counts from the next round);
    ``first`` runs once before the first round (e.g. waiting until the client is ready);
    ``at_once``: the first round runs right away, else after one pause. A round that raises is
    logged and the loop goes on: the next round tries again.
    """

    def __init__(
        self,
        body: Callable[[], Awaitable[object]],
        interval: Callable[[], float],
        *,
        name: str,
        at_once: bool = True,
        first: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self.body, self.interval, self.name = body, interval, name
        self.at_once, self.first = at_once, first
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Whether the loop's task was started and not stopped."""
        return self._task is not None

    def start(self) -> None:
        """Start the loop in the background (once; calling it again changes nothing)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Cancel the loop (a round under way is cut short) and wait until it ended."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _run(self) -> None:
        if self.first is not None:
            await self.first()
        if not self.at_once:
            await asyncio.sleep(self.interval())
        while True:
            try:
                await self.body()
            except Exception:  # the loop must survive anything; the next round tries again
                log.warning("%s failed", self.name, exc_info=True)
            await asyncio.sleep(self.interval())
