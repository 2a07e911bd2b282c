"""PostgreSQL through asyncpg: the only place that knows its parameters, isolation and errors.

The repository's portable SQL (``?`` parameters) runs here unchanged: ``?`` becomes ``$n``;
every transaction is REPEATABLE READ (one snapshot; a write to a row that another transaction
changed since raises a serialization failure and the repository runs the call again, so no
update is ever lost); each data-changing statement runs in a savepoint so that a constraint
error leaves the transaction usable, as in SQLite, and the first constraint error of a call
makes it run again on a fresh snapshot (see ``PostgresConnection._run``).
"""

from __future__ import annotations

import asyncio
import glob
import os
import re
import shutil
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, TypeVar
from urllib.parse import unquote, urlsplit, urlunsplit

import asyncpg

from .connection import IntegrityError, Result, Row, Script, drive, first_attempt
from .errors import DatabaseUnusable, StoreError

T = TypeVar("T")

#: Serialization failure and deadlock: the transaction was rolled back and may simply run again.
CONFLICT_STATES = frozenset({"40001", "40P01"})
WRITE_ISOLATION: Final = "repeatable_read"
READ_ISOLATION: Final = "repeatable_read"
POOL_MIN, POOL_MAX = 1, 10
CONNECT_TIMEOUT = 10.0
#: Held by the migration runner for its transaction, so two processes never migrate at once.
MIGRATION_LOCK = 0x48696D696B6F  # "Himiko"

_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/|\?", re.DOTALL)


def is_conflict(error: BaseException) -> bool:
    """Whether PostgreSQL rolled a transaction back only because of a concurrent one."""
    return isinstance(error, asyncpg.PostgresError) and error.sqlstate in CONFLICT_STATES


def redact(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def database_name(url: str) -> str:
    """The database a URL names (its path)."""
    return unquote(urlsplit(url).path.lstrip("/"))


@lru_cache(maxsize=1024)
def placeholders(sql: str) -> str:
    """Portable SQL with ``?`` parameters as PostgreSQL's ``$1, $2, ...`` (not in strings)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0) != "?":
            return match.group(0)
        count += 1
        return f"${count}"

    return _TOKENS.sub(number, sql)


def rowcount(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _changes(sql: str) -> bool:
    return not sql.lstrip().upper().startswith("SELECT")


class PostgresConnection:
    """One asyncpg connection inside a transaction, speaking the repository's calls."""

    def __init__(
        self, conn: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy, *, write: bool
    ) -> None:
        self._conn = conn
        self._write = write

    async def _run(self, sql: str, call: Callable[[], Awaitable[T]]) -> T:
        if not (self._write and _changes(sql)):
            return await call()
        try:
            async with self._conn.transaction():  # a savepoint, see the module docstring
                return await call()
        except asyncpg.IntegrityConstraintViolationError as exc:
            if first_attempt():
                # The row in the way may belong to a transaction that committed after this
                # one's snapshot, so what the caller reads next would not show it: run the
                # call again on a fresh snapshot (SQLite's single writer never has this case).
                raise asyncpg.SerializationError(f"constraint error, retried: {exc}") from exc
            raise IntegrityError(str(exc)) from exc

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        """Run one statement; how many rows it changed."""
        status = await self._run(sql, lambda: self._conn.execute(placeholders(sql), *parameters))
        return Result(rowcount(status))

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        """Run one statement (SELECT or ... RETURNING); every row it gives, by column name."""
        records = await self._run(sql, lambda: self._conn.fetch(placeholders(sql), *parameters))
        return [dict(r.items()) for r in records]

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        rows = [tuple(p) for p in parameters]
        if rows:
            await self._run(sql, lambda: self._conn.executemany(placeholders(sql), rows))


class PostgresBackend:
    """A connection pool on one PostgreSQL database."""

    def __init__(self, url: str, pool: asyncpg.Pool) -> None:
        self.url = url
        self.pool = pool

    @property
    def label(self) -> str:
        """The URL without its password."""
        return redact(self.url)

    @classmethod
    async def open(cls, url: str) -> PostgresBackend:
        """A pool of connections to ``url`` (DatabaseUnusable if it cannot be reached)."""
        with database_errors(url):
            pool = await asyncpg.create_pool(
                url, min_size=POOL_MIN, max_size=POOL_MAX, timeout=CONNECT_TIMEOUT
            )
        return cls(url, pool)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PostgresConnection]:
        """A REPEATABLE READ write transaction (a conflict raises; the call runs again)."""
        async with self.pool.acquire() as conn, conn.transaction(isolation=WRITE_ISOLATION):
            yield PostgresConnection(conn, write=True)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PostgresConnection]:
        """A read-only REPEATABLE READ transaction: one snapshot for every SELECT in it."""
        async with (
            self.pool.acquire() as conn,
            conn.transaction(isolation=READ_ISOLATION, readonly=True),
        ):
            yield PostgresConnection(conn, write=False)

    async def run_write(self, script: Script[T]) -> T:
        """Run a script in a write transaction, one message per statement."""
        async with self.write() as conn:
            return await drive(conn, script)

    async def run_read(self, script: Script[T]) -> T:
        """Run a script in a read transaction, one message per statement."""
        async with self.read() as conn:
            return await drive(conn, script)

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        """One SELECT in autocommit mode: no ``BEGIN`` nor ``ROLLBACK`` messages."""
        async with self.pool.acquire() as conn:
            return await PostgresConnection(conn, write=False).execute_fetchall(sql, parameters)

    async def backup(self, dest: Path) -> int:
        """A ``pg_dump`` of the database to ``dest``; its size in bytes."""
        return await asyncio.to_thread(dump, self.url, dest)

    async def close(self) -> None:
        """Close the pool (waits for connections in use)."""
        await self.pool.close()


