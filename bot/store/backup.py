"""Online backup with SQLite's backup API: a consistent copy while the bot keeps writing."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from . import sqlite
from .errors import StoreError


def backup_file(db: Path, dest: Path) -> int:
    """Copy ``db`` to ``dest`` atomically (temp file, check, rename); return the page count."""
    with sqlite.database_errors(dest):  # the source's own failures are reported by connect
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
    source = sqlite.connect_sync(db)
    try:
        target = sqlite3.connect(partial, isolation_level=None)
        try:
            # One step (pages=-1): the copy is one consistent read transaction; writers in WAL
            # mode are not blocked meanwhile.
            source.backup(target, pages=-1)
            sqlite.make_standalone(target)
            problems = sqlite.integrity_check(target)
            if problems != ["ok"]:
                raise StoreError(f"backup failed its integrity check: {problems[:5]}")
            pages = sqlite.page_count(target)
        finally:
            target.close()
    finally:
        source.close()
    with open(partial, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(partial, dest)
    return pages
