"""The store as the players' own tools see it (issue 39): the queue, private notes, more time on
a turn, the open lobbies and per-game pings with the server's limit on games; one small
protocol per concern, as in ``interface.py``, which composes them into ``LeagueStore``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .models import OpenLobby, QueueEntry, QueueMatch
from .more_time import Extension


class QueueStore(Protocol):
    """The queue (issue 39): who waits for which game, the groups matched and their games."""

    async def join_queue(self, entry: QueueEntry) -> None:
        """Put a player in the queue for a game (a second join replaces their entry)."""
        ...

    async def leave_queue(self, guild_id: int, user_id: int) -> int:
        """Take a player out of the server's queue (every game); how many entries went."""
        ...

    async def queue_of(self, guild_id: int) -> list[QueueEntry]:
        """The server's queue, oldest first."""
        ...

    async def queue_guilds(self) -> list[int]:
        """The servers where someone waits in the queue."""
        ...

    async def expired_queue(self, now: int) -> list[QueueEntry]:
        """The entries whose week is over, to tell and remove."""
        ...

    async def drop_queue_entry(self, entry: QueueEntry) -> bool:
        """Remove this entry (the same join); False if it is gone."""
        ...

    async def match_queue(
        self,
        entries: Sequence[QueueEntry],
        *,
        channel_id: int,
        language: str | None,
        now: int,
    ) -> QueueMatch:
        """Record a group as matched and take its entries out, at once (QueueMoved)."""
        ...

    async def queue_match(self, match_id: int) -> QueueMatch | None:
        """A matched group by its id."""
        ...

    async def owed_matches(self) -> list[QueueMatch]:
        """The matched groups whose game is not made yet, oldest first."""
        ...

    async def set_match_message(self, match_id: int, message_id: int) -> None:
        """Record the message a matched group's thread starts from."""
        ...

    async def set_match_game(self, match_id: int, thread_id: int, game_id: int) -> None:
        """Record the thread and game opened for a matched group."""
        ...

    async def queue_channel(self, guild_id: int) -> int | None:
        """The channel where the server's queue opens its games (None: not set)."""
        ...

    async def set_queue_channel(
        self, guild_id: int, channel_id: int | None, *, by: int, now: int
    ) -> None:
        """Store where the server's queue opens its games."""
        ...


class NotesStore(Protocol):
    """A player's private note on a game (issue 39 item 3)."""

    async def note_of(self, game_id: int, user_id: int) -> str | None:
        """The player's note on the game (None: none written)."""
        ...

    async def save_note(self, game_id: int, user_id: int, body: str, *, now: int) -> None:
        """Store the player's note on the game, replacing the last one (empty: deleted)."""
        ...


class MoreTimeStore(Protocol):
    """More time on a turn (issue 39 item 4): asked once, granted once."""

    async def ask_more_time(self, game_id: int, turn: str, user_id: int, *, now: int) -> bool:
        """Record that the turn's player asks for more time; False if asked already."""
        ...

    async def more_time_of(self, game_id: int, turn: str) -> Extension | None:
        """The more time asked on a turn, if any."""
        ...

    async def grant_more_time(
        self, game_id: int, turn: str, user_id: int, seconds: int, *, now: int
    ) -> bool:
        """Grant it and move the turn's deadline and unsent reminders on, at once."""
        ...


class LobbyList(Protocol):
    """The lobbies open in each server (issue 39 item 2)."""

    async def keep_lobby(self, lobby: OpenLobby, *, now: int) -> None:
        """List a lobby as it is now (its first listing's ``opened_at`` stays)."""
        ...

    async def drop_lobby(self, message_id: int) -> None:
        """Stop listing a lobby (started or cancelled)."""
        ...

    async def open_lobbies(self, guild_id: int) -> list[OpenLobby]:
        """The lobbies open in a server, oldest first."""
        ...


class PingStore(Protocol):
    """Per-game pings and a server's limit on games (issue 39 item 5)."""

    async def game_pings(self, game_id: int) -> dict[int, str]:
        """The players of a game who chose another ping than the default, and their mode."""
        ...

    async def user_game_pings(self, user_id: int) -> dict[int, str]:
        """A player's games with another ping than the default, and their mode."""
        ...

    async def set_game_ping(
        self, game_id: int, user_id: int, mode: str | None, *, now: int
    ) -> None:
        """How the player is pinged in the game (None: the default, on their turn)."""
        ...

    async def delete_user_game_pings(self, user_id: int) -> int:
        """Forget every per-game ping choice of a player; how many."""
        ...

    async def max_games(self, guild_id: int) -> int | None:
        """How many active games one player may hold in the server (None: no limit)."""
        ...

    async def set_max_games(self, guild_id: int, most: int | None, *, by: int, now: int) -> None:
        """Set (None: remove) the server's limit on one player's active games."""
        ...
