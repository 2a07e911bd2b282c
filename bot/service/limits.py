"""A server's limit on how many active games one player holds (issue 39 item 5, ``/server
max-games:``): joining a lobby, opening one or joining the queue past it is refused with the
count, and the queue matches nobody at it; games already under way are never touched."""

from __future__ import annotations

from typing import Protocol

from bot.store import ActiveGame
from bot.store.player_interface import PingStore

from .errors import ServiceError
from .tables import Clock

#: The highest limit a server may set.
MOST_GAMES = 100


class LimitBook(PingStore, Protocol):
    """The store calls the limit makes: the setting, and a player's active games."""

    async def list_active_games(self, user_id: int) -> list[ActiveGame]:
        """A user's active games."""
        ...


class GameLimits:
    """The server's limit on one player's active games, and the check at each join."""

    def __init__(self, store: LimitBook, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def most(self, guild_id: int) -> int | None:
        """The server's limit (None: none)."""
        return await self.store.max_games(guild_id)

    async def set_most(self, guild_id: int, most: int | None, *, by: int) -> None:
        """Set the server's limit (None or 0: none); ``limits.bad`` outside 0 to ``MOST_GAMES``."""
        if most is not None and not 0 <= most <= MOST_GAMES:
            raise ServiceError("limits.bad", most=MOST_GAMES)
        await self.store.set_max_games(guild_id, most or None, by=by, now=int(self.clock()))

    async def check_room(self, guild_id: int | None, user_id: int) -> None:
        """``limits.reached`` (with the count and the limit) when the player already holds as
        many active games in the server as it allows; nothing outside a server."""
        if guild_id is None:
            return
        most = await self.store.max_games(guild_id)
        if most is None:
            return
        held = await held_games(self.store, guild_id, user_id)
        if held >= most:
            raise ServiceError("limits.reached", count=held, most=most)


async def held_games(store: LimitBook, guild_id: int, user_id: int) -> int:
    """How many active games the player holds in the server."""
    return sum(1 for g in await store.list_active_games(user_id) if g.guild_id == guild_id)


async def at_limit(store: LimitBook, guild_id: int, user_ids: set[int]) -> set[int]:
    """The players who hold as many active games in the server as it allows (none without a
    limit): the queue does not match them until one of their games ends."""
    most = await store.max_games(guild_id)
    if most is None:
        return set()
    return {u for u in sorted(user_ids) if await held_games(store, guild_id, u) >= most}
