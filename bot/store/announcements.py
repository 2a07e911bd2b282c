"""The outbox part of the repository: which versions' thread messages are posted."""

from __future__ import annotations

from dataclasses import dataclass

from . import queries as q
from .base import StoreBase
from .errors import GameNotFound
from .models import OwedPicture, Shards
from .rows import ints


@dataclass(frozen=True, slots=True)
class GameVersions:
    """A game's version and the newest version whose thread message was posted."""

    version: int
    announced: int

    @property
    def owed(self) -> bool:
        """Whether the thread is still owed a message (for the latest version)."""
        return self.announced < self.version


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

    async def game_versions(self, game_id: int) -> GameVersions:
        """The game's version and announced version, in one statement without the game
        (GameNotFound if none)."""
        rows = await self._db.fetch(q.SELECT_GAME_VERSIONS, (game_id,))
        if not rows:
            raise GameNotFound(f"no game {game_id}", game_id=game_id)
        return GameVersions(int(rows[0]["version"]), int(rows[0]["announced_version"]))

    async def mark_announced(
        self, game_id: int, version: int, *, picture_message: int | None = None
    ) -> bool:
        """Record that ``version``'s message was posted (``picture_message``: its id, when it
        still owes its picture); False if that changed nothing."""
        params: tuple[int, ...]
        if picture_message is None:
            sql, params = q.MARK_ANNOUNCED, (version, game_id, version, version)
        else:
            sql = q.MARK_ANNOUNCED_OWING_PICTURE
            params = (version, picture_message, version, game_id, version, version)
        async with self._write() as conn:
            cursor = await conn.execute(sql, params)
            return cursor.rowcount == 1

    # -- pictures that follow their turn message --------------------------------------------------

    async def owed_pictures(self, shards: Shards | None = None) -> list[OwedPicture]:
        """Turn messages posted without their picture, in the guilds of ``shards`` if given."""
        sql, params = q.of_shards(q.SELECT_OWED_PICTURES, "guild_id", shards)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return [
            OwedPicture(int(r["id"]), int(r["picture_message_id"]), int(r["picture_version"]))
            for r in rows
        ]

    async def clear_owed_picture(self, game_id: int, version: int) -> bool:
        """Record that the picture owed by ``version``'s message is attached (or superseded);
        False if none was owed for that version."""
        async with self._write() as conn:
            cursor = await conn.execute(q.CLEAR_OWED_PICTURE, (game_id, version))
            return cursor.rowcount == 1
