"""The server's table (issue 39 item 2): the lobbies open in a server and who waits in its
queue, at a glance (``/games``). Lobbies are listed by every change the lobby card makes and
unlisted when they start or are cancelled (``open_lobbies``, migration 0020)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store import OpenLobby, QueueEntry
from bot.store.player_interface import LobbyList

from .queue import QueueService
from .reading import ReadingService
from .results import GameListing
from .tables import Clock

__all__ = ["OpenLobby", "QueueEntry", "ServerTable", "ServerTableService"]

#: Lobbies untouched for this long are not shown (a lobby message deleted by hand stays listed).
STALE_AFTER = 30 * 24 * 3600


class TableBook(LobbyList, Protocol):
    """The store calls the server's table makes."""


@dataclass(frozen=True, kw_only=True)
class ServerTable:
    """What a server has on its table now: its open lobbies and its queue, oldest first, and
    the games being played (the reader's first)."""

    lobbies: tuple[OpenLobby, ...]
    queue: tuple[QueueEntry, ...]
    playing: tuple[GameListing, ...]


class ServerTableService:
    """Listing open lobbies, and the server's table as ``/games`` shows it."""

    def __init__(
        self, store: TableBook, *, queue: QueueService, reading: ReadingService, clock: Clock
    ) -> None:
        self.store = store
        self.queue = queue
        self.reading = reading
        self.clock = clock

    async def keep(
        self,
        *,
        message_id: int,
        guild_id: int,
        channel_id: int,
        game_key: str,
        seats: int,
        players: int,
        computers: bool,
        deadline_hours: int,
        bank_hours: int | None,
        increment_hours: int | None,
        language: str | None,
    ) -> None:
        """List a lobby as it is now (first listed now, unless it was before)."""
        now = int(self.clock())
        lobby = OpenLobby(
            message_id=message_id,
            guild_id=guild_id,
            channel_id=channel_id,
            game_key=game_key,
            seats=seats,
            players=players,
            computers=computers,
            deadline_hours=deadline_hours,
            bank_hours=bank_hours,
            increment_hours=increment_hours,
            language=language,
            opened_at=now,
        )
        await self.store.keep_lobby(lobby, now=now)

    async def close(self, message_id: int) -> None:
        """Unlist a lobby that started or was cancelled."""
        await self.store.drop_lobby(message_id)

    async def of_server(self, guild_id: int, reader: int) -> ServerTable:
        """The server's open lobbies (not stale), its queue and its games being played
        (``reader``'s first)."""
        since = int(self.clock()) - STALE_AFTER
        lobbies = [lb for lb in await self.store.open_lobbies(guild_id) if lb.opened_at >= since]
        return ServerTable(
            lobbies=tuple(lobbies),
            queue=tuple(await self.queue.waiting(guild_id)),
            playing=tuple(await self.reading.server_games(reader, guild_id=guild_id)),
        )
