"""Computer players: one background task per game that flushes its outbox, then plays.

Transient Discord, network or database failures are retried with a growing pause; after
``attempts`` the task stops with a warning and the bot's periodic sweep starts it again. A thread
that is gone or closed to the bot (NotFound, Forbidden) stops that game's task with a warning and
the sweep leaves it alone until the next start. At most ``slots`` games post or play at once, so
a backlog (hundreds of owed messages after an outage) never crowds out interactive replies.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import aclosing

import aiohttp
import discord

from bot.context import Himiko
from bot.store import is_busy
from bot.thread.threads import NotRecorded

log = logging.getLogger(__name__)

FIRST_RETRY = 2.0
MAX_RETRY = 300.0
ATTEMPTS = 10
SLOTS = 2


def transient(error: BaseException) -> bool:
    """Whether trying again later may succeed (server errors, rate limits, network, busy DB)."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    if is_busy(error):  # another writer holds the database
        return True
    return isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError | NotRecorded)


class ComputerRunner:
    """Plays computer seats in the background, one task per game, with a pause per turn."""

    def __init__(
        self,
        bot: Himiko,
        pause: float,
        *,
        first_retry: float = FIRST_RETRY,
        max_retry: float = MAX_RETRY,
        attempts: int = ATTEMPTS,
        slots: int = SLOTS,
    ) -> None:
        self.bot = bot
        self.pause = pause
        self.first_retry, self.max_retry, self.attempts = first_retry, max_retry, attempts
        self.slots = asyncio.Semaphore(slots)
        self.unreachable: set[int] = set()  # games whose thread is gone or closed to the bot
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._stopped = False  # once stopped (the bot closing), a kick starts nothing

    def kick(self, game_id: int) -> None:
        """Post what the game owes and let its computer seats play (once, if already running).

        After ``stop`` nothing starts: the store may be closing, and whatever is owed is read from
        it again by the next process's sweep."""
        if self._stopped:
            return
        if game_id in self._tasks:
            self._again.add(game_id)
            return
        task = asyncio.create_task(self._run(game_id), name=f"computers-{game_id}")
        self._tasks[game_id] = task

    async def _run(self, game_id: int) -> None:
        try:
            await self._loop(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer turns failed in game %s", game_id)
        finally:
            self._tasks.pop(game_id, None)

    async def _loop(self, game_id: int) -> None:
        delay, failures = self.first_retry, 0
        while True:
            self._again.discard(game_id)
            try:
                await self._play(game_id)
            except (discord.NotFound, discord.Forbidden) as error:
                log.warning("game %s: cannot post in its thread (%s); stopping", game_id, error)
                self.unreachable.add(game_id)
                return
            except Exception as error:
                failures += 1
                if not transient(error):
                    raise
                if failures >= self.attempts:
                    if game_id in self._again:  # kicked during this attempt (a sweep): once more
                        continue
                    log.warning(
                        "game %s: still failing (%s); the next sweep retries", game_id, error
                    )
                    return
                log.warning(
                    "game %s: posting failed (attempt %d), retrying in %.0f s: %s",
                    game_id,
                    failures,
                    delay,
                    error,
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.max_retry)
                self._again.add(game_id)
                continue
            delay, failures = self.first_retry, 0
            if game_id not in self._again:
                return

    async def _play(self, game_id: int) -> None:
        await asyncio.sleep(self.pause)
        outbox = self.bot.outbox
        async with self.slots:
            await outbox.flush(game_id)
        async with aclosing(self.bot.rooms.computers.computer_turns(game_id)) as turns:
            while True:
                async with self.slots:  # one computer turn (play, save, render, post) per slot
                    report = await anext(turns, None)
                    if report is None:
                        return
                    try:
                        await outbox.flush(game_id, report)
                    finally:  # the game ended: its ratings and league, in the background
                        if report.final is not None:
                            self.bot.leagues.after_game(game_id)
                if report.next_player is not None and report.next_player.computer:
                    await asyncio.sleep(self.pause)

    async def idle(self) -> None:
        """Wait until no computer turn is running (for tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel every running task; later kicks start nothing."""
        self._stopped = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
