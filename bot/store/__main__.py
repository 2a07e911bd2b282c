"""Command line: ``python -m bot.store {migrate,verify,repair,backup,restore,ratings} --db``.

``--db`` is a SQLite file path or a ``postgresql://USER[:PASSWORD]@HOST:PORT/DB`` URL.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from . import postgres
from .connection import Target, is_url
from .errors import StoreError
from .migrate import migrate_target
from .repair import Repair, repair_database
from .sqlite import backup_file
from .verify import verify_database

EXIT_OK = 0
EXIT_DIFFERENCES = 1
EXIT_ERROR = 2


DB_HELP = "SQLite database file or postgresql:// URL"


def target(text: str) -> Target:
    """A ``--db`` value: a PostgreSQL URL as given, anything else a file path."""
    return text if is_url(text) else Path(text)


def _label(db: Target) -> str:
    return postgres.redact(db) if isinstance(db, str) else str(db)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot.store", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    migrate = commands.add_parser("migrate", help="create the database and apply migrations")
    migrate.add_argument("--db", type=target, required=True, help=DB_HELP)
    migrate.add_argument("--migrations", type=Path, default=None, help=argparse.SUPPRESS)
    verify = commands.add_parser("verify", help="replay every game and compare its snapshot")
    verify.add_argument("--db", type=target, required=True, help=DB_HELP)
    repair = commands.add_parser("repair", help="rebuild snapshots that disagree with their log")
    repair.add_argument("--db", type=target, required=True, help=DB_HELP)
    repair.add_argument("--game", type=int, default=None, help="only this game id")
    backup = commands.add_parser("backup", help="online backup to a file (safe while running)")
    backup.add_argument("--db", type=target, required=True, help=DB_HELP)
    backup.add_argument("--to", type=Path, required=True, help="backup file to write")
    restore = commands.add_parser(
        "restore", help="PostgreSQL: load a backup into an empty database (pg_restore)"
    )
    restore.add_argument("--db", type=target, required=True, help="postgresql:// URL")
    restore.add_argument("--from", dest="source", type=Path, required=True, help="backup file")
    ratings = commands.add_parser("ratings", help="rate finished games (--rebuild: all again)")
    ratings.add_argument(
        "--db", type=target, required=True, help="SQLite file or postgresql:// URL"
    )
    ratings.add_argument("--rebuild", action="store_true", help="forget and recompute every rating")
    return parser


def _migrate(db: Target, migrations: Path | None) -> int:
    report = migrate_target(db, migrations)
    if report.applied:
        print(f"{_label(db)}: schema version {report.before} -> {report.after}")
        for label in report.applied:
            print(f"  applied {label}")
    else:
        print(f"{_label(db)}: up to date at schema version {report.after}")
    return EXIT_OK


def _require(db: Target) -> None:
    if isinstance(db, Path) and not db.exists():
        raise StoreError(f"database {db} does not exist")


def _verify(db: Target) -> int:
    _require(db)
    report = asyncio.run(verify_database(db))
    for problem in report.problems:
        print(f"game {problem.game_id}: {problem.message}")
    print(f"{_label(db)}: checked {report.checked} games, {len(report.problems)} differ")
    return EXIT_OK if report.ok else EXIT_DIFFERENCES


def _repair(db: Target, game_id: int | None) -> int:
    _require(db)
    results = asyncio.run(repair_database(db, game_id))
    for result in results:
        if result.outcome == Repair.FIXED:
            print(f"game {result.game_id}: fixed ({result.detail})")
        elif result.outcome == Repair.BROKEN_LOG:
            print(f"game {result.game_id}: not repaired, the log does not replay ({result.detail})")
    broken = sum(1 for r in results if r.outcome == Repair.BROKEN_LOG)
    fixed = sum(1 for r in results if r.outcome == Repair.FIXED)
    print(f"{_label(db)}: checked {len(results)} games, fixed {fixed}, {broken} cannot be repaired")
    return EXIT_DIFFERENCES if broken else EXIT_OK


def _backup(db: Target, dest: Path) -> int:
    if isinstance(db, str):
        size = postgres.dump(db, dest)
        print(f"{_label(db)}: backed up to {dest} ({size} bytes, pg_dump custom format)")
        return EXIT_OK
    pages = backup_file(db, dest)
    print(f"{db}: backed up to {dest} ({pages} pages)")
    return EXIT_OK

    return EXIT_OK


def one_line(text: str) -> str:
    """A message with its line breaks and runs of spaces folded into single spaces."""
    return " ".join(text.split())


def _ratings(db: Target, rebuild: bool) -> int:
    from bot.service.ratings import RatingService

    from .repository import GameRepository

    _require(db)

    async def go() -> int:
        async with await GameRepository.connect(db) as repo:
            service = RatingService(repo)
            return await (service.rebuild() if rebuild else service.rate_pending())

    count = asyncio.run(go())
    print(f"{_label(db)}: rated {count} games" + (" (every rating rebuilt)" if rebuild else ""))
    return EXIT_OK


def _restore(db: Target, source: Path) -> int:
    if not isinstance(db, str):
        raise StoreError(
            "restore is for PostgreSQL; for SQLite stop the bot and copy the backup file over "
            "the database path (see docs/storage.md)"
        )
    if not source.exists():
        raise StoreError(f"backup {source} does not exist")
    asyncio.run(postgres.restore_into_empty(db, source))
    print(f"{_label(db)}: restored from {source}")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run one store command; return the process exit code."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "migrate":
            return _migrate(args.db, args.migrations)
        if args.command == "verify":
            return _verify(args.db)
        if args.command == "repair":
            return _repair(args.db, args.game)
        if args.command == "ratings":
            return _ratings(args.db, args.rebuild)
        if args.command == "backup":
            return _backup(args.db, args.to)
        return _restore(args.db, args.source)
    except StoreError as exc:
        print(f"error [{exc.code}]: {one_line(exc.message)}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
