"""What every game service shares: loading a game and its match, the checks, the helpers.

``GameDesk`` holds the store and the clock; the module's functions read a stored game and its
match into the plain results of ``results``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from bot.games import presentation
from bot.names import display_name
from bot.store import (
    BankTurn,
    Game,
    GameNotFound,
    GameStatus,
    SeatStore,
    StoredOutcome,
    StoredSeatResult,
    resigned_last,
)
from bot.store.games import saved_game
from engine import games
from engine.contract import Outcome
from engine.errors import CorruptGame
from engine.games import Match

from . import panel as panels
from .errors import ServiceError, store_refusals
from .history import turn_start
from .results import (
    COMPUTER_USER_ID,
    Ended,
    FinalResult,
    FinalScore,
    PlayerInfo,
    TurnId,
    TurnKey,
    TurnRecord,
)
from .rights import LeagueRights
from .suggest import Known, KnownMatches
from .thinking import BATCH_TURNS as BATCH_TURNS  # computer turns saved and posted together

log = logging.getLogger(__name__)

RESIGNED = "resigned:"  # end reason prefix, followed by the seat
ABANDONED_BY = "abandoned_by:"  # end reason prefix, followed by the user who abandoned the game
CANCELLED = "cancelled"  # end reason of a game whose lobby was cancelled before any move

SeedSource = Callable[[], int]
Clock = Callable[[], float]  # UTC unix seconds (``time.time``); tests inject their own


def split_actions(text: str) -> list[str]:
    """The non-empty ``;``-separated parts of an action text."""
    return [p.strip() for p in text.split(";") if p.strip()]


def normalize_actions(text: str) -> str:
    """An action text without empty parts: ``"; fleet 4 ;;"`` -> ``"fleet 4"``."""
    return "; ".join(split_actions(text))


def match_of(game: Game) -> Match:
    """The stored game's match; a snapshot the engine cannot read is reported as damaged."""
    try:
        return games.from_json(game.snapshot)
    except CorruptGame as error:
        log.error("game %d: stored snapshot is damaged: %s", game.id, error)
        raise ServiceError("error.damaged_game", game_id=game.id) from None


def shown_banks(
    game: Game, turns: Sequence[BankTurn], now: int | None = None
) -> dict[int, int] | None:
    """Each human seat's time bank as the pictures show it (None: the game has none): as its
    latest turn ended; the turn still open as it began (the increment in: that turn's
    deadline) or, given ``now``, as it ends then (the turn just played, whose clock stops once
    its message is shown); before its first turn the whole bank. It does not tick with the
    clock, so a picture stays the same until a turn ends (D106)."""
    if game.time_bank is None:
        return None
    shown: dict[int, int] = {}
    for s in game.seats:
        if s.user_id == COMPUTER_USER_ID:
            continue
        mine = [t for t in turns if t.seat == s.seat]
        if not mine:
            shown[s.seat] = game.time_bank
            continue
        last = mine[-1]
        end = last.ended_at if last.ended_at is not None else now
        shown[s.seat] = last.left(last.started_at if end is None else end)
    return shown


def players_of(
    game: Game, match: Match, stand_ins: Mapping[int, str] | None = None
) -> tuple[PlayerInfo, ...]:
    """Every seat's player; ``stand_ins``: seat -> why the computer plays for its player."""
    colours = match.colours
    found = stand_ins or {}
    result = []
    for seat in game.seats:
        user = None if seat.user_id == COMPUTER_USER_ID else seat.user_id
        stand_in = found.get(seat.seat, seat.stand_in) if user is not None else None
        result.append(
            PlayerInfo(
                seat=seat.seat,
                name=seat.player,
                user_id=user,
                colour=colours[seat.seat],
                stand_in=stand_in,
            )
        )
    return tuple(result)


def turn_key(match: Match) -> TurnKey | None:
    """Where the game stands: (round, seat to act); None once the game is over."""
    info = match.turn_info
    return None if info.seat is None else (info.round, info.seat)


def turn_of(match: Match, start: int | None = None) -> TurnId | None:
    """The turn being played, None once the game is over; ``start`` if known, else the match's,
    else by replay (a few milliseconds: call it off the event loop, see ``current_turn``)."""
    info = match.turn_info
    if info.seat is None:
        return None
    return TurnId(
        round=info.round, seat=info.seat, start=turn_start(match) if start is None else start
    )


async def current_turn(match: Match) -> TurnId | None:
    """The turn being played; replayed in a thread if the match does not know its start."""
    if match.turn_start is not None or match.current_seat is None:
        return turn_of(match)
    return await asyncio.to_thread(turn_of, match)


