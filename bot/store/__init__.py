"""Game storage: SQLite (aiosqlite) or PostgreSQL (asyncpg), migrations, log plus snapshots.

The bot calls ``repo = await open_store(path_or_url)`` at start-up; everything it needs is
re-exported here. No discord types: guild, channel, thread and user ids are plain ints.
"""

from .connection import Target, is_url
from .databases import is_busy
from .errors import (
    GameNotActive,
    GameNotFound,
    InvalidRequest,
    LeagueNameTaken,
    LeaguePlayersMoved,
    MigrationError,
    NothingToUndo,
    RatingsMoved,
    StaleVersion,
    StoreError,
    ThreadBusy,
)
from .interface import GameStore, LeagueStore
from .models import (
    LANGUAGES,
    Action,
    ActiveGame,
    AwaySeat,
    Game,
    GameStatus,
    League,
    LeaguePlayer,
    LeagueTable,
    MatchLike,
    NewLeague,
    NewSeat,
    Outcome,
    Rating,
    RatingChange,
    Reminder,
    Seat,
    SeatResult,
    Shards,
    UserSettings,
    resigned_last,
)
from .repository import GameRepository, open_store

__all__ = [
    "LANGUAGES",
    "Action",
    "ActiveGame",
    "AwaySeat",
    "Game",
    "GameNotActive",
    "GameNotFound",
    "GameRepository",
    "GameStatus",
    "GameStore",
    "InvalidRequest",
    "League",
    "LeagueNameTaken",
    "LeaguePlayer",
    "LeaguePlayersMoved",
    "LeagueStore",
    "LeagueTable",
    "MatchLike",
    "MigrationError",
    "NewLeague",
    "NewSeat",
    "NothingToUndo",
    "Outcome",
    "Rating",
    "RatingChange",
    "RatingsMoved",
    "Reminder",
    "Seat",
    "SeatResult",
    "Shards",
    "StaleVersion",
    "StoreError",
    "Target",
    "ThreadBusy",
    "UserSettings",
    "is_busy",
    "is_url",
    "open_store",
    "resigned_last",
]
