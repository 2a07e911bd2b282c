"""The async repository the bot uses: every part of the store, on SQLite or PostgreSQL.

Each concern is a part of its own module (games and their logs, the outbox's announced
versions, reminders and votes, stand-ins, settings, leagues, ratings), with its protocol in
``interface.py``; ``GameRepository`` is the one object that has them all.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import TracebackType

from . import postgres, sqlite
from .announcements import AnnouncementsPart
from .base import Clock, utc_now
from .connection import Target, is_url
from .counts import CountsPart
from .databases import retry_conflicts
from .games import GamesPart
from .leagues import LeaguesPart
from .lobbies import LobbiesPart
from .migrate import (
    migrate_database,
    migrate_postgres,
    require_current,
    require_current_postgres,
)
from .more_time import MoreTimePart
from .notes import NotesPart
from .pings import PingsPart
from .queue import QueuePart
from .ratings import RatingsPart
from .reminders import RemindersPart
from .stand_ins import StandInsPart
from .user_settings import SettingsPart

__all__ = ["Clock", "GameRepository", "open_store", "utc_now"]


@retry_conflicts
class GameRepository(
    GamesPart,
    AnnouncementsPart,
    RemindersPart,
    StandInsPart,
    SettingsPart,
    LeaguesPart,
    RatingsPart,
    QueuePart,
    NotesPart,
    MoreTimePart,
    LobbiesPart,
    PingsPart,
    CountsPart,
):
    """Async access to stored games on SQLite or PostgreSQL (the backend does the dialect)."""

    @classmethod
    async def connect(
        cls, target: Target, *, clock: Clock = utc_now, migrations_dir: Path | None = None
    ) -> GameRepository:
        """Open an existing, fully migrated database (no schema changes)."""
        if is_url(target):
            url = str(target)
            await require_current_postgres(url, migrations_dir)
            return cls(await postgres.PostgresBackend.open(url), clock)
        path = Path(target)
        await asyncio.to_thread(require_current, path, migrations_dir)
        return cls(await sqlite.SqliteBackend.open(path), clock)

    async def close(self) -> None:
        """Close the database connections (waits for a running transaction to finish)."""
        await self._db.close()

    async def __aenter__(self) -> GameRepository:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def backup(self, dest: Path | str) -> int:
        """Write a consistent copy of the database to ``dest`` while the bot runs.

        SQLite: the online backup API, returns the pages copied; PostgreSQL: ``pg_dump``,
        returns the bytes written.
        """
        return await self._db.backup(Path(dest))


async def open_store(
    target: Target, *, migrations_dir: Path | None = None, clock: Clock = utc_now
) -> GameRepository:
    """Create the schema if needed, apply pending migrations, return the repository.

    ``target`` is a SQLite file (created with its folder if missing) or a ``postgresql://``
    URL of an existing database.
    """
    if is_url(target):
        await migrate_postgres(str(target), migrations_dir)
    else:
        await asyncio.to_thread(migrate_database, Path(target), migrations_dir)
    return await GameRepository.connect(target, clock=clock, migrations_dir=migrations_dir)
