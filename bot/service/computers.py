"""The computer players: the turns of computer seats and of absent players."""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Mapping

from bot.store import Game, SeatStore, Shards
from bot.workers.think_pool import ThinkPool
from engine.games import Match

from .errors import ServiceError
from .reports import TurnReports
from .results import (
    COMPUTER_USER_ID,
    TurnReport,
)
from .tables import GameDesk
from .thinking import BATCH_TURNS, apply_moves, computer_moves

log = logging.getLogger(__name__)


#: The level of a stand-in (an away, vacationing, resigned or withdrawn player's seat), whatever
#: the lobby chose for the computer seats: a league game is not decided by a weak stand-in.
STAND_IN_LEVEL = "strong"


def seat_levels(game: Game, stand_ins: Mapping[int, str], for_human: bool) -> dict[int, str]:
    """The seats the computer plays in this batch, each with its level: the absent players'
    seats (strong) or the computer seats (the game's level)."""
    if for_human:
        return dict.fromkeys(stand_ins, STAND_IN_LEVEL)
    return {s.seat: game.computer_level for s in game.seats if s.user_id == COMPUTER_USER_ID}


class ComputerService:
    """Plays the turns the computer owes, in batches, one report per batch; the decisions are
    made in the think pool, never on the event loop."""

    def __init__(
        self, desk: GameDesk, store: SeatStore, reports: TurnReports, pool: ThinkPool
    ) -> None:
        self.desk = desk
        self.store = store
        self.reports = reports
        self.pool = pool

    async def computer_turns(
        self, game_id: int, seed: int | None = None
    ) -> AsyncGenerator[TurnReport, None]:
        """Play the computer seats' turns until a human is due; one save and report per batch.

        The computer turns between two human turns are saved together (at most ``BATCH_TURNS``
        at once), so a process killed between two of them plays them again and they are posted
        as one message, exactly once.
        """
        while True:
            try:
                game, match = await self.desk.load(game_id=game_id)
            except ServiceError:
                return
            seat = match.current_seat
            stand_ins = await self.desk.stand_ins(game)
            if seat is None or not self.desk.computer_acts(game, seat, stand_ins):
                return
            # One batch is all computer seats or all absent humans' seats, so by_computer (a
            # computer played for a human) holds for every action saved with it.
            for_human = game.user_of(seat) != COMPUTER_USER_ID  # away, vacation or resigned
            try:
                report = await self._play_batch(
                    game,
                    match,
                    seat_levels(game, stand_ins, for_human),
                    by_computer=for_human,
                    since=len(match.log),
                    seed=seed,
                )
            except ServiceError:
                return  # somebody else moved this game on; they continue from there
            if report is not None:
                yield report

    async def stand_in_turn(self, game: Game, match: Match, seat: int) -> TurnReport | None:
        """One turn of an absent player's ``seat``, played now as any stand-in plays it
        (``STAND_IN_LEVEL``, D80) and saved as the computer's for them (a skip at the
        deadline): its report. ServiceError ``deadline.turn_over`` if the game moved on."""
        return await self._play_batch(
            game,
            match,
            {seat: STAND_IN_LEVEL},
            by_computer=True,
            since=None,
            turns=1,
            stale="deadline.turn_over",
        )

    async def _play_batch(
        self,
        game: Game,
        match: Match,
        levels: Mapping[int, str],
        *,
        by_computer: bool,
        since: int | None,
        seed: int | None = None,
        turns: int = BATCH_TURNS,
        stale: str = "error.already_played",
    ) -> TurnReport | None:
        """The computer plays ``levels``' seats (at most ``turns`` turns, decided in the think
        pool) on ``match``, loaded from ``game``; saved (kept with the desk: its message is
        prepared from it) and reported (``since``: where the batch began, None if the report
        looks back for itself). ServiceError (``stale``) if the game moved on meanwhile."""
        moves = await self.pool.think(
            computer_moves, game.snapshot, levels, game.seed if seed is None else seed, turns
        )
        apply_moves(match, moves)  # checked again here: the saved log is always legal
        saved = await self.desk.save(
            game, match, silent=False, by_computer=by_computer, stale=stale
        )
        return await self.reports.turn_report(game, match, saved.version, since=since)

    async def pending_computer_games(self, shards: Shards | None = None) -> list[int]:
        """Active games waiting for the computer (its seat, or an away, resigned or vacationing
        player's), e.g. after a restart or when a vacation began; only ``shards``' guilds."""
        return await self.store.computer_due_games(now=self.desk.now(), shards=shards)