@contextmanager
def database_errors(url: str) -> Iterator[None]:
    """Turn connection failures into a one-line DatabaseUnusable (no password in it)."""
    try:
        yield
    except StoreError:
        raise
    except asyncpg.InvalidCatalogNameError as error:
        raise DatabaseUnusable(
            f"database {database_name(url)!r} does not exist; create it first "
            f"(createdb or CREATE DATABASE): {error}"
        ) from error
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as error:
        raise DatabaseUnusable(f"cannot be used: {type(error).__name__}: {error}") from error


async def connect(url: str) -> asyncpg.Connection:
    """One plain connection (migrations, tools)."""
    with database_errors(url):
        return await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)


# -- migrations ---------------------------------------------------------------------------------

VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    id      INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL CHECK (version >= 0)
)
"""
HAS_VERSION_TABLE = "SELECT to_regclass('schema_version') IS NOT NULL"
SELECT_VERSION = "SELECT COALESCE((SELECT version FROM schema_version WHERE id = 1), 0)"
SET_VERSION = """
INSERT INTO schema_version (id, version) VALUES (1, $1)
ON CONFLICT (id) DO UPDATE SET version = excluded.version
"""
IDENTITY_COLUMNS = """
SELECT table_name, column_name FROM information_schema.columns
WHERE table_schema = current_schema() AND is_identity = 'YES'
"""


async def schema_version(conn: asyncpg.Connection) -> int:
    """The schema version recorded in the database (0 for an empty one)."""
    if not await conn.fetchval(HAS_VERSION_TABLE):
        return 0
    return int(await conn.fetchval(SELECT_VERSION))


async def begin_migration(conn: asyncpg.Connection) -> int:
    """Inside a transaction: take the migration lock, make sure the version table exists."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
    await conn.execute(VERSION_TABLE)
    return await schema_version(conn)


async def finish_migration(conn: asyncpg.Connection, version: int) -> None:
    """Inside the migration's transaction: renumber identities past copied rows, set version.

    A table rebuilt with ``INSERT ... SELECT`` keeps its ids; the identity must continue
    after the largest one, as SQLite's rowid does.
    """
    for table, column in await conn.fetch(IDENTITY_COLUMNS):
        table_name = _quote(table)
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence($1, $2), "
            f"COALESCE((SELECT MAX({_quote(column)}) FROM {table_name}), 0) + 1, false)",
            table_name,
            column,
        )
    await conn.execute(SET_VERSION, version)


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


# -- backup -------------------------------------------------------------------------------------


def tool(name: str) -> str:
    """The path of a PostgreSQL client program (PATH first, then Debian's versioned folders)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if not candidates:
        raise StoreError(f"{name} was not found; install the PostgreSQL client programs")
    return candidates[-1]


def client_env(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and an environment that carries it (not the command line)."""
    parts = urlsplit(url)
    env = dict(os.environ)
    if parts.password is not None:
        env["PGPASSWORD"] = unquote(parts.password)
    return redact(url).replace(":***@", "@"), env


def dump(url: str, dest: Path) -> int:
    """``pg_dump`` in its custom format to ``dest`` (temp file, fsync, rename); bytes written."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    target, env = client_env(url)
    command = [tool("pg_dump"), "--format=custom", "--no-owner", f"--file={partial}", target]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        raise StoreError(f"pg_dump failed: {' '.join(result.stderr.split())}")
    with open(partial, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(partial, dest)
    return dest.stat().st_size


def restore(url: str, source: Path) -> None:
    """``pg_restore`` a dump into the (empty) database at ``url``."""
    target, env = client_env(url)
    command = [
        tool("pg_restore"),
        "--no-owner",
        "--exit-on-error",
        "--single-transaction",
        f"--dbname={target}",
        str(source),
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise StoreError(f"pg_restore failed: {' '.join(result.stderr.split())}")


async def restore_into_empty(url: str, source: Path) -> None:
    """Load a ``dump`` into the database at ``url``, which must hold no tables yet."""
    conn = await connect(url)
    try:
        with database_errors(url):
            tables = await conn.fetchval(
                "SELECT COUNT(*) FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            )
    finally:
        await conn.close()
    if tables:
        raise StoreError(
            f"database {database_name(url)!r} already has {tables} tables; restore into a new, "
            "empty database (createdb) and point DATABASE_URL at it"
        )
    await asyncio.to_thread(restore, url, source)