class _SpectatorView(Mapping[str, Any]):
    """A match's spectator view, made only if read: most steps' names never look at it."""

    def __init__(self, match: Match) -> None:
        self._match = match
        self._view: dict[str, Any] | None = None

    def _made(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._match.view(None)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._made()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


def step_of(match: Match) -> str | None:
    """The catalog key of the step to play (``<game>.step.<step>``), None once over."""
    step = match.turn_info.step
    return presentation(match.game_key).step_key(_SpectatorView(match), step) if step else None


def final_result(players: Sequence[PlayerInfo], outcome: Outcome) -> FinalResult:
    """The final scores, ranked (resigned players last)."""
    by_seat = {p.seat: p for p in players}
    resigned = {p.seat for p in players if p.stand_in == "resigned"}
    ranks = resigned_last({r.seat: r.rank for r in outcome.results}, resigned)
    lines = []
    for result in outcome.results:
        player = by_seat[result.seat]
        lines.append(
            FinalScore(
                seat=player.seat,
                name=player.name,
                user_id=player.user_id,
                total=result.score,
                rank=ranks[result.seat],
                lines={line.label: line.points for line in result.lines},
                resigned=result.seat in resigned,
            )
        )
    lines.sort(key=lambda s: s.rank)
    return FinalResult(scores=tuple(lines), tie_broken=outcome.tie_broken)


def panel_choices(match: Match) -> list[str]:
    """The panel's choices: the legal actions with the game's shortcuts, each fitting an option."""
    shown = presentation(match.game_key)
    legal = shown.panel_actions(match.legal_after, match.legal_actions())
    return [a for a in legal if len(a) <= panels.MAX_VALUE]


def mark_computer_played(records: list[TurnRecord], seqs: set[int]) -> list[TurnRecord]:
    """The turns with ``by_computer`` set where a computer played for the player (a skip)."""
    if not seqs:
        return records
    marked, last = [], 0
    for record in records:
        first, last = last + 1, last + len(record.actions)
        played = any(first <= seq <= last for seq in seqs)
        marked.append(replace(record, by_computer=True) if played else record)
    return marked


def ended_of(game: Game, match: Match) -> Ended:
    """The end message of an abandoned game, from its stored reason, in the game's language."""
    return replace(
        end_reason(game, match),
        language=game.language,
        channel_id=game.channel_id,
        game=game.game_key,
    )


def end_reason(game: Game, match: Match) -> Ended:
    """The end message of an abandoned game, from its stored reason."""
    reason = game.end_reason or ""
    ended = partial(Ended, game_id=game.id, thread_id=game.thread_id, version=game.version)
    if reason.startswith(RESIGNED):
        players = players_of(game, match)
        player = players[int(reason.removeprefix(RESIGNED))]
        winner = next((players[s.seat] for s in game.seats if s.winner), None)
        if game.status == GameStatus.FINISHED and winner is not None:
            return ended(reason="resigned_won", player=player, winner=winner)
        return ended(reason="resigned", player=player)
    if reason.startswith(ABANDONED_BY):
        return ended(reason="abandoned_by", by=int(reason.removeprefix(ABANDONED_BY)))
    return ended(reason="cancelled" if reason == CANCELLED else "abandoned")


def game_over(game: Game, match: Match) -> ServiceError:
    """The refusal of a change to a game that is over, with its result (who won, or why not)."""
    if match.outcome is not None:
        final = final_result(players_of(game, match), match.outcome)
        best = final.winner.rank
        winners = [s.name for s in final.scores if s.rank == best]
        scores = ", ".join(f"{display_name(s.name)} {s.total}" for s in final.scores)
        return ServiceError(
            "error.game_over_won", player=", ".join(winners), count=len(winners), scores=scores
        )
    reason = game.end_reason or ""
    if reason.startswith(RESIGNED):
        player = players_of(game, match)[int(reason.removeprefix(RESIGNED))].name
        return ServiceError("error.game_over_resigned", player=player)
    if reason == CANCELLED:
        return ServiceError("error.game_over_cancelled")
    return ServiceError("error.game_over")


def resigned_seats(game: Game) -> set[int]:
    """Seats whose players resigned."""
    return {s.seat for s in game.seats if s.stand_in == "resigned"}


def resign_outcome(game: Game, winner: int, resigned: set[int], reason: str) -> StoredOutcome:
    """The result when a resignation left one seat (``winner``, human or computer): it first,
    the resigned seats last. The game was not played out, so no seat has a score (0)."""
    ranks = resigned_last({s.seat: 1 if s.seat == winner else 2 for s in game.seats}, resigned)
    results = tuple(
        StoredSeatResult(s.seat, 0, ranks[s.seat], s.seat == winner) for s in game.seats
    )
    return StoredOutcome(reason, results)


class GameDesk:
    """A game loaded and checked for the services: the store, the clock, the league rights."""

    def __init__(
        self, repo: SeatStore, clock: Clock = time.time, rights: LeagueRights | None = None
    ) -> None:
        self.repo = repo
        self.clock = clock
        self.known = KnownMatches()  # matches for autocomplete, by (game id, version)
        self.rights = rights  # a game's league and its organisers (None: no leagues)

    def now(self) -> int:
        """The current time in UTC unix seconds, from the injected clock."""
        return int(self.clock())

    async def load(
        self, *, thread_id: int | None = None, game_id: int | None = None, ended: bool = False
    ) -> tuple[Game, Match]:
        """The game and its match; only an active one unless ``ended`` (reading, not changing)."""
        try:
            if game_id is not None:
                game = await self.repo.load_game(game_id)
            elif thread_id is not None:
                # the latest game, active or not: a finished game's thread says it is over
                game = await self.repo.load_latest_game_by_thread(thread_id)
            else:
                raise ServiceError("error.no_game")
        except GameNotFound:
            raise ServiceError("error.no_game") from None
        match = match_of(game)
        if game.status != GameStatus.ACTIVE and not ended:
            raise game_over(game, match)
        return game, match

    async def load_known(self, thread_id: int) -> tuple[Game, Known]:
        """The thread's active game and its match as ``load`` gives them, the match kept in
        ``known``: when its version is kept, one statement reads the game without its snapshot
        (the seats and stand-ins as they are now). For reading only: never play on it."""
        try:
            head = await self.repo.latest_game_head_by_thread(thread_id)
        except GameNotFound:
            raise ServiceError("error.no_game") from None
        known = self.known.get(head.id, head.version)
        if known is None:
            game, match = await self.load(thread_id=thread_id, ended=True)
            known = self.known.keep(game.id, game.version, match)
        else:
            game = head
        if game.status != GameStatus.ACTIVE:
            raise game_over(game, known.match)
        return game, known

    async def load_checked(
        self, thread_id: int | None, game_id: int | None, version: int | None
    ) -> tuple[Game, Match]:
        game, match = await self.load(thread_id=thread_id, game_id=game_id)
        if version is not None and game.version != version:
            raise ServiceError("error.stale_board")
        return game, match

    @staticmethod
    def acting_seat(game: Game, match: Match, user_id: int) -> int:
        """The seat the user acts for now; refuses spectators and players out of turn."""
        seats = game.seats_of(user_id)
        if not seats or user_id == COMPUTER_USER_ID:
            raise ServiceError("error.not_seated")
        current = match.current_seat
        if current is None:
            raise ServiceError("error.game_over")
        if current not in seats:
            raise ServiceError("error.not_your_turn", player=match.players[current])
        stand_in = game.stand_in_of(current)
        if stand_in is not None:  # the computer plays this seat: /back first (or resigned)
            raise ServiceError(f"stand_in.refused.{stand_in}")
        return current

    async def stand_ins(self, game: Game) -> dict[int, str]:
        """Human seats the computer plays now: seat -> "away", "resigned" or "vacation"."""
        found = {
            s.seat: s.stand_in
            for s in game.seats
            if s.stand_in is not None and s.user_id != COMPUTER_USER_ID
        }
        if game.status != GameStatus.ACTIVE:
            return found
        resting = await self.vacationers(game)
        for seat in game.seats:
            if seat.user_id in resting and seat.seat not in found:
                found[seat.seat] = "vacation"
        return found

    async def vacationers(self, game: Game) -> set[int]:
        """The game's users on vacation now: as read with the game when it was (no query)."""
        now = self.now()
        if game.vacations is None:
            return await self.repo.vacationers(game.id, now=now)
        return {user for user, until in game.vacations if until > now}

    @staticmethod
    def computer_acts(game: Game, seat: int | None, stand_ins: Mapping[int, str]) -> bool:
        """Whether the computer plays ``seat`` now (a computer seat or an absent player's)."""
        return seat is not None and (game.user_of(seat) == COMPUTER_USER_ID or seat in stand_ins)

    async def save(
        self,
        game: Game,
        match: Match,
        *,
        silent: bool,
        by_computer: bool = False,
        stale: str = "error.already_played",
    ) -> Game:
        """Save a match played on from ``game``: the game as stored (``saved_game``), kept with
        its match in ``known`` (nothing plays on it any more), so what follows the save (its
        thread message) does not read it again. ``by_computer``: the computer played for a
        human seat; ``stale``: the refusal's key when the game moved on meanwhile."""
        with store_refusals(stale=stale):
            version = await self.repo.append_match(
                game, match, silent=silent, by_computer=by_computer
            )
        saved = saved_game(game, match, version)
        self.known.keep(game.id, version, match, saved)
        return saved

    async def league_of(self, game_id: int) -> str | None:
        """The name of the league the game was played for, if any."""
        if self.rights is None:
            return None
        return await self.rights.league_name(game_id)
