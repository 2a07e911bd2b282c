"""Command line: ``python -m bot.store {migrate,verify,repair,backup,ratings} --db PATH``."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from .backup import backup_file
from .errors import StoreError
from .migrate import migrate_database
from .repair import Repair, repair_database
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
    repair = commands.add_parser("repair", help="rebuild snapshots that disagree with their log")
    repair.add_argument("--db", type=Path, required=True, help="SQLite database file")
    repair.add_argument("--game", type=int, default=None, help="only this game id")
    backup = commands.add_parser("backup", help="online backup to a file (safe while running)")
    backup.add_argument("--db", type=Path, required=True, help="SQLite database file")
    backup.add_argument("--to", type=Path, required=True, help="backup file to write")
    ratings = commands.add_parser("ratings", help="rate finished games (--rebuild: all again)")
    ratings.add_argument("--db", type=Path, required=True, help="SQLite database file")
    ratings.add_argument("--rebuild", action="store_true", help="forget and recompute every rating")
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


def _require(db: Path) -> None:
    if not db.exists():
        raise StoreError(f"database {db} does not exist")


def _verify(db: Path) -> int:
    _require(db)
    report = asyncio.run(verify_database(db))
    for problem in report.problems:
        print(f"game {problem.game_id}: {problem.message}")
    print(f"{db}: checked {report.checked} games, {len(report.problems)} differ")
    return EXIT_OK if report.ok else EXIT_DIFFERENCES


def _repair(db: Path, game_id: int | None) -> int:
    _require(db)
    results = asyncio.run(repair_database(db, game_id))
    for result in results:
        if result.outcome == Repair.FIXED:
            print(f"game {result.game_id}: fixed ({result.detail})")
        elif result.outcome == Repair.BROKEN_LOG:
            print(f"game {result.game_id}: not repaired, the log does not replay ({result.detail})")
    broken = sum(1 for r in results if r.outcome == Repair.BROKEN_LOG)
    fixed = sum(1 for r in results if r.outcome == Repair.FIXED)
    print(f"{db}: checked {len(results)} games, fixed {fixed}, {broken} cannot be repaired")
    return EXIT_DIFFERENCES if broken else EXIT_OK


def _backup(db: Path, dest: Path) -> int:
    pages = backup_file(db, dest)
    print(f"{db}: backed up to {dest} ({pages} pages)")
    return EXIT_OK


def _ratings(db: Path, rebuild: bool) -> int:
    from bot.service.ratings import RatingService

    from .repository import GameRepository

    _require(db)

    async def go() -> int:
        async with await GameRepository.connect(db) as repo:
            service = RatingService(repo)
            return await (service.rebuild() if rebuild else service.rate_pending())

    count = asyncio.run(go())
    print(f"{db}: rated {count} games" + (" (every rating rebuilt)" if rebuild else ""))
    return EXIT_OK


def one_line(text: str) -> str:
    """A message with its line breaks and runs of spaces folded into single spaces."""
    return " ".join(text.split())


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
        return _backup(args.db, args.to)
    except StoreError as exc:
        print(f"error [{exc.code}]: {one_line(exc.message)}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
