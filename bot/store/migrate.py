"""The migration runner: numbered SQL files, forward only, one transaction each."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from . import sqlite
from .errors import MigrationError

#: Where the project's migrations live (the repository's top-level ``migrations/``).
DEFAULT_MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"

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
        if not statements:
            raise MigrationError(f"{path.name}: no SQL statements")
        for statement in statements:
            if _FORBIDDEN.match(_COMMENTS.sub("", statement).strip()):
                raise MigrationError(
                    f"{path.name}: migrations must not control transactions or set "
                    f"user_version (the runner does both): {statement[:60]!r}"
                )
        migrations.append(Migration(number, name, path, statements))
    return migrations


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
    check_version(current, migrations)
    if current < len(migrations):
        raise MigrationError(
            f"database schema version {current} is older than this code "
            f"({len(migrations)}); run: python -m bot.store migrate --db {path}"
        )
    return current
