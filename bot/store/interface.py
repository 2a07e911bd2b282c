"""The store as the services and the outbox see it: one small protocol per concern.

``GameRepository`` (SQLite, ``bot/store/repository.py``) is the first implementation; a
PostgreSQL store implements the same methods with the same guarantees (an append succeeds only
at the version it read, in one transaction with the snapshot; one active game per thread).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from .announcements import GameVersions
from .models import (
    DEFAULT_SETTINGS,
    Action,
    ActiveGame,
    AwaySeat,
    BankTurn,
    Game,
    GameSettings,
    League,
    LeaguePlayer,
    LeagueTable,
    MatchLike,
    NewLeague,
    NewSeat,
    OwedPicture,
    PlayerGame,
    Rating,
    RatingChange,
    Reminder,
    Shards,
    StoredOutcome,
    UserSettings,
)
from .player_interface import (
    LobbyList,
    MoreTimeStore,
    NotesStore,
    PingStore,
    QueueStore,
)


class GameLog(Protocol):
    """Games, their seats, action logs and snapshots."""

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int,
        game_key: str,
        seed: int,
        options: Mapping[str, Any] | None,
        seats: Sequence[NewSeat],
        snapshot: str,
        current_seat: int | None,
        settings: GameSettings = DEFAULT_SETTINGS,
    ) -> Game:
        """Store a new active game with its settings (ThreadBusy if the thread has one)."""
        ...

    async def load_game(self, game_id: int) -> Game:
        """A game by id (GameNotFound)."""
        ...

    async def load_game_by_thread(self, thread_id: int) -> Game:
        """The thread's active game (GameNotFound)."""
        ...

    async def load_latest_game_by_thread(self, thread_id: int) -> Game:
        """The thread's latest game of any status (GameNotFound)."""
        ...

    async def latest_game_head_by_thread(self, thread_id: int) -> Game:
        """The thread's latest game without its snapshot (empty), in one statement."""
        ...

    async def list_active_games(self, user_id: int) -> list[ActiveGame]:
        """A user's active games."""
        ...

    async def list_guild_games(self, guild_id: int, limit: int) -> list[ActiveGame]:
        """A server's active games, the most recently active first."""
        ...

    async def player_games(
        self, guild_id: int | None, user_id: int, limit: int
    ) -> list[PlayerGame]:
        """A user's seats in a server's games (None: every server's), the newest first."""
        ...

    async def load_actions(self, game_id: int) -> list[Action]:
        """A game's whole action log in order (with the time of each action)."""
        ...

    async def append_match(
        self, game: Game, match: MatchLike, *, silent: bool = False, by_computer: bool = False
    ) -> int:
        """Save what a match loaded from ``game`` played; the new version (StaleVersion)."""
        ...

    async def undo_last(
        self, game_id: int, expected_version: int, snapshot: str, *, current_seat: int | None
    ) -> int:
        """Remove the last action, store the snapshot without it; the new version."""
        ...

    async def abandon_game(
        self, game_id: int, *, expected_version: int | None = None, reason: str = "abandoned"
    ) -> int:
        """Mark an active game abandoned; the new version."""
        ...


class AnnouncementStore(Protocol):
    """The outbox's announced versions: which thread messages are still owed."""

    async def unannounced_games(self, shards: Shards | None = None) -> list[int]:
        """Active or finished games whose latest version has no thread message yet (in the
        guilds of ``shards``, if given)."""
        ...

    async def unannounced_abandoned_games(self, shards: Shards | None = None) -> list[int]:
        """Abandoned games whose ending has no thread message yet (of ``shards``' guilds)."""
        ...

    async def game_versions(self, game_id: int) -> GameVersions:
        """The game's version and the newest one whose thread message was posted, read
        without the game (GameNotFound if none)."""
        ...

    async def mark_announced(
        self, game_id: int, version: int, *, picture_message: int | None = None
    ) -> bool:
        """Record that the thread message of ``version`` was posted (``picture_message``: its
        id, when its picture is still owed)."""
        ...


