"""The migration runner: numbered SQL files, forward only, one transaction each.

Each migration is written for both databases: ``migrations/NNNN_name.sql`` is SQLite's text,
and PostgreSQL's too unless ``migrations/postgres/NNNN_name.sql`` (same name) holds PostgreSQL's
own; nothing is translated. ``tests/store/test_store_schema.py`` checks that both databases end
with the same tables, columns, indexes and constraints. SQLite's schema version is
``PRAGMA user_version``, PostgreSQL's the ``schema_version`` table. A file whose rows need Python
(Unicode normalization) has a step in ``data_steps.DATA_STEPS``, run right after its statements
in its transaction.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import asyncpg

from . import postgres, sqlite
from .connection import Target, is_url
from .data_steps import DATA_STEPS
from .errors import MigrationError

#: Where the project's migrations live: the top-level ``migrations`` package's data files (a
#: regular package on disk, so a real directory; zip installs are not supported).
DEFAULT_MIGRATIONS_DIR = Path(str(resources.files("migrations"))).resolve()
#: PostgreSQL's own text of a migration whose SQL differs between the two (same file name).
POSTGRES_SUBDIR = "postgres"

_NAME = re.compile(r"^(\d{4})_([a-z0-9][a-z0-9_]*)\.sql$")
_FORBIDDEN = re.compile(
    r"^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b|^PRAGMA\s+user_version\b",
    re.IGNORECASE,
)
_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its number, name and the statements it runs."""

    version: int
    name: str
    path: Path
    statements: tuple[str, ...]

    @property
    def label(self) -> str:
        """``0001_initial``-style label used in messages."""
        return f"{self.version:04d}_{self.name}"


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What a run did: schema version before and after, and the migrations applied."""

    before: int
    after: int
    applied: tuple[str, ...]


def split_statements(sql: str, *, source: str = "<sql>") -> tuple[str, ...]:
    """Split a script into complete statements (SQLite's own parser decides where each ends)."""
    statements: list[str] = []
    start = 0
    for i, char in enumerate(sql):
        if char == ";" and sqlite3.complete_statement(sql[start : i + 1]):
            chunk = sql[start : i + 1].strip()
            if _COMMENTS.sub("", chunk).strip(" \t\r\n;"):
                statements.append(chunk)
            start = i + 1
    if _COMMENTS.sub("", sql[start:]).strip():
        raise MigrationError(f"{source}: the last statement is not terminated by ';'")
    return tuple(statements)


def discover(directory: Path | None = None) -> list[Migration]:
    """Read and check the migration files: numbered 0001.., no gaps, no duplicates."""
    directory = directory or DEFAULT_MIGRATIONS_DIR
    if not directory.is_dir():
        raise MigrationError(f"migrations directory {directory} does not exist")
    by_number: dict[int, list[tuple[Path, str]]] = {}
    for path in sorted(directory.iterdir()):
        if path.suffix != ".sql":
            continue
        match = _NAME.match(path.name)
        if match is None:
            raise MigrationError(
                f"{path.name}: migration files must be named NNNN_name.sql "
                "(four digits, lower-case name)"
            )
        by_number.setdefault(int(match.group(1)), []).append((path, match.group(2)))
    migrations: list[Migration] = []
    for expected, number in enumerate(sorted(by_number), start=1):
        entries = by_number[number]
        if len(entries) > 1:
            names = ", ".join(p.name for p, _ in entries)
            raise MigrationError(f"duplicate migration number {number:04d}: {names}")
        path, name = entries[0]
        if number != expected:
            raise MigrationError(
                f"gap in migrations: {expected:04d} is missing (next file is {path.name})"
            )
        statements = split_statements(path.read_text(encoding="utf-8"), source=path.name)
        _check_statements(path.name, statements)
        migrations.append(Migration(number, name, path, statements))
    return migrations


def _check_statements(name: str, statements: tuple[str, ...]) -> None:
    if not statements:
        raise MigrationError(f"{name}: no SQL statements")
    for statement in statements:
        if _FORBIDDEN.match(_COMMENTS.sub("", statement).strip()):
            raise MigrationError(
                f"{name}: migrations must not control transactions or set "
                f"user_version (the runner does both): {statement[:60]!r}"
            )


def check_version(current: int, migrations: list[Migration]) -> None:
    """Refuse a database whose schema is newer than the newest migration."""
    latest = len(migrations)
    if current > latest:
        raise MigrationError(
            f"database schema version {current} is newer than this code knows "
            f"(latest migration is {latest:04d}); upgrade the bot or restore a backup"
        )
    if current < 0:
        raise MigrationError(f"database schema version {current} is invalid")


def _apply_one(conn: sqlite3.Connection, migration: Migration) -> bool:
    """Apply one migration in its own transaction; False if another process already did."""
    conn.execute(sqlite.BEGIN_WRITE)
    try:
        current = sqlite.schema_version(conn)
        if current >= migration.version:
            conn.execute(sqlite.ROLLBACK)
            return False
        if current != migration.version - 1:
            raise MigrationError(
                f"cannot apply {migration.label} to a database at version {current}"
            )
        for number, statement in enumerate(migration.statements, start=1):
            try:
                conn.execute(statement)
            except sqlite3.Error as exc:
                raise MigrationError(
                    f"{migration.label}: statement {number} failed: {exc}\n{statement}"
                ) from exc
        step = DATA_STEPS.get(migration.label)
        if step is not None:
            step.sqlite(conn)
        violations = sqlite.foreign_key_violations(conn)
        if violations:
            raise MigrationError(
                f"{migration.label}: leaves {len(violations)} foreign key violation(s), "
                f"first {violations[0]}"
            )
        sqlite.set_schema_version(conn, migration.version)
        conn.execute(sqlite.COMMIT)
    except BaseException:
        if conn.in_transaction:
            conn.execute(sqlite.ROLLBACK)
        raise
    return True


def migrate_connection(conn: sqlite3.Connection, migrations: list[Migration]) -> MigrationReport:
    """Bring an open database up to the newest migration, one transaction per file."""
    before = sqlite.schema_version(conn)
    check_version(before, migrations)
    applied: list[str] = []
    # Foreign keys are checked per migration with foreign_key_check instead, so a migration
    # may rebuild a table (SQLite's documented procedure) without tripping them mid-way.
    sqlite.set_foreign_keys(conn, False)
    try:
        for migration in migrations[before:]:
            if _apply_one(conn, migration):
                applied.append(migration.label)
    finally:
        sqlite.set_foreign_keys(conn, True)
    after = sqlite.schema_version(conn)
    check_version(after, migrations)
    return MigrationReport(before=before, after=after, applied=tuple(applied))


def migrate_database(path: Path, migrations_dir: Path | None = None) -> MigrationReport:
    """Create the database file if needed and apply every pending migration."""
    migrations = discover(migrations_dir)
    with sqlite.database_errors(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite.connect_sync(path, create=True)
        try:
            return migrate_connection(conn, migrations)
        finally:
            conn.close()


def require_current(path: Path, migrations_dir: Path | None = None) -> int:
    """Check an existing database is exactly at the newest schema version; return it."""
    migrations = discover(migrations_dir)
    conn = sqlite.connect_sync(path)
    try:
        current = sqlite.schema_version(conn)
    finally:
        conn.close()
    return _require(current, migrations, str(path))


def _require(current: int, migrations: list[Migration], label: str) -> int:
    check_version(current, migrations)
    if current < len(migrations):
        raise MigrationError(
            f"database schema version {current} is older than this code "
            f"({len(migrations)}); run: python -m bot.store migrate --db {label}"
        )
    return current


def migrate_target(target: Target, migrations_dir: Path | None = None) -> MigrationReport:
    """Migrate a SQLite file or a PostgreSQL database (blocking: for the command line)."""
    if is_url(target):
        return asyncio.run(migrate_postgres(str(target), migrations_dir))
    return migrate_database(Path(target), migrations_dir)


# -- PostgreSQL ---------------------------------------------------------------------------------


def postgres_migrations(directory: Path | None = None) -> list[Migration]:
    """The migrations as PostgreSQL runs them: its own text where there is one, else the shared."""
    directory = directory or DEFAULT_MIGRATIONS_DIR
    shared = discover(directory)
    by_name = {m.path.name: m for m in shared}
    own: dict[int, Migration] = {}
    for path in sorted((directory / POSTGRES_SUBDIR).glob("*.sql")):
        if path.name not in by_name:
            raise MigrationError(
                f"{POSTGRES_SUBDIR}/{path.name} stands for no migration: its name must be "
                "exactly that of the SQLite file it stands for"
            )
        base = by_name[path.name]
        statements = split_statements(path.read_text(encoding="utf-8"), source=path.name)
        _check_statements(path.name, statements)
        own[base.version] = Migration(base.version, base.name, path, statements)
    return [own.get(m.version, m) for m in shared]


async def migrate_postgres(url: str, migrations_dir: Path | None = None) -> MigrationReport:
    """Apply every pending migration to the PostgreSQL database at ``url``."""
    migrations = postgres_migrations(migrations_dir)
    conn = await postgres.connect(url)
    try:
        with postgres.database_errors(url):
            before = await postgres.schema_version(conn)
            check_version(before, migrations)
            applied = [m.label for m in migrations[before:] if await _apply_pg(conn, m)]
            after = await postgres.schema_version(conn)
    finally:
        await conn.close()
    check_version(after, migrations)
    return MigrationReport(before=before, after=after, applied=tuple(applied))


async def _apply_pg(conn: asyncpg.Connection, migration: Migration) -> bool:
    """One migration in its own transaction, under the migration lock; False if already done."""
    async with conn.transaction():
        current = await postgres.begin_migration(conn)
        if current >= migration.version:
            return False
        if current != migration.version - 1:
            raise MigrationError(
                f"cannot apply {migration.label} to a database at version {current}"
            )
        for number, statement in enumerate(migration.statements, start=1):
            try:
                await conn.execute(statement)
            except asyncpg.PostgresError as exc:
                raise MigrationError(
                    f"{migration.label}: statement {number} failed: {exc}\n{statement}"
                ) from exc
        step = DATA_STEPS.get(migration.label)
        if step is not None:
            await step.postgres(conn)
        await postgres.finish_migration(conn, migration.version)
    return True


async def require_current_postgres(url: str, migrations_dir: Path | None = None) -> int:
    """Check a PostgreSQL database is exactly at the newest schema version; return it."""
    migrations = postgres_migrations(migrations_dir)
    conn = await postgres.connect(url)
    try:
        with postgres.database_errors(url):
            current = await postgres.schema_version(conn)
    finally:
        await conn.close()
    return _require(current, migrations, postgres.redact(url))
