"""The coach (issue 23): the strong player's hints for a step and, at the end, a player's
turning points. Off by default, chosen in the lobby, never in league games; every search runs
in the think pool, never on the event loop."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.store import Game, GameStatus, ReportStore
from bot.think_pool import ThinkPool

from .errors import ServiceError
from .results import COMPUTER_USER_ID
from .tables import GameDesk
from .thinking import DECISION_SECONDS, TurningPoint, hint, turning_points

#: Seconds the turning points may search in all (12 decisions, a smaller budget each).
TURNING_POINTS_SECONDS = 8.0


@dataclass(frozen=True)
class Hint:
    """The strong player's best choices for the player's step: (action, chance to win 0..1)."""

    game: str  # the registry key, whose words the actions are put in
    view: Mapping[str, Any]  # the player's view (the panel's labels read it)
    choices: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class TurningPoints:
    """A player's turning points at the end of a coached game, worst first."""

    game: str
    looked_at: int  # how many of the player's last decisions were searched
    points: tuple[TurningPoint, ...]


class CoachService:
    """Hints and turning points for coached games, thought out in the think pool."""

    def __init__(self, desk: GameDesk, store: ReportStore, pool: ThinkPool) -> None:
        self.desk = desk
        self.store = store
        self.pool = pool

    async def coached(self, game: Game) -> bool:
        """Whether the game has a coach (chosen in the lobby; never a league game)."""
        return game.coach and await self.desk.league_of(game.id) is None

    async def has_coach(self, game_id: int) -> bool:
        """Whether the game (active or over) has a coach: its final message offers turning
        points."""
        game, _ = await self.desk.load(game_id=game_id, ended=True)
        return await self.coached(game)

    async def hint(self, user_id: int, game_id: int, version: int) -> Hint:
        """The strong player's three best choices for the step the player is to play."""
        game, match = await self.desk.load(game_id=game_id)
        if not await self.coached(game):
            raise ServiceError("coach.off")
        seat = self.desk.acting_seat(game, match, user_id)
        if game.version != version:
            raise ServiceError("error.stale_board")
        view = match.view(seat)
        seed = game.seed + len(match.log)
        choices = await self.pool.think(hint, game.game_key, view, seed, DECISION_SECONDS)
        return Hint(game.game_key, view, tuple(choices))

    async def turning_points(self, user_id: int, game_id: int) -> TurningPoints:
        """The player's three turning points, once the coached game is over."""
        game, _ = await self.desk.load(game_id=game_id, ended=True)
        if not await self.coached(game):
            raise ServiceError("coach.off")
        seats = game.seats_of(user_id)
        if not seats or user_id == COMPUTER_USER_ID:
            raise ServiceError("coach.not_a_player")
        if game.status == GameStatus.ACTIVE:
            raise ServiceError("coach.not_over")
        skipped = frozenset(await self.store.computer_played(game.id))
        looked_at, points = await self.pool.think(
            turning_points, game.snapshot, seats[0], skipped, game.seed, TURNING_POINTS_SECONDS
        )
        return TurningPoints(game.game_key, looked_at, tuple(points))