class PictureStore(Protocol):
    """Turn messages posted before their picture: the pictures still owed (migration 0014)."""

    async def owed_pictures(self, shards: Shards | None = None) -> list[OwedPicture]:
        """Turn messages posted without their picture (of ``shards``' guilds, if given)."""
        ...

    async def clear_owed_picture(self, game_id: int, version: int) -> bool:
        """Record that the picture owed by ``version``'s message is attached (or superseded)."""
        ...


class ReminderStore(Protocol):
    """A turn's reminders and deadline, and the votes at a deadline."""

    async def begin_bank_turn(
        self, game_id: int, *, turn: str, seat: int, available: int, now: int
    ) -> BankTurn:
        """Begin a turn of a game with a time bank once; the stored turn."""
        ...

    async def end_bank_turns(self, game_id: int, *, now: int, keep: str | None = None) -> int:
        """End a game's open bank turns (all but ``keep`` if given); how many."""
        ...

    async def bank_turns(self, game_id: int) -> list[BankTurn]:
        """A game's bank turns, oldest first."""
        ...

    async def schedule_turn(
        self,
        game_id: int,
        *,
        turn: str,
        seat: int,
        user_id: int,
        deadline_at: int,
        reminders: Sequence[tuple[str, int]],
        now: int,
    ) -> int:
        """Schedule a turn's reminders once, cancel other turns' unsent ones; the deadline."""
        ...

    async def turn_deadline(self, game_id: int, turn: str) -> int | None:
        """The deadline scheduled for a game's turn, if any."""
        ...

    async def cancel_reminders(self, game_id: int, *, now: int, keep: str | None = None) -> int:
        """Cancel every unsent reminder of a game (all but turn ``keep``'s if given); how
        many."""
        ...

    async def claim_due_reminders(
        self, *, now: int, lease: int, shards: Shards | None = None
    ) -> list[Reminder]:
        """Atomically claim due, unsent reminders for ``lease`` seconds (expired leases too),
        of games in the guilds of ``shards`` if given."""
        ...

    async def mark_reminders_sent(self, reminder_ids: Sequence[int], *, now: int) -> int:
        """Record in one transaction that reminders were sent; how many were not already."""
        ...

    async def cancel_reminder(self, reminder_id: int, *, now: int) -> bool:
        """Cancel one unsent reminder."""
        ...

    async def standing_deadline(self, game_id: int, turn: str) -> int | None:
        """The deadline of a game's turn unless it was cancelled (the computer took over)."""
        ...

    async def old_turn_keys(self, game_id: int) -> int | None:
        """For a game active at migration 0012: how many actions it had then; else None."""
        ...

    async def list_reminders(self, game_id: int) -> list[Reminder]:
        """Every reminder row of a game."""
        ...

    async def computer_played(self, game_id: int) -> set[int]:
        """Sequence numbers of the actions a computer played for a human seat."""
        ...

    async def add_deadline_vote(
        self, game_id: int, turn: str, voter: int, choice: str, *, now: int
    ) -> list[int]:
        """Record a vote (once per voter and turn); the voters for that choice so far."""
        ...


