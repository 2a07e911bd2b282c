"""Command line: ``python -m bot.store {migrate,verify,backup} --db PATH``."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from .backup import backup_file
from .errors import StoreError
from .migrate import migrate_database
from .verify import verify_database

EXIT_OK = 0
EXIT_DIFFERENCES = 1
EXIT_ERROR = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot.store", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    migrate = commands.add_parser("migrate", help="create the database and apply migrations")
    migrate.add_argument("--db", type=Path, required=True, help="SQLite database file")
    migrate.add_argument("--migrations", type=Path, default=None, help=argparse.SUPPRESS)
    verify = commands.add_parser("verify", help="replay every game and compare its snapshot")
    verify.add_argument("--db", type=Path, required=True, help="SQLite database file")
    backup = commands.add_parser("backup", help="online backup to a file (safe while running)")
    backup.add_argument("--db", type=Path, required=True, help="SQLite database file")
    backup.add_argument("--to", type=Path, required=True, help="backup file to write")
    return parser


def _migrate(db: Path, migrations: Path | None) -> int:
    report = migrate_database(db, migrations)
    if report.applied:
        print(f"{db}: schema version {report.before} -> {report.after}")
        for label in report.applied:
            print(f"  applied {label}")
    else:
        print(f"{db}: up to date at schema version {report.after}")
    return EXIT_OK


def _verify(db: Path) -> int:
    if not db.exists():
        raise StoreError(f"database {db} does not exist")
    report = asyncio.run(verify_database(db))
    for problem in report.problems:
        print(f"game {problem.game_id}: {problem.message}")
    print(f"{db}: checked {report.checked} games, {len(report.problems)} differ")
    return EXIT_OK if report.ok else EXIT_DIFFERENCES


def _backup(db: Path, dest: Path) -> int:
    pages = backup_file(db, dest)
    print(f"{db}: backed up to {dest} ({pages} pages)")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run one store command; return the process exit code."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "migrate":
            return _migrate(args.db, args.migrations)
        if args.command == "verify":
            return _verify(args.db)
        return _backup(args.db, args.to)
    except StoreError as exc:
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
