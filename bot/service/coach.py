"""The coach (issue 23): the strong player's hints for a step and, at the end, a player's
turning points. Off by default, chosen in the lobby, never in league games; every search runs
in the think pool, never on the event loop. A step's hint is thought out once and kept: every
click on that step gets the same answer without a search of its own (D81, D151). A hint's Play
button shows its action in the panel, played by the panel's own button (D211)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games import presentation
from bot.store import Game, GameStatus, ReportStore
from bot.workers.think_pool import ThinkPool

from .errors import ServiceError
from .panel import by_checksum
from .results import COMPUTER_USER_ID
from .tables import GameDesk, panel_choices
from .thinking import DECISION_SECONDS, TurningPoint, hint, turning_points

#: Seconds the turning points may search in all (12 decisions, a smaller budget each).
TURNING_POINTS_SECONDS = 8.0
#: The steps whose hint is kept, the latest asked (their choices only: a few dozen bytes each).
HINTS_KEPT = 512

#: A hint's choices: (action, chance to win 0..1), the best first.
Choices = tuple[tuple[str, float], ...]
#: A step of a game: (game id, version).
Step = tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class Hint:
    """The strong player's best choices for the player's step: (action, chance to win 0..1)."""

    game: str  # the registry key, whose words the actions are put in
    view: Mapping[str, Any]  # the player's view (the panel's labels read it)
    choices: tuple[tuple[str, float], ...]


@dataclass(frozen=True, kw_only=True)
class Hinted:
    """The action a hint's Play button stands for, still one of the player's choices."""

    game: str  # the registry key
    action: str
    group: str  # its group in the turn panel (``bot.service.panel.END_GROUP``: the End button)


@dataclass(frozen=True, kw_only=True)
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
        # each step's hint, thought out (or being thought out) once; the oldest asked go first
        self._hints: OrderedDict[Step, asyncio.Task[Choices]] = OrderedDict()

    async def coached(self, game: Game) -> bool:
        """Whether the game has a coach (chosen in the lobby; never a league game): its final
        message offers turning points."""
        return game.coach and await self.desk.league_of(game.id) is None

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
        choices = await self._choices((game.id, game.version), game.game_key, view, seed)
        return Hint(game=game.game_key, view=view, choices=choices)

    async def hinted(self, user_id: int, game_id: int, version: int, crc: str) -> Hinted:
        """The action of a hint's Play button (its checksum ``crc``) and its panel group, if
        it is still a choice of the clicker's step: refused out of turn, and
        ``coach.hint_stale`` once the game has moved on from the hint's step."""
        game, match = await self.desk.load(game_id=game_id)
        self.desk.acting_seat(game, match, user_id)
        action = by_checksum(panel_choices(match), crc) if game.version == version else None
        if action is None:
            raise ServiceError("coach.hint_stale")
        group = presentation(game.game_key).panel_group(action)
        return Hinted(game=game.game_key, action=action, group=group)

    async def _choices(
        self, step: Step, game_key: str, view: Mapping[str, Any], seed: int
    ) -> Choices:
        """The step's choices: searched once in the think pool, by the first click; the clicks
        meanwhile wait for that search, the later ones get its answer (a failed search is not
        kept: the next click searches again)."""
        found = self._hints.get(step)
        if found is None:
            found = asyncio.create_task(self._search(game_key, dict(view), seed))
            found.add_done_callback(lambda done: self._forget_failed(step, done))
            self._hints[step] = found
            while len(self._hints) > HINTS_KEPT:
                self._hints.popitem(last=False)
        else:
            self._hints.move_to_end(step)
        return await asyncio.shield(found)  # a click given up does not stop the others' search

    async def _search(self, game_key: str, view: dict[str, Any], seed: int) -> Choices:
        """The strong player's three best choices for the view, from the think pool."""
        return tuple(await self.pool.think(hint, game_key, view, seed, DECISION_SECONDS))

    def _forget_failed(self, step: Step, done: asyncio.Task[Choices]) -> None:
        """A search that failed (or was cancelled) is not kept; its failure is read here, so
        it is never logged as unretrieved when no click waits for it any more."""
        failed = done.cancelled() or done.exception() is not None
        if failed and self._hints.get(step) is done:
            del self._hints[step]

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
        return TurningPoints(game=game.game_key, looked_at=looked_at, points=tuple(points))