class StandInStore(Protocol):
    """Seats the computer plays for their player: away, resigned, on vacation, forfeited."""

    async def set_stand_in(self, game_id: int, seat: int, stand_in: str, *, now: int) -> bool:
        """Let the computer play a human seat ("away" or "resigned"); False if nothing changed."""
        ...

    async def hand_over(self, game_id: int, seat: int, *, now: int) -> bool:
        """Hand a seat nobody stands in for to the computer ("away"); True only for the call
        that changed it."""
        ...

    async def resign_and_finish(
        self, game_id: int, seat: int, expected_version: int, outcome: StoredOutcome, *, now: int
    ) -> int:
        """Mark a seat resigned and finish the game with ``outcome`` at once; the new version."""
        ...

    async def away_seats(self, user_id: int) -> list[AwaySeat]:
        """The user's seats the computer plays until they come back, in active games."""
        ...

    async def clear_away(self, seats: Sequence[AwaySeat], *, now: int) -> list[AwaySeat]:
        """Give away seats back to their players; those that were away."""
        ...

    async def vacationers(self, game_id: int, *, now: int) -> set[int]:
        """The users of a game who are on vacation at ``now``."""
        ...

    async def computer_due_games(self, *, now: int, shards: Shards | None = None) -> list[int]:
        """Active games whose seat to act the computer plays (computer, stand-in, vacation),
        in the guilds of ``shards`` if given."""
        ...

    async def forfeits_of_game(self, game_id: int) -> set[int]:
        """Users whose league seat in this game is forfeited (they withdrew)."""
        ...


class SettingsStore(Protocol):
    """A user's settings and a server's."""

    async def load_user_settings(self, user_id: int) -> UserSettings | None:
        """A user's stored settings, or None if they never set any."""
        ...

    async def save_user_settings(self, settings: UserSettings, *, now: int) -> None:
        """Store a user's settings (replacing what was stored)."""
        ...

    async def delete_user_settings(self, user_id: int) -> bool:
        """Delete a user's stored settings; False if there were none."""
        ...

    async def guild_language(self, guild_id: int) -> str | None:
        """The server's default language, or None if none is set."""
        ...

    async def set_guild_language(
        self, guild_id: int, language: str | None, *, by: int, now: int
    ) -> None:
        """Store the server's default language (None: no default)."""
        ...


class LeagueRecords(Protocol):
    """Leagues: seasons, sign-ups, rounds, tables and their seats."""

    async def create_league(self, new: NewLeague, *, now: int) -> League:
        """Store a new league open for sign-up (LeagueNameTaken if the server has that name)."""
        ...

    async def load_league(self, guild_id: int, name: str) -> League | None:
        """The server's league of that name (exactly, else by its normalized key), if any."""
        ...

    async def load_league_by_id(self, league_id: int) -> League | None:
        """A league by id, if it exists."""
        ...

    async def list_leagues(self, guild_id: int) -> list[League]:
        """A server's leagues, by name."""
        ...

    async def running_leagues(self) -> list[League]:
        """Every league whose season is under way."""
        ...

    async def join_league(self, league_id: int, user_id: int, name: str, *, now: int) -> bool:
        """Sign a player up while sign-up is open; False if they were or it is closed."""
        ...

    async def leave_league(self, league_id: int, user_id: int) -> bool:
        """Remove a sign-up while sign-up is open; False if there was none or it is closed."""
        ...

    async def withdraw_from_league(self, league_id: int, user_id: int) -> int | None:
        """Withdraw a player from a running league in its current round, forfeiting their seats
        whose game has not ended; the round, or None (not running, not a playing player)."""
        ...

    async def league_players(self, league_id: int) -> list[LeaguePlayer]:
        """A league's players in the order they joined."""
        ...

    async def seat_league_round(
        self, league_id: int, round_: int, tables: Sequence[Sequence[int]]
    ) -> bool:
        """Store a round's tables and seats in one transaction; False if it was seated already;
        LeaguePlayersMoved if they are not exactly the playing players at that moment."""
        ...

    async def league_tables(self, league_id: int) -> list[LeagueTable]:
        """Every table of a league, by round and number, with its players in seat order."""
        ...

    async def set_table_message(
        self, league_id: int, round_: int, table_no: int, message_id: int
    ) -> bool:
        """Record the message a table's thread starts from (once)."""
        ...

    async def set_table_game(
        self, league_id: int, round_: int, table_no: int, thread_id: int, game_id: int
    ) -> bool:
        """Record the thread and game opened for a table (once)."""
        ...

    async def league_of_game(self, game_id: int) -> int | None:
        """The league a game was played for, if any."""
        ...

    async def finish_league(self, league_id: int) -> bool:
        """Mark a running league's season over; False if it was not running."""
        ...

    async def mark_round_posted(self, league_id: int, round_: int) -> bool:
        """Record that a round's standings were posted; False if they already were."""
        ...


