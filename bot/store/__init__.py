"""Game storage: SQLite (aiosqlite) or PostgreSQL (asyncpg), migrations, log plus snapshots.

The bot calls ``repo = await open_store(path_or_url)`` at start-up; everything it needs is
re-exported here. No discord types: guild, channel, thread and user ids are plain ints.
"""

from .connection import Target, is_busy, is_url
from .errors import (
    GameNotActive,
    GameNotFound,
    InvalidRequest,
    MigrationError,
    NothingToUndo,
    StaleVersion,
    StoreError,
    ThreadBusy,
)
from .interface import GameStore
from .models import (
    Action,
    ActiveGame,
    Game,
    GameStatus,
    MatchLike,
    NewSeat,
    Outcome,
    Reminder,
    Seat,
    SeatResult,
    UserSettings,
)
from .repository import GameRepository, open_store

__all__ = [
    "Action",
    "ActiveGame",
    "Game",
    "GameNotActive",
    "GameNotFound",
    "GameRepository",
    "GameStatus",
    "GameStore",
    "InvalidRequest",
    "MatchLike",
    "MigrationError",
    "NewSeat",
    "NothingToUndo",
    "Outcome",
    "Reminder",
    "Seat",
    "SeatResult",
    "StaleVersion",
    "StoreError",
    "Target",
    "ThreadBusy",
    "UserSettings",
    "is_busy",
    "is_url",
    "open_store",
]
