"""What the repository needs from a database, whichever it is: transactions and three calls.

``sqlite.py`` and ``postgres.py`` implement it; the repository and ``queries.py`` never know
which one they talk to. A target is a SQLite file path or a ``postgresql://`` URL.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import random
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, NamedTuple, ParamSpec, Protocol, TypeVar

Row = Sequence[Any]
Target = Path | str

#: The error both backends raise when a statement breaks a constraint (the DB-API class).
IntegrityError = sqlite3.IntegrityError

URL_SCHEMES = ("postgresql://", "postgres://")

#: A repository call that lost a serialization race on PostgreSQL runs again, at most this often.
CONFLICT_ATTEMPTS = 8
CONFLICT_PAUSE = 0.005  # seconds, doubled each attempt, with jitter


class Result(NamedTuple):
    """What a data-changing statement reports: how many rows it changed."""

    rowcount: int


class Connection(Protocol):
    """One connection inside a transaction; SQL is the portable kind with ``?`` parameters."""

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        """Run one statement; how many rows it changed."""
        ...

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        """Run one statement (SELECT or ... RETURNING); every row it gives."""
        ...

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        ...


class Backend(Protocol):
    """An open database: write and read transactions, backup, close."""

    @property
    def label(self) -> str:
        """The database for messages (a path, or a URL without its password)."""
        ...

    def write(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction: commits if the block succeeds, rolls back on any exception."""
        ...

    def read(self) -> AbstractAsyncContextManager[Connection]:
        """A read transaction: every SELECT in the block sees the same committed state."""
        ...

    async def backup(self, dest: Path) -> int:
        """Write a consistent copy to ``dest`` while the bot runs; a size figure."""
        ...

    async def close(self) -> None:
        """Close every connection (waits for running transactions)."""
        ...


def is_url(target: Target) -> bool:
    """Whether a target names a PostgreSQL database (a URL) rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


@contextmanager
def database_errors(target: Target) -> Iterator[None]:
    """Turn failures to open or use ``target`` into a one-line DatabaseUnusable."""
    from . import postgres, sqlite

    guard = postgres.database_errors(str(target)) if is_url(target) else None
    with guard or sqlite.database_errors(Path(target)):
        yield


def is_busy(error: BaseException) -> bool:
    """Whether an error only says that another writer got in the way (worth retrying later)."""
    from . import postgres, sqlite

    return sqlite.is_busy(error) or postgres.is_conflict(error)


P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C", bound=type)

#: Which run of the outermost repository call this is (None outside one).
_attempt: ContextVar[int | None] = ContextVar("store_attempt", default=None)


def first_attempt() -> bool:
    """Whether a repository call is running for the first time and may run again."""
    return _attempt.get() == 0


def _retry(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    from .postgres import is_conflict

    @functools.wraps(method)
    async def retrying(*args: P.args, **kwargs: P.kwargs) -> R:
        if _attempt.get() is not None:  # an outer call retries the whole thing
            return await method(*args, **kwargs)
        try:
            for attempt in range(CONFLICT_ATTEMPTS - 1):
                _attempt.set(attempt)
                try:
                    return await method(*args, **kwargs)
                except Exception as error:
                    if not is_conflict(error):
                        raise
                await asyncio.sleep(random.uniform(0.5, 1.0) * CONFLICT_PAUSE * 2**attempt)
            _attempt.set(CONFLICT_ATTEMPTS - 1)
            return await method(*args, **kwargs)
        finally:
            _attempt.set(None)

    return retrying


def retry_conflicts(cls: C) -> C:
    """Make every public coroutine method run again after a serialization failure or deadlock.

    Such a failure rolled the whole transaction back, so running the call again is exactly
    what SQLite's busy timeout does by waiting. Methods added later get it too.
    """
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, _retry(member))
    return cls
