"""The bot's parts, measured: each a subclass (or wrapper) of the part it measures, built by the
composition root instead of the plain part when metrics are on (each subclass takes its part's
own arguments, and the metric it feeds by keyword).

- ``TimedOutbox``: how long posting a thread message a game owed takes (``seconds``; None with
  JSON logs only), and its game in the log context;
- ``CountedReminders``: the reminders sent;
- ``TimedRenderPool``, ``TimedThinkPool``: how long a board picture or a decision takes in its
  pool (waiting for a worker included; a probe's ``call`` is not timed);
- ``CountedStore``: the store's calls that failed with a database error;
- ``discord_trace``: Discord's HTTP answers by status (aiohttp's trace on discord.py's session).
"""

from __future__ import annotations

import functools
import inspect
import sqlite3
import time
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any, TypeVar, cast

import aiohttp
import asyncpg
import discord
from prometheus_client import Counter, Histogram

from bot.background.scheduler import ReminderScheduler
from bot.context import Owed
from bot.ops.logs import log_context
from bot.store import GameRepository, MigrationError
from bot.store.errors import DatabaseUnusable
from bot.thread.outbox import Outbox
from bot.workers.render_pool import RenderPool
from bot.workers.think_pool import ThinkPool
from engine.contract import Event

T = TypeVar("T")

#: Failures that mean the database itself failed (not a refusal the store made on purpose).
DATABASE_FAILURES: tuple[type[BaseException], ...] = (
    sqlite3.Error,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    DatabaseUnusable,
    MigrationError,
    OSError,  # the server unreachable, the connection reset
)


def is_database_error(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) is a failure of the database itself."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, DATABASE_FAILURES):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


class TimedOutbox(Outbox):
    """The outbox, timing each thread message it posts (``seconds``)."""

    def __init__(self, *args: Any, seconds: Histogram | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._message_seconds = seconds

    async def flush(
        self,
        game_id: int,
        known: Owed | None = None,
        channel: discord.abc.Messageable | None = None,
    ) -> bool:
        """``Outbox.flush``, timed when it posted a message, its game in the log context."""
        began = time.perf_counter()
        with log_context(game=game_id):
            posted = await super().flush(game_id, known, channel)
        if posted and self._message_seconds is not None:
            self._message_seconds.observe(time.perf_counter() - began)
        return posted


class CountedReminders(ReminderScheduler):
    """The reminder scheduler, counting the reminder messages it sends (``sent``)."""

    def __init__(self, *args: Any, sent: Counter, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reminders_sent = sent

    async def tick(self) -> int:
        """``ReminderScheduler.tick``, counted."""
        sent = await super().tick()
        self._reminders_sent.inc(sent)
        return sent


class TimedRenderPool(RenderPool):
    """The render pool, timing each board picture it draws (``seconds``)."""

    def __init__(self, *args: Any, seconds: Histogram, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._picture_seconds = seconds

    async def draw(
        self, view: dict[str, Any], events: Sequence[Event] | None, *more: object
    ) -> bytes:
        """``RenderPool.draw``, timed."""
        with self._picture_seconds.time():
            return await super().draw(view, events, *more)

    async def draw_payload(self, payload: bytes) -> bytes:
        """``RenderPool.draw_payload``, timed."""
        with self._picture_seconds.time():
            return await super().draw_payload(payload)


class TimedThinkPool(ThinkPool):
    """The think pool, timing each decision, hint or turning points (``seconds``)."""

    def __init__(self, *args: Any, seconds: Histogram, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._think_seconds = seconds

    async def think(self, work: Callable[..., T], *args: Any) -> T:
        """``ThinkPool.think``, timed."""
        with self._think_seconds.time():
            return await super().think(work, *args)


class CountedStore:
    """The repository, counting the calls that failed with a database error (``errors``);
    every other attribute is the repository's own."""

    def __init__(self, repo: GameRepository, errors: Counter) -> None:
        self._repo = repo
        self._errors = errors

    @property
    def repository(self) -> GameRepository:
        """The repository behind."""
        return self._repo

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._repo, name)
        if not inspect.iscoroutinefunction(value):
            return value

        @functools.wraps(value)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            try:
                return await value(*args, **kwargs)
            except Exception as error:
                if is_database_error(error):
                    self._errors.inc()
                raise

        setattr(self, name, counted)  # made once per method
        return counted


def counted_store(repo: GameRepository, errors: Counter) -> GameRepository:
    """``repo`` with its database errors counted, as a repository."""
    return cast(GameRepository, CountedStore(repo, errors))


def discord_trace(responses: Counter) -> aiohttp.TraceConfig:
    """A trace for discord.py's HTTP session (``Client(http_trace=...)``): every answer
    counted by status, a request that got none as ``error``."""
    trace = aiohttp.TraceConfig()

    async def answered(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        responses.labels(str(params.response.status)).inc()

    async def failed(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        responses.labels("error").inc()

    trace.on_request_end.append(answered)
    trace.on_request_exception.append(failed)
    return trace
