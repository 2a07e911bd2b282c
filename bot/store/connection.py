"""What the repository needs from a database, whichever it is: transactions and three calls.

``sqlite.py`` and ``postgres.py`` implement it; the repository and ``queries/`` never know
which one they talk to. A target is a SQLite file path or a ``postgresql://`` URL. This module
imports neither backend; ``databases.py``, above both, says which one a target names.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Generator, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

#: A result row, read by column name (never by position).
Row = Mapping[str, Any]
Target = Path | str

#: The error both backends raise when a statement breaks a constraint (the DB-API class).
IntegrityError = sqlite3.IntegrityError

URL_SCHEMES = ("postgresql://", "postgres://")


class Result(NamedTuple):
    """What a data-changing statement reports: how many rows it changed."""

    rowcount: int


T = TypeVar("T")


class Step(NamedTuple):
    """One statement of a ``Script``: its rows (``fetch``), else how many rows it changed
    (a ``Result``); ``many``: run once per parameter row (``parameters`` is their list)."""

    sql: str
    parameters: Sequence[Any] = ()
    fetch: bool = True
    many: bool = False


#: A transaction's body as statements: it yields each ``Step`` and is sent its rows (or its
#: ``Result``, or None for ``many``); a statement's error is thrown into it; it returns the
#: transaction's value. No I/O of its own: SQLite runs it whole in its connection's thread
#: (one hop to the loop and back, D132), PostgreSQL statement by statement.
Script = Generator[Step, Any, T]


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

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        """One SELECT on its own, outside a transaction (one round trip; it sees one
        committed state by itself); its rows, by column name."""
        ...

    async def run_write(self, script: Script[T]) -> T:
        """Run a script in a write transaction (as ``write``); its value."""
        ...

    async def run_read(self, script: Script[T]) -> T:
        """Run a script in a read transaction (as ``read``); its value."""
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


#: Which run of the outermost repository call this is (None outside one; set by
#: ``databases.retry_conflicts``).
CALL_ATTEMPT: ContextVar[int | None] = ContextVar("store_attempt", default=None)


def first_attempt() -> bool:
    """Whether a repository call is running for the first time and may run again."""
    return CALL_ATTEMPT.get() == 0


async def run_step(conn: Connection, step: Step) -> Any:
    """Run one step of a script on a connection inside a transaction; what it is sent."""
    if step.many:
        return await conn.executemany(step.sql, step.parameters)
    if step.fetch:
        return await conn.execute_fetchall(step.sql, step.parameters)
    return await conn.execute(step.sql, step.parameters)


async def drive(conn: Connection, script: Script[T]) -> T:
    """Run a script statement by statement on a connection inside a transaction."""
    try:
        step = next(script)
        while True:
            try:
                sent = await run_step(conn, step)
            except Exception as error:  # the script may handle it (e.g. an IntegrityError)
                step = script.throw(error)
            else:
                step = script.send(sent)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
