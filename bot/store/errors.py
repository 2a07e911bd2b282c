"""Typed storage errors: each has a stable ``code`` the bot can map to a reply."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""

    code = "store_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_dict(self) -> dict[str, object]:
        """The error as JSON-ready data (code and message)."""
        return {"code": self.code, "message": self.message}


class GameNotFound(StoreError):
    """No game with that id, or no active game in that thread."""

    code = "game_not_found"

    def __init__(
        self, message: str, *, game_id: int | None = None, thread_id: int | None = None
    ) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.thread_id = thread_id


class StaleVersion(StoreError):
    """The game changed since the caller read it; nothing was written."""

    code = "stale_version"

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"game {game_id} is at version {actual}, not {expected}: it changed since it was read"
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class ThreadBusy(StoreError):
    """The thread already has an active game."""

    code = "thread_busy"

    def __init__(self, thread_id: int, game_id: int | None) -> None:
        super().__init__(f"thread {thread_id} already has an active game ({game_id})")
        self.thread_id = thread_id
        self.game_id = game_id


class GameNotActive(StoreError):
    """The game is finished or abandoned, so it takes no more changes."""

    code = "game_not_active"

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}, not active")
        self.game_id = game_id
        self.status = status


class NothingToUndo(StoreError):
    """The game's action log is empty."""

    code = "nothing_to_undo"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} has no action to undo")
        self.game_id = game_id


class InvalidRequest(StoreError):
    """The caller passed data the store cannot accept (bad seats, empty batch, ...)."""

    code = "invalid_request"


class MigrationError(StoreError):
    """The migrations or the database schema version are not usable; nothing was changed."""

    code = "migration_error"


class DatabaseUnusable(StoreError):
    """The database file cannot be used: not a database, read-only, unreadable..."""

    code = "database_unusable"


class LeagueNameTaken(StoreError):
    """The server already has a league of that name (compared by key: bot/league/names.py)."""

    code = "league_name_taken"


class LeaguePlayersMoved(StoreError):
    """The tables to seat are not exactly the league's playing players (one joined, left or
    withdrew since they were read): nothing was written; seat them again from fresh players."""

    code = "league_players_moved"


class RatingsMoved(StoreError):
    """A player's rating changed since the changes to record were computed from it (another
    process rated a game of the same server and game meanwhile): nothing was written."""

    code = "ratings_moved"


class QueueMoved(StoreError):
    """A player of the group to match left the queue or was matched since the queue was read:
    nothing was written; read the queue again."""

    code = "queue_moved"
