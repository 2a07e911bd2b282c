"""The counts part of the repository: stored games per game and status (the metrics' gauge)."""

from __future__ import annotations

from . import queries as q
from .base import StoreBase
from .models import Shards

#: ``{shards}``: the games of some shards only (``queries.of_shards``).
COUNT_GAMES = """
SELECT game_key, status, COUNT(*) AS games FROM games WHERE 1 = 1 {shards}
GROUP BY game_key, status
"""


class CountsPart(StoreBase):
    """How many games there are, by game and status."""

    async def game_counts(self, shards: Shards | None = None) -> dict[tuple[str, str], int]:
        """Stored games per (game key, status: active, finished, abandoned), only those of the
        guilds of ``shards`` if given; a pair without games is absent."""
        sql, params = q.of_shards(COUNT_GAMES, "guild_id", shards)
        rows = await self._db.fetch(sql, params)
        return {(str(r["game_key"]), str(r["status"])): int(r["games"]) for r in rows}
