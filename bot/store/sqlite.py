"""SQLite connection setup: the only place that knows PRAGMAs and SQLite transaction syntax."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from .connection import Result, Row, Script, Step, T
from .errors import DatabaseUnusable, StoreError
from .internals import run_in_connection, sqlite_connection

log = logging.getLogger(__name__)

#: How long a connection waits for another writer's lock before failing.
WAL_ATTEMPTS = 100  # switching to WAL: up to about 5 s of retries, as long as the busy timeout
WAL_RETRY_SECONDS = 0.05
BUSY_TIMEOUT_MS = 5000


def connection_pragmas() -> tuple[str, ...]:
    """Per-connection settings, with ``BUSY_TIMEOUT_MS`` as it is when the connection opens (a
    test about a lock waited out sets it shorter, D295). synchronous=FULL syncs the WAL at every
    commit, so an append that returned survives a power cut as well as a killed process (about
    0.4 ms per commit here; NORMAL would only guarantee the latter). See docs/storage.md."""
    return (
        "PRAGMA foreign_keys = ON",
        f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
        "PRAGMA synchronous = FULL",
    )


#: The per-connection settings with the default busy timeout.
CONNECTION_PRAGMAS = connection_pragmas()

#: RETURNING (used by the portable queries) needs SQLite 3.35.
MIN_SQLITE = (3, 35, 0)

#: A write transaction takes the write lock up front, so the busy timeout applies to it and it
#: can never fail half-way with a lock upgrade error.
BEGIN_WRITE = "BEGIN IMMEDIATE"
#: A read transaction: a consistent snapshot of several SELECTs.
BEGIN_READ = "BEGIN"
COMMIT = "COMMIT"
ROLLBACK = "ROLLBACK"

IntegrityError = sqlite3.IntegrityError
DatabaseError = sqlite3.DatabaseError


def is_busy(error: BaseException) -> bool:
    """Whether an error only says that another writer holds the database (worth retrying)."""
    text = str(error)
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def file_uri(path: Path, mode: str) -> str:
    """A ``file:`` URI for ``path`` with an open mode (``rw``, ``rwc`` or ``ro``)."""
    return f"file:{quote(str(path.resolve()))}?mode={mode}"


def named_rows(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    """The rows of a statement (a PRAGMA's too) as column name -> value, never by position."""
    names = [column[0] for column in cursor.description or ()]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def pragma(conn: sqlite3.Connection, statement: str, column: str) -> Any:
    """The value a PRAGMA answers in its one row's ``column``."""
    return named_rows(conn.execute(statement))[0][column]


def _enable_wal(conn: sqlite3.Connection) -> None:
    """Switch the database file to WAL mode (persistent; a no-op when already on).

    Switching needs the file to itself, and SQLite answers "locked" at once, without waiting
    for the busy timeout, while another process switches or migrates a new file: so retry.
    """
    for attempt in range(WAL_ATTEMPTS):
        try:
            mode = pragma(conn, "PRAGMA journal_mode = WAL", "journal_mode")
            break
        except sqlite3.OperationalError as error:
            if not is_busy(error) or attempt == WAL_ATTEMPTS - 1:
                raise
            time.sleep(WAL_RETRY_SECONDS)
    if str(mode).lower() != "wal":
        raise StoreError(f"could not enable WAL mode (journal_mode is {mode!r})")


def configure(conn: sqlite3.Connection) -> None:
    """Apply WAL mode and the per-connection PRAGMAs to a fresh connection."""
    for pragma in connection_pragmas():
        conn.execute(pragma)
    _enable_wal(conn)


def check_library() -> None:
    """Refuse an SQLite library too old for the store's queries."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        needed = ".".join(map(str, MIN_SQLITE))
        raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old; the store needs {needed}+")


def _read_only(path: Path) -> bool:
    """Whether the process may not write the file or its folder (SQLite needs both for WAL)."""
    folder = path.resolve().parent
    if not folder.exists():
        return False
    return not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK))


def describe_failure(path: Path, error: BaseException) -> str:
    """Why ``path`` cannot be used as the database, in one line without the path."""
    text = str(error)
    if "not a database" in text:
        return f"not an SQLite database ({text}); restore a backup or use another path"
    read_only = isinstance(error, OSError) and error.errno == errno.EROFS
    denied = isinstance(error, PermissionError) or read_only
    if denied or "readonly" in text or _read_only(path):
        return (
            f"cannot be written: read-only file, folder or file system ({text}); "
            "the bot needs write access to the file and its folder"
        )
    return f"cannot be used: {text}"


@contextmanager
def database_errors(path: Path) -> Iterator[None]:
    """Turn SQLite and file-system failures on ``path`` into a one-line DatabaseUnusable."""
    try:
        yield
    except StoreError:
        raise
    except (sqlite3.DatabaseError, OSError) as error:
        raise DatabaseUnusable(describe_failure(path, error)) from error


def connect_sync(path: Path, *, create: bool = False) -> sqlite3.Connection:
    """A configured blocking connection in autocommit mode (transactions are explicit)."""
    check_library()
    mode = "rwc" if create else "rw"
    with database_errors(path):
        conn = sqlite3.connect(
            file_uri(path, mode),
            uri=True,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            configure(conn)
        except BaseException:
            conn.close()
            raise
    return conn


async def connect_async(path: Path) -> aiosqlite.Connection:
    """A configured aiosqlite connection in autocommit mode to an existing database."""
    with database_errors(path):
        conn = await aiosqlite.connect(
            file_uri(path, "rw"),
            uri=True,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
        )
        try:
            for pragma in connection_pragmas():
                await conn.execute(pragma)
            for attempt in range(WAL_ATTEMPTS):
                try:
                    cursor = await conn.execute("PRAGMA journal_mode = WAL")
                    break
                except sqlite3.OperationalError as error:  # see _enable_wal
                    if not is_busy(error) or attempt == WAL_ATTEMPTS - 1:
                        raise
                    await asyncio.sleep(WAL_RETRY_SECONDS)
            names = [column[0] for column in cursor.description or ()]
            row = await cursor.fetchone()
            await cursor.close()
            mode = None if row is None else dict(zip(names, row, strict=True))["journal_mode"]
            if str(mode).lower() != "wal":
                raise StoreError(f"could not enable WAL mode on {path}")
        except BaseException:
            await conn.close()
            raise
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database (``PRAGMA user_version``)."""
    return int(pragma(conn, "PRAGMA user_version", "user_version"))


def set_schema_version(conn: sqlite3.Connection, version: int) -> None:
    """Record the schema version; call inside the migration's transaction."""
    conn.execute(f"PRAGMA user_version = {int(version)}")


def foreign_key_violations(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
    """Rows that break a foreign key (used before committing a migration)."""
    return [tuple(r) for r in conn.execute("PRAGMA foreign_key_check").fetchall()]


def set_foreign_keys(conn: sqlite3.Connection, on: bool) -> None:
    """Turn foreign key enforcement on or off (only outside a transaction)."""
    conn.execute(f"PRAGMA foreign_keys = {'ON' if on else 'OFF'}")


def integrity_check(conn: sqlite3.Connection) -> list[str]:
    """``PRAGMA integrity_check`` lines: ``["ok"]`` for a sound file."""
    return [str(r["integrity_check"]) for r in named_rows(conn.execute("PRAGMA integrity_check"))]


def page_count(conn: sqlite3.Connection) -> int:
    """Number of pages in the database file."""
    return int(pragma(conn, "PRAGMA page_count", "page_count"))


def make_standalone(conn: sqlite3.Connection) -> None:
    """Switch a copy to rollback-journal mode so it is one self-contained file."""
    conn.execute("PRAGMA journal_mode = DELETE")


class SqliteConnection:
    """An aiosqlite connection inside a transaction, speaking the repository's calls."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        """Run one statement; how many rows it changed."""
        # One hop: a finished statement's cursor holds nothing to close (as executemany's).
        cursor = await self._conn.execute(sql, parameters)
        return Result(cursor.rowcount)

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        """Run one statement (SELECT or ... RETURNING); every row it gives, by column name."""
        # One trip to aiosqlite's thread (not three: execute, fetch, close); the rows are
        # ``sqlite3.Row`` (the backend's row factory), which know their columns' names.
        rows = await self._conn.execute_fetchall(sql, parameters)
        if not rows:
            return []
        names = next(iter(rows)).keys()
        return [dict(zip(names, row, strict=True)) for row in rows]

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        await self._conn.executemany(sql, parameters)


class SqliteBackend:
    """One writer and one reader aiosqlite connection to one SQLite file.

    One aiosqlite connection cannot interleave two transactions, so each is serialized by an
    ``asyncio.Lock``; the file's own lock serializes writers of several processes.
    """

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection):
        self.path = path
        self.writer = writer
        self.reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        for conn in (writer, reader):
            conn.row_factory = sqlite3.Row  # see SqliteConnection.execute_fetchall

    @property
    def label(self) -> str:
        """The file's path."""
        return str(self.path)

    @classmethod
    async def open(cls, path: Path) -> SqliteBackend:
        """A writer and a reader connection to an existing database file."""
        writer = await connect_async(path)
        try:
            reader = await connect_async(path)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteConnection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; rolled back on any exception."""
        async with self._write_lock:
            conn = self.writer
            if conn.in_transaction:  # a cancelled caller may have left one open
                await _rollback(conn)
            try:
                # BEGIN is inside the try: a caller cancelled while it runs must not leave the
                # write lock held.
                await conn.execute(BEGIN_WRITE)
                yield SqliteConnection(conn)
                await conn.execute(COMMIT)
            except BaseException:
                await _rollback(conn)
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteConnection]:
        """``BEGIN`` ... ``ROLLBACK``: every SELECT in the block sees one committed state."""
        async with self._read_lock:
            conn = self.reader
            if conn.in_transaction:
                await _rollback(conn)
            try:
                await conn.execute(BEGIN_READ)
                yield SqliteConnection(conn)
            finally:
                await _rollback(conn)

    async def run_write(self, script: Script[T]) -> T:
        """``BEGIN IMMEDIATE``, the script, ``COMMIT`` (rolled back on any exception), all in
        one hop to the writer's thread: one wake-up of the loop for the whole transaction."""
        async with self._write_lock:
            return await self._run(self.writer, script, BEGIN_WRITE, COMMIT)

    async def run_read(self, script: Script[T]) -> T:
        """``BEGIN``, the script, ``ROLLBACK``, in one hop to the reader's thread."""
        async with self._read_lock:
            return await self._run(self.reader, script, BEGIN_READ, ROLLBACK)

    @staticmethod
    async def _run(conn: aiosqlite.Connection, script: Script[T], begin: str, end: str) -> T:
        if conn.in_transaction:  # a cancelled caller may have left one open
            await _rollback(conn)
        hop = asyncio.ensure_future(run_in_connection(conn, _transaction, conn, script, begin, end))
        try:
            return await asyncio.shield(hop)
        except asyncio.CancelledError:
            # the transaction runs on to its end in the thread (committed or rolled back, as a
            # COMMIT cancelled mid-hop did): the caller's lock is held until then, so the next
            # transaction starts after it and sees it (D132)
            await asyncio.wait({hop})
            raise

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        """One SELECT on the reader in autocommit mode: no ``BEGIN`` nor ``ROLLBACK`` trips."""
        async with self._read_lock:
            conn = self.reader
            if conn.in_transaction:
                await _rollback(conn)
            return await SqliteConnection(conn).execute_fetchall(sql, parameters)

    async def backup(self, dest: Path) -> int:
        """An online backup with SQLite's backup API; pages copied."""
        return await asyncio.to_thread(backup_file, self.path, dest)

    async def close(self) -> None:
        """Close both connections (waits for a running transaction to finish)."""
        async with self._write_lock, self._read_lock:
            await self.writer.close()
            await self.reader.close()


def _transaction(conn: aiosqlite.Connection, script: Script[T], begin: str, end: str) -> T:
    """A script's transaction, run in the connection's own thread."""
    db = sqlite_connection(conn)
    db.execute(begin)
    try:
        value = _drive(db, script)
        db.execute(end)
    except BaseException:
        if db.in_transaction:
            db.execute(ROLLBACK)
        raise
    return value


def _drive(db: sqlite3.Connection, script: Script[T]) -> T:
    try:
        step = next(script)
        while True:
            try:
                sent = _step(db, step)
            except Exception as error:  # the script may handle it (e.g. an IntegrityError)
                step = script.throw(error)
            else:
                step = script.send(sent)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]


def _step(db: sqlite3.Connection, step: Step) -> Any:
    if step.many:
        db.executemany(step.sql, step.parameters)
        return None
    cursor = db.execute(step.sql, step.parameters)
    if not step.fetch:
        return Result(cursor.rowcount)
    rows = cursor.fetchall()
    if not rows:
        return []
    names = rows[0].keys()
    return [dict(zip(names, row, strict=True)) for row in rows]


async def _rollback(conn: aiosqlite.Connection) -> None:
    try:
        await conn.execute(ROLLBACK)
    except DatabaseError as exc:
        if "no transaction is active" not in str(exc):
            log.warning("rollback failed: %s", exc)


# -- backup: SQLite's backup API, a consistent copy while the bot keeps writing -----------------


def backup_file(db: Path, dest: Path) -> int:
    """Copy ``db`` to ``dest`` atomically (temp file, check, rename); return the page count."""
    with database_errors(dest):  # the source's own failures are reported by connect
        return _backup(db, dest)


def _backup(db: Path, dest: Path) -> int:
    if not db.exists():
        raise StoreError(f"database {db} does not exist")
    if dest.resolve() == db.resolve():
        raise StoreError("the backup must not overwrite the database itself")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        leftover.unlink(missing_ok=True)
    source = connect_sync(db)
    try:
        target = sqlite3.connect(partial, isolation_level=None)
        try:
            # One step (pages=-1): the copy is one consistent read transaction; writers in WAL
            # mode are not blocked meanwhile.
            source.backup(target, pages=-1)
            make_standalone(target)
            problems = integrity_check(target)
            if problems != ["ok"]:
                raise StoreError(f"backup failed its integrity check: {problems[:5]}")
            pages = page_count(target)
        finally:
            target.close()
    finally:
        source.close()
    with open(partial, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(partial, dest)
    return pages
