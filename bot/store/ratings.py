"""The ratings part of the repository: ratings, their history and which games are rated."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from . import queries as q
from .base import StoreBase
from .errors import RatingsMoved
from .models import Rating, RatingChange
from .rows import change_from_row, ints, only, parse_time, rating_from_row


class RatingsPart(StoreBase):
    """Ratings (issue 15), per server and game."""

    # -- ratings (issue 15) ----------------------------------------------------------------------

    async def unrated_games(self) -> list[int]:
        """Finished games not rated yet, in the order they ended."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_UNRATED_GAMES, ())
        return ints(rows, "id")

    async def latest_rated_end(self) -> datetime | None:
        """When the latest-ending rated game ended (None before any)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_LATEST_RATED_END, ())
        ended = only(rows, "ended_at")
        return None if ended is None else parse_time(ended)

    async def game_ratings(self, guild_id: int, game_key: str) -> list[Rating]:
        """Every rating of one game on one server."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAME_RATINGS, (guild_id, game_key))
        return [rating_from_row(r) for r in rows]

    async def record_ratings(
        self, game_id: int, guild_id: int, game_key: str, changes: Sequence[RatingChange]
    ) -> bool:
        """Mark a game rated and store its rating changes, at once; False if it was rated.

        RatingsMoved (nothing written) if a player's stored rating is no longer the one the
        changes start from: another process rated a game of theirs meanwhile."""
        async with self._write() as conn:
            cursor = await conn.execute(q.CLAIM_RATED_GAME, (game_id,))
            if cursor.rowcount != 1:
                return False
            for c in changes:
                rows = await conn.execute_fetchall(
                    q.SELECT_PLAYER_RATING, (guild_id, game_key, c.user_id)
                )
                for row in rows:
                    if (float(row["mu"]), float(row["sigma"])) != (c.mu_before, c.sigma_before):
                        raise RatingsMoved(f"game {game_id}: ratings moved; rate it again")
            for c in changes:
                await conn.execute(q.UPSERT_RATING, (guild_id, game_key, c.user_id, c.mu, c.sigma))
                await conn.execute(
                    q.INSERT_RATING_HISTORY,
                    (
                        game_id,
                        c.user_id,
                        guild_id,
                        game_key,
                        c.mu_before,
                        c.sigma_before,
                        c.mu,
                        c.sigma,
                    ),
                )
            return True

    async def rating_history(
        self, guild_id: int, game_key: str, user_id: int
    ) -> list[RatingChange]:
        """A player's rating changes in one game on one server, oldest first."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                q.SELECT_RATING_HISTORY, (guild_id, game_key, user_id)
            )
        return [change_from_row(r) for r in rows]

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """The rating changes one game made."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAMES_HISTORY, (game_id,))
        return [change_from_row(r) for r in rows]

    async def rated_game_keys(self, guild_id: int, user_id: int) -> list[str]:
        """The games a player has a rating in on a server, most played first."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_PLAYER_GAME_KEYS, (guild_id, user_id))
        return [str(r["game_key"]) for r in rows]

    async def rated_guilds(self, user_id: int) -> list[int]:
        """The servers where a player has a rating."""
        async with self._read() as conn:
            return ints(await conn.execute_fetchall(q.SELECT_RATED_GUILDS, (user_id,)), "guild_id")

    async def all_ratings(self) -> list[tuple[int, str, Rating]]:
        """Every rating: (guild, game, rating), in a stable order."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_ALL_RATINGS, ())
        return [(int(r["guild_id"]), str(r["game_key"]), rating_from_row(r)) for r in rows]

    async def clear_ratings(self) -> None:
        """Forget every rating, change and rated mark (before rating every game again)."""
        async with self._write() as conn:
            for sql in (q.DELETE_RATING_HISTORY, q.DELETE_RATED_GAMES, q.DELETE_RATINGS):
                await conn.execute(sql, ())
