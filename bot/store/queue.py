"""The queue part of the repository: players waiting for a game, and the groups matched."""

from __future__ import annotations

import json
from collections.abc import Sequence

from . import queries as q
from .base import StoreBase
from .connection import Row
from .errors import QueueMoved
from .models import QueueEntry, QueueMatch, check_int64, check_language
from .rows import ints, only, optional_int


def queue_entry_from_row(row: Row) -> QueueEntry:
    """A ``queue_entries`` row."""
    return QueueEntry(
        guild_id=int(row["guild_id"]),
        user_id=int(row["user_id"]),
        game_key=str(row["game_key"]),
        name=str(row["name"]),
        fewest=int(row["fewest"]),
        most=int(row["most"]),
        channel_id=int(row["channel_id"]),
        joined_at=int(row["joined_at"]),
        expires_at=int(row["expires_at"]),
    )


def queue_match_from_row(row: Row) -> QueueMatch:
    """A ``queue_matches`` row (its players a JSON array of [user id, name])."""
    players = tuple((int(user), str(name)) for user, name in json.loads(str(row["players"])))
    return QueueMatch(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        game_key=str(row["game_key"]),
        players=players,
        language=None if row["language"] is None else str(row["language"]),
        created_at=int(row["created_at"]),
        message_id=optional_int(row["message_id"]),
        thread_id=optional_int(row["thread_id"]),
        game_id=optional_int(row["game_id"]),
    )


class QueuePart(StoreBase):
    """The queue (issue 39): who waits for which game, the groups matched and their games."""

    async def join_queue(self, entry: QueueEntry) -> None:
        """Put a player in the queue for a game (a second join replaces their entry)."""
        for name in ("guild_id", "user_id", "channel_id"):
            check_int64(name, getattr(entry, name))
        async with self._write() as conn:
            await conn.execute(
                q.UPSERT_QUEUE_ENTRY,
                (
                    entry.guild_id,
                    entry.user_id,
                    entry.game_key,
                    entry.name,
                    entry.fewest,
                    entry.most,
                    entry.channel_id,
                    entry.joined_at,
                    entry.expires_at,
                ),
            )

    async def leave_queue(self, guild_id: int, user_id: int) -> int:
        """Take a player out of the server's queue (every game); how many entries went."""
        async with self._write() as conn:
            cursor = await conn.execute(q.DELETE_QUEUE_ENTRIES_OF_USER, (guild_id, user_id))
            return cursor.rowcount

    async def queue_of(self, guild_id: int) -> list[QueueEntry]:
        """The server's queue, oldest first (expired entries not told yet included)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_QUEUE, (guild_id,))
        return [queue_entry_from_row(r) for r in rows]

    async def queue_guilds(self) -> list[int]:
        """The servers where someone waits in the queue."""
        async with self._read() as conn:
            return ints(await conn.execute_fetchall(q.SELECT_QUEUE_GUILDS, ()), "guild_id")

    async def expired_queue(self, now: int) -> list[QueueEntry]:
        """The entries whose week is over (``expires_at <= now``), to tell and remove."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_EXPIRED_QUEUE, (now,))
        return [queue_entry_from_row(r) for r in rows]

    async def drop_queue_entry(self, entry: QueueEntry) -> bool:
        """Remove this entry (the same join: a newer one of the player stays); False if gone."""
        async with self._write() as conn:
            cursor = await conn.execute(
                q.DELETE_QUEUE_ENTRY,
                (entry.guild_id, entry.user_id, entry.game_key, entry.joined_at),
            )
            return cursor.rowcount == 1

    async def match_queue(
        self,
        entries: Sequence[QueueEntry],
        *,
        channel_id: int,
        language: str | None,
        now: int,
    ) -> QueueMatch:
        """Record a group of waiting players as matched, in seat order, and take their
        entries out of the queue, in one transaction: QueueMoved (nothing written) if any of
        these entries is no longer there as read (the player left, joined again or was
        matched by another process meanwhile), so nobody is ever matched twice."""
        if not entries or len({(e.guild_id, e.game_key) for e in entries}) != 1:
            raise ValueError("a match is one server's players of one game")
        check_language(language)
        first = entries[0]
        players = json.dumps([[e.user_id, e.name] for e in entries], ensure_ascii=False)
        async with self._write() as conn:
            for entry in entries:
                cursor = await conn.execute(
                    q.DELETE_QUEUE_ENTRY,
                    (entry.guild_id, entry.user_id, entry.game_key, entry.joined_at),
                )
                if cursor.rowcount != 1:
                    raise QueueMoved(f"user {entry.user_id} is no longer waiting as read")
            rows = await conn.execute_fetchall(
                q.INSERT_QUEUE_MATCH,
                (first.guild_id, channel_id, first.game_key, players, language, now),
            )
            match_id = int(rows[0]["id"])
        found = await self.queue_match(match_id)
        assert found is not None
        return found

    async def queue_match(self, match_id: int) -> QueueMatch | None:
        """A matched group by its id."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_QUEUE_MATCH, (match_id,))
        return queue_match_from_row(rows[0]) if rows else None

    async def owed_matches(self) -> list[QueueMatch]:
        """The matched groups whose game is not made yet, oldest first."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_OWED_MATCHES, ())
        return [queue_match_from_row(r) for r in rows]

    async def set_match_message(self, match_id: int, message_id: int) -> None:
        """Record the message a matched group's thread starts from (the first one stays)."""
        async with self._write() as conn:
            await conn.execute(q.SET_MATCH_MESSAGE, (message_id, match_id))

    async def set_match_game(self, match_id: int, thread_id: int, game_id: int) -> None:
        """Record the thread and game opened for a matched group."""
        async with self._write() as conn:
            await conn.execute(q.SET_MATCH_GAME, (thread_id, game_id, match_id))

    async def queue_channel(self, guild_id: int) -> int | None:
        """The channel where the server's queue opens its games (None: not set)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_QUEUE_CHANNEL, (guild_id,))
        return optional_int(only(rows, "queue_channel_id"))

    async def set_queue_channel(
        self, guild_id: int, channel_id: int | None, *, by: int, now: int
    ) -> None:
        """Store where the server's queue opens its games (None: where the oldest joined)."""
        check_int64("guild_id", guild_id)
        check_int64("updated_by", by)
        async with self._write() as conn:
            await conn.execute(q.UPSERT_QUEUE_CHANNEL, (guild_id, channel_id, by, now))
