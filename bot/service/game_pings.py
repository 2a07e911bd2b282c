"""Per-game quiet (issue 39 item 5): how a player is pinged in one game. ``turn`` (the default):
pinged by the turn message that calls them; ``every``: also pinged by every other turn message
of the game; ``reminders``: never by turn messages, only by the deadline's reminders. Their
``/settings`` (ping, direct message, quiet hours) still apply on top."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store import Game, GameNotFound, GameStatus
from bot.store.player_interface import PingStore

from .errors import ServiceError
from .results import COMPUTER_USER_ID
from .tables import Clock

#: The per-game ping modes, the default first.
PING_MODES = ("turn", "every", "reminders")
DEFAULT_MODE = PING_MODES[0]


class PingBook(PingStore, Protocol):
    """The store calls per-game pings make."""

    async def latest_game_head_by_thread(self, thread_id: int) -> Game:
        """The thread's latest game without its snapshot, any status (GameNotFound)."""
        ...


@dataclass(frozen=True, kw_only=True)
class GamePing:
    """A player's ping mode in a game, as just set."""

    game_key: str
    mode: str


class GamePings:
    """Choosing and reading how each player is pinged in each game."""

    def __init__(self, store: PingBook, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def choose(self, user_id: int, thread_id: int, mode: str) -> GamePing:
        """Set how the player is pinged in the thread's active game (``pings.no_game``,
        ``pings.not_player``, ``pings.bad_mode``)."""
        if mode not in PING_MODES:
            raise ServiceError("pings.bad_mode")
        try:
            game = await self.store.latest_game_head_by_thread(thread_id)
        except GameNotFound:
            raise ServiceError("pings.no_game") from None
        if game.status != GameStatus.ACTIVE:
            raise ServiceError("pings.no_game")
        if user_id == COMPUTER_USER_ID or not game.seats_of(user_id):
            raise ServiceError("pings.not_player")
        stored = None if mode == DEFAULT_MODE else mode
        await self.store.set_game_ping(game.id, user_id, stored, now=int(self.clock()))
        return GamePing(game_key=game.game_key, mode=mode)

    async def of_game(self, game_id: int) -> dict[int, str]:
        """Each player of the game who chose another mode than the default, and their mode."""
        return await self.store.game_pings(game_id)

    async def of_user(self, user_id: int) -> dict[int, str]:
        """The player's games with another mode than the default (``/settings export``)."""
        return await self.store.user_game_pings(user_id)

    async def forget_user(self, user_id: int) -> int:
        """Forget the player's choices (``/settings delete``); how many."""
        return await self.store.delete_user_game_pings(user_id)
