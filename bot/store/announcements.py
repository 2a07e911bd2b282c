"""The outbox part of the repository: which versions' thread messages are posted."""

from __future__ import annotations

from . import queries as q
from .base import StoreBase
from .models import Shards
from .rows import ints


class AnnouncementsPart(StoreBase):
    """The announced version of each game: what is still owed to its thread."""

    # -- the outbox of thread messages ------------------------------------------------------------

    async def unannounced_games(self, shards: Shards | None = None) -> list[int]:
        """Ids of games (not abandoned) whose latest version still has a message to post
        (only those of the guilds of ``shards``, if given)."""
        sql, params = q.of_shards(q.SELECT_UNANNOUNCED, "guild_id", shards)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return ints(rows, "id")

    async def unannounced_abandoned_games(self, shards: Shards | None = None) -> list[int]:
        """Ids of abandoned games whose thread has not been told yet that the game ended
        (only those of the guilds of ``shards``, if given)."""
        sql, params = q.of_shards(q.SELECT_UNANNOUNCED_ABANDONED, "guild_id", shards)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return ints(rows, "id")

    async def mark_announced(self, game_id: int, version: int) -> bool:
        """Record that ``version``'s message was posted; False if that changed nothing."""
        async with self._write() as conn:
            cursor = await conn.execute(q.MARK_ANNOUNCED, (version, game_id, version, version))
            return cursor.rowcount == 1
