"""The open-lobbies part of the repository: the lobbies ``/games`` lists."""

from __future__ import annotations

from . import queries as q
from .base import StoreBase
from .connection import Row
from .models import OpenLobby, check_int64
from .rows import optional_int


def open_lobby_from_row(row: Row) -> OpenLobby:
    """An ``open_lobbies`` row."""
    return OpenLobby(
        message_id=int(row["message_id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        game_key=str(row["game_key"]),
        seats=int(row["seats"]),
        players=int(row["players"]),
        computers=bool(row["computers"]),
        deadline_hours=int(row["deadline_hours"]),
        bank_hours=optional_int(row["bank_hours"]),
        increment_hours=optional_int(row["increment_hours"]),
        language=None if row["language"] is None else str(row["language"]),
        opened_at=int(row["opened_at"]),
    )


class LobbiesPart(StoreBase):
    """The lobbies open in each server (issue 39 item 2)."""

    async def keep_lobby(self, lobby: OpenLobby, *, now: int) -> None:
        """List a lobby as it is now (its first listing's ``opened_at`` stays)."""
        for name in ("message_id", "guild_id", "channel_id"):
            check_int64(name, getattr(lobby, name))
        async with self._write() as conn:
            await conn.execute(
                q.UPSERT_OPEN_LOBBY,
                (
                    lobby.message_id,
                    lobby.guild_id,
                    lobby.channel_id,
                    lobby.game_key,
                    lobby.seats,
                    lobby.players,
                    int(lobby.computers),
                    lobby.deadline_hours,
                    lobby.bank_hours,
                    lobby.increment_hours,
                    lobby.language,
                    lobby.opened_at,
                    now,
                ),
            )

    async def drop_lobby(self, message_id: int) -> None:
        """Stop listing a lobby (started or cancelled)."""
        async with self._write() as conn:
            await conn.execute(q.DELETE_OPEN_LOBBY, (message_id,))

    async def open_lobbies(self, guild_id: int) -> list[OpenLobby]:
        """The lobbies open in a server, oldest first."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_OPEN_LOBBIES, (guild_id,))
        return [open_lobby_from_row(r) for r in rows]