class RatingStore(Protocol):
    """Ratings, their history and which games are rated."""

    async def unrated_games(self) -> list[int]:
        """Finished games not rated yet, in the order they ended."""
        ...

    async def latest_rated_end(self) -> datetime | None:
        """When the latest-ending rated game ended (None before any)."""
        ...

    async def game_ratings(self, guild_id: int, game_key: str) -> list[Rating]:
        """Every rating of one game on one server."""
        ...

    async def record_ratings(
        self, game_id: int, guild_id: int, game_key: str, changes: Sequence[RatingChange]
    ) -> bool:
        """Mark a game rated and store its rating changes, at once; False if it was rated."""
        ...

    async def rating_history(
        self, guild_id: int, game_key: str, user_id: int
    ) -> list[RatingChange]:
        """A player's rating changes in one game on one server, oldest first."""
        ...

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """The rating changes one game made."""
        ...

    async def rated_game_keys(self, guild_id: int, user_id: int) -> list[str]:
        """The games a player has a rating in on a server, most played first."""
        ...

    async def rated_guilds(self, user_id: int) -> list[int]:
        """The servers where a player has a rating."""
        ...

    async def all_ratings(self) -> list[tuple[int, str, Rating]]:
        """Every rating: (guild, game, rating), in a stable order."""
        ...

    async def clear_ratings(self) -> None:
        """Forget every rating, change and rated mark (before rating every game again)."""
        ...


class SeatStore(GameLog, StandInStore, Protocol):
    """Games and who plays their seats: what computer turns and endings use."""


class RematchStore(Protocol):
    """The lobby a finished game's Rematch button opened (migration 0016)."""

    async def rematch_of(self, game_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of a game's rematch lobby, if any."""
        ...

    async def record_rematch(
        self, game_id: int, channel_id: int, message_id: int, *, replacing: int | None = None
    ) -> tuple[int, int]:
        """Record a game's rematch lobby unless one is (or in place of the closed lobby
        ``replacing``, if it still is the one recorded); the one recorded."""
        ...


class EndingStore(SeatStore, RematchStore, Protocol):
    """Games, their seats and their rematches: what endings use."""


class DeadlineStore(SeatStore, ReminderStore, MoreTimeStore, Protocol):
    """Games, their seats and their turns' reminders and votes: what deadlines use."""


class ReportStore(GameLog, ReminderStore, PictureStore, Protocol):
    """Games and which turns a computer played: what turn reports use."""


class ReadingStore(ReportStore, AnnouncementStore, Protocol):
    """Games, their deadlines and announced versions: what reading a game uses."""


class GameStore(
    GameLog,
    AnnouncementStore,
    ReminderStore,
    StandInStore,
    SettingsStore,
    PictureStore,
    RematchStore,
    Protocol,
):
    """Everything about games: what the game services, the outbox and the workers use."""

    async def close(self) -> None:
        """Release the connections."""
        ...


class LeagueBook(SeatStore, LeagueRecords, Protocol):
    """Games, their forfeits and the leagues they are played for: what leagues use."""


class RatingBook(SeatStore, RatingStore, Protocol):
    """Finished games, their forfeits and the ratings they moved: what ratings use."""


class LeagueStore(
    GameStore,
    LeagueRecords,
    RatingStore,
    QueueStore,
    NotesStore,
    MoreTimeStore,
    LobbyList,
    PingStore,
    Protocol,
):
    """Games plus leagues (seasons, tables, seats), ratings (issue 15), the queue, notes and
    more time on a turn."""
