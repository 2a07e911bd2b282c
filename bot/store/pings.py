"""The pings part of the repository: how a player is pinged in one game, and a server's limit
on how many active games one player holds."""

from __future__ import annotations

from . import queries as q
from .base import StoreBase
from .errors import InvalidRequest
from .models import check_int64
from .rows import only, optional_int

#: The per-game ping modes stored (the default, pinged on one's own turn, is no row).
GAME_PING_MODES = ("every", "reminders")


class PingsPart(StoreBase):
    """Per-game pings (issue 39 item 5) and the server's limit on games."""

    async def game_pings(self, game_id: int) -> dict[int, str]:
        """The players of a game who chose another ping than the default, and their mode."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAME_PINGS, (game_id,))
        return {int(r["user_id"]): str(r["mode"]) for r in rows}

    async def user_game_pings(self, user_id: int) -> dict[int, str]:
        """A player's games with another ping than the default, and their mode."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_USER_GAME_PINGS, (user_id,))
        return {int(r["game_id"]): str(r["mode"]) for r in rows}

    async def set_game_ping(
        self, game_id: int, user_id: int, mode: str | None, *, now: int
    ) -> None:
        """How the player is pinged in the game (None: the default, on their turn)."""
        check_int64("user_id", user_id)
        if mode is not None and mode not in GAME_PING_MODES:
            raise InvalidRequest(f"ping mode {mode!r} is not one of {GAME_PING_MODES}")
        async with self._write() as conn:
            if mode is None:
                await conn.execute(q.DELETE_GAME_PING, (game_id, user_id))
            else:
                await conn.execute(q.UPSERT_GAME_PING, (game_id, user_id, mode, now))

    async def delete_user_game_pings(self, user_id: int) -> int:
        """Forget every per-game ping choice of a player (``/settings delete``); how many."""
        async with self._write() as conn:
            cursor = await conn.execute(q.DELETE_USER_GAME_PINGS, (user_id,))
            return cursor.rowcount

    async def max_games(self, guild_id: int) -> int | None:
        """How many active games one player may hold in the server (None: no limit)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_MAX_GAMES, (guild_id,))
        return optional_int(only(rows, "max_games"))

    async def set_max_games(self, guild_id: int, most: int | None, *, by: int, now: int) -> None:
        """Set (None: remove) the server's limit on one player's active games."""
        check_int64("guild_id", guild_id)
        check_int64("updated_by", by)
        if most is not None and most < 1:
            raise InvalidRequest(f"a limit of {most} games leaves no game to play")
        async with self._write() as conn:
            await conn.execute(q.UPSERT_MAX_GAMES, (guild_id, most, by, now))
