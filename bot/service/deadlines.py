"""Deadlines and absent players: reminders, votes at a deadline, /back."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.store import (
    AwaySeat,
    BankTurn,
    DeadlineStore,
    Game,
    GameStatus,
    Reminder,
    Shards,
)
from engine.games import Match

from .computers import ComputerService
from .errors import ServiceError
from .notify import Delivery
from .reports import TurnReports
from .results import (
    COMPUTER_USER_ID,
    Back,
    PlayerInfo,
    SkipVote,
    TurnId,
)
from .settings import SettingsService
from .tables import (
    GameDesk,
    current_turn,
    players_of,
)

log = logging.getLogger(__name__)


def reminder_plan(start: int, deadline: int) -> list[tuple[str, int]]:
    """The (kind, due_at) reminders of a turn begun at ``start`` with ``deadline`` seconds.

    At most two reminders per turn: at half the time, and near the end (a twelfth of it before);
    then the deadline itself, when the other players may vote to skip the turn.
    """
    return [
        ("half", start + deadline // 2),
        ("near", start + deadline - deadline // 12),
        ("deadline", start + deadline),
    ]


def bank_available(left: int, bank: int, increment: int) -> int:
    """The seconds a turn has under a time bank: what the seat's bank holds (``left``) plus the
    increment, never more than the bank the game began with (D103)."""
    return min(bank, left + increment)


def bank_of_seat(turns: Sequence[BankTurn], seat: int, bank: int, now: int) -> int:
    """A seat's bank now: what its latest turn left (ticking while it is played), else the whole
    bank (before its first turn)."""
    mine = [t for t in turns if t.seat == seat]
    return mine[-1].left(now) if mine else bank


@dataclass(frozen=True, slots=True)
class TurnBegin:
    """A turn whose message begins it: its game, stored key, seat and player, when it begins
    and its seconds (the fixed deadline, or what the seat's time bank gives it)."""

    game_id: int
    key: str
    seat: int
    user: int
    start: int
    seconds: int
    banked: bool

    @property
    def deadline(self) -> int:
        """When the turn's time runs out (unix seconds)."""
        return self.start + self.seconds


@dataclass(frozen=True, slots=True)
class Stated:
    """What a turn's message states (its ``deadline``, None without one) and, when the post
    begins the turn, what it begins (``begins``: stored once the message is posted)."""

    deadline: int | None
    begins: TurnBegin | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DueReminder:
    """One message for one player's due reminders in one game, as the service decided it.

    ``thread_id`` None: nothing is sent (the turn was played, the player is absent, the game is
    over or gone) and the rows were dropped. ``handed``: at a deadline with the take-over option,
    the seat the computer took (stored before any text was made). ``vote_turn``: the deadline
    message offers the other players the votes on this turn. ``retried``: claimed before, so
    the message may be in the thread already. ``more_turn``: a reminder before the deadline of
    a game without a time bank, whose player has not asked for more time on this turn yet.
    """

    ids: tuple[int, ...]
    game_id: int
    user_id: int
    kind: str
    deadline_at: int
    thread_id: int | None
    language: str | None = None
    handed: PlayerInfo | None = None
    delivery: Delivery | None = None
    vote_turn: str | None = None
    more_turn: str | None = None
    retried: bool = False


class DeadlineService:
    """A turn's deadline and reminders, the votes when it passed, and away seats."""

    def __init__(
        self,
        desk: GameDesk,
        store: DeadlineStore,
        reports: TurnReports,
        settings: SettingsService,
        computers: ComputerService,
    ) -> None:
        """``computers``: who plays a turn skipped by vote (as any stand-in plays)."""
        self.desk = desk
        self.store = store
        self.reports = reports
        self.settings = settings
        self.computers = computers

    async def stored_turn(self, game_id: int, turn: TurnId) -> str:
        """The key a turn's reminders and votes are stored under: ``round.seat.start``; for the
        turn a game was playing at migration 0012 (or an older one) the old ``round.seat``."""
        before = await self.store.old_turn_keys(game_id)
        return turn.old_text if before is not None and turn.start <= before else turn.text

    async def deadline_of(self, game_id: int, turn: TurnId | None) -> int | None:
        """The deadline stored for a game's turn (unix seconds), if any; reads only."""
        if turn is None:
            return None
        return await self.store.turn_deadline(game_id, await self.stored_turn(game_id, turn))

    async def stated_for(self, game: Game, match: Match, turn: TurnId | None, start: int) -> Stated:
        """What a turn's message posted at ``start`` states, from the game in hand (``turn``
        None: a game's ending); the thread message's preparation asks it just before the post.

        The turn played before stops here: its unsent reminders are cancelled and its time bank
        turn ends. The turn itself begins only once its message is posted (``begin`` with what
        this returns): a message that fails and is posted hours later starts its clock then
        (D156). A turn begun before (its message was posted) keeps its deadline.
        """
        plan = await self._plan(game, match, turn, start)
        if not isinstance(plan, TurnBegin):
            return Stated(plan)
        await self.store.cancel_reminders(game.id, now=start, keep=plan.key)
        if plan.banked:
            await self.store.end_bank_turns(game.id, now=start, keep=plan.key)
        return Stated(plan.deadline, plan)

    async def begin(self, turn: TurnBegin) -> int:
        """Begin a turn once its message is posted: its reminders and time bank turn, stored
        once (a second call returns the first); its deadline."""
        if turn.banked:
            await self.store.begin_bank_turn(
                turn.game_id, turn=turn.key, seat=turn.seat, available=turn.seconds, now=turn.start
            )
        return await self.store.schedule_turn(
            turn.game_id,
            turn=turn.key,
            seat=turn.seat,
            user_id=turn.user,
            deadline_at=turn.deadline,
            reminders=reminder_plan(turn.start, turn.seconds),
            now=turn.start,
        )

    async def schedule_for(
        self, game: Game, match: Match, turn: TurnId | None, start: int | None = None
    ) -> int | None:
        """Begin the turn being played at ``start`` (now by default), from the game in hand:
        its reminders and time bank turn, stored once (a second call returns the first); its
        deadline. Nothing is scheduled for a game without a deadline, a computer's turn, a
        finished game, or a turn that was already played (then the deadline stored for it, if
        any); other turns' unsent reminders are cancelled, every one of them once no turn is
        played."""
        plan = await self._plan(game, match, turn, self.desk.now() if start is None else start)
        return await self.begin(plan) if isinstance(plan, TurnBegin) else plan

    async def schedule_reminders(
        self, game_id: int, turn: TurnId | None, start: int | None = None
    ) -> int | None:
        """``schedule_for`` the game read from the store (None if it cannot be read)."""
        try:
            game, match = await self.desk.load(game_id=game_id, ended=True)
        except ServiceError:
            return None
        return await self.schedule_for(game, match, turn, start)

    async def _plan(
        self, game: Game, match: Match, turn: TurnId | None, now: int
    ) -> TurnBegin | int | None:
        """What a turn's message at ``now`` begins (``TurnBegin``), else the deadline it states
        (stored for a turn already begun or played; None without one). Ending a game, a
        computer's turn or an absent player's stops every clock of the game here."""
        current = await current_turn(match) if game.status == GameStatus.ACTIVE else None
        if turn is None or current != turn:
            if current is None:
                await self.store.cancel_reminders(game.id, now=now)
                await self._end_bank_turns(game, now)
            return await self.deadline_of(game.id, turn)
        user = game.user_of(turn.seat)
        absent = turn.seat in await self.desk.stand_ins(game)  # the computer plays at once
        timed = game.turn_deadline is not None or game.time_bank is not None
        if not timed or user is None or user == COMPUTER_USER_ID or absent:
            await self.store.cancel_reminders(game.id, now=now)
            await self._end_bank_turns(game, now)
            return None
        key = await self.stored_turn(game.id, turn)
        if game.time_bank is None:
            stored = await self.store.turn_deadline(game.id, key)
            if stored is not None:
                return stored
            seconds = game.turn_deadline or 0
            return TurnBegin(game.id, key, turn.seat, user, now, seconds, banked=False)
        turns = await self.store.bank_turns(game.id)
        mine = next((t for t in turns if t.turn == key), None)
        if mine is not None:  # begun (its reminders may not be stored yet)
            return TurnBegin(
                game.id, key, turn.seat, user, mine.started_at, mine.available, banked=True
            )
        earlier = [t for t in turns if t.turn != key]
        left = bank_of_seat(earlier, turn.seat, game.time_bank, now)
        available = bank_available(left, game.time_bank, game.time_increment)
        return TurnBegin(game.id, key, turn.seat, user, now, available, banked=True)

    async def _end_bank_turns(self, game: Game, now: int) -> None:
        """Stop the clock of a game with a time bank: nobody's bank runs down now."""
        if game.time_bank is not None:
            await self.store.end_bank_turns(game.id, now=now)

    async def banks(self, game: Game) -> dict[int, int] | None:
        """Each human seat's time bank now, in seconds (None: the game has no time bank)."""
        if game.time_bank is None:
            return None
        turns = await self.store.bank_turns(game.id)
        now = self.desk.now()
        return {
            s.seat: bank_of_seat(turns, s.seat, game.time_bank, now)
            for s in game.seats
            if s.user_id != COMPUTER_USER_ID
        }

    async def shown_banks(self, game: Game) -> dict[int, int] | None:
        """Each human seat's time bank as the pictures show it: not ticking, as the last turn
        ended (``TurnReports.banks``, D106); None: the game has no time bank."""
        return await self.reports.banks(game)

    async def claim_due_reminders(
        self, *, lease: int, shards: Shards | None = None
    ) -> list[Reminder]:
        """Claim the reminders due now for ``lease`` seconds (see ``GameStore``)."""
        return await self.store.claim_due_reminders(now=self.desk.now(), lease=lease, shards=shards)

    async def due(self, rows: Sequence[Reminder]) -> DueReminder:
        """What to send for one player's due reminders in one game (``rows``), decided on one
        read of the game: nothing if the turn they remind of is over or its player absent (the
        rows dropped); else the thread, the game's language, how the player is told now, and
        at a deadline either the take-over (a game with that option: the seat is stored as
        away before any text is made, the player returned) or the others' votes."""
        first = rows[0]
        latest = max(rows, key=lambda r: (r.due_at, r.id))
        ids = tuple(r.id for r in rows)
        told = DueReminder(
            ids=ids,
            game_id=latest.game_id,
            user_id=latest.user_id,
            kind=latest.kind,
            deadline_at=latest.deadline_at,
            thread_id=None,
            retried=any(r.claims > 1 for r in rows),  # a claim before may have sent it
        )
        try:
            game, match = await self.desk.load(game_id=first.game_id)
        except ServiceError:
            game = None
        if game is None or not await self._still_due(game, match, first):
            await self.drop(ids)
            return told
        handed = await self._take_over(game, match, latest)
        return replace(
            told,
            thread_id=game.thread_id,
            language=game.language,
            handed=handed,
            delivery=await self.settings.delivery(latest.user_id),  # settings, quiet hours
            vote_turn=latest.turn if handed is None and latest.kind == "deadline" else None,
            more_turn=await self._may_ask(game, latest),
        )

    async def _may_ask(self, game: Game, reminder: Reminder) -> str | None:
        """The turn a reminder before the deadline lets its player ask more time on: a game
        without a time bank, more time not asked yet on this turn; else None."""
        if reminder.kind == "deadline" or game.time_bank is not None:
            return None
        asked = await self.store.more_time_of(game.id, reminder.turn)
        return reminder.turn if asked is None else None

    async def _still_due(self, game: Game, match: Match, reminder: Reminder) -> bool:
        """Whether the reminder's turn is still being played by its player (not one the
        computer plays: away or on vacation, none reaches them)."""
        turn = await current_turn(match)
        if turn is None or await self.stored_turn(game.id, turn) != reminder.turn:
            return False
        if game.user_of(turn.seat) != reminder.user_id:
            return False
        return turn.seat not in await self.desk.stand_ins(game)

    async def _take_over(self, game: Game, match: Match, reminder: Reminder) -> PlayerInfo | None:
        """At a deadline, in a game with the take-over option: the computer takes the seat,
        "away" until its player uses ``/back`` (stored now); the player, else None."""
        if reminder.kind != "deadline" or not game.computer_takeover:
            return None
        await self.store.set_stand_in(game.id, reminder.seat, "away", now=self.desk.now())
        return players_of(game, match, {reminder.seat: "away"})[reminder.seat]

    async def sent(self, reminder_ids: Sequence[int]) -> None:
        """Record that reminders were sent (one transaction)."""
        await self.store.mark_reminders_sent(reminder_ids, now=self.desk.now())

    async def drop(self, reminder_ids: Sequence[int]) -> None:
        """Drop reminders that will never be sent (their turn is over, their thread gone)."""
        for reminder_id in reminder_ids:
            await self.store.cancel_reminder(reminder_id, now=self.desk.now())

    async def vote_skip(
        self, user_id: int, *, game_id: int, turn: str, choice: str = "skip"
    ) -> SkipVote:
        """A vote by one of the other players on a turn whose deadline passed.

        ``turn``: the key on the deadline message's button (``round.seat.start``, or the old
        ``round.seat`` of buttons posted before migration 0012): a vote counts only for that very
        turn. ``choice``: "skip" (the computer plays this turn) or "away" (the computer plays
        the seat until its player uses ``/back``). The voters are the humans still playing (see
        ``_voters``); each has one vote per turn and may change it; the choice a majority of
        them (more than half) picks is applied at once. A skip: the computer room plays the
        turn for the absent player as any stand-in plays (marked as such) and the turn's report
        is returned. A hand-over: the seat is stored as away (``announce`` only for the vote that
        did it) and the runner plays its turns.
        """
        if choice not in ("skip", "away"):
            raise ServiceError("deadline.turn_over")
        game, match = await self.desk.load(game_id=game_id)
        current = await current_turn(match)
        stored = None if current is None else await self.stored_turn(game.id, current)
        if current is None or stored != turn:
            raise ServiceError("deadline.turn_over")
        voters = await self._voters(game, current.seat)
        if user_id not in voters:
            raise ServiceError("deadline.not_voter")
        deadline = await self.store.turn_deadline(game.id, turn)
        if deadline is None or self.desk.now() < deadline:
            raise ServiceError("deadline.not_yet")
        votes = await self.store.add_deadline_vote(
            game.id, turn, user_id, choice, now=self.desk.now()
        )
        needed = len(voters) // 2 + 1
        counted = len(set(votes) & voters)
        if counted < needed:
            return SkipVote(
                game_id=game.id,
                votes=counted,
                needed=needed,
                choice=choice,
                thread_id=game.thread_id,
            )
        if choice == "away":
            seat = current.seat
            handed = await self.store.hand_over(game.id, seat, now=self.desk.now())
            player = players_of(game, match, {seat: "away"})[seat]
            return SkipVote(
                game_id=game.id,
                votes=counted,
                needed=needed,
                turn=None,
                computers_next=True,
                choice=choice,
                handed=player,
                thread_id=game.thread_id,
                announce=handed,
            )
        # the absent player's turn, played by the computer room as any stand-in plays, once
        report = await self.computers.stand_in_turn(game, match, current.seat)
        computers = self.desk.computer_acts(
            game, match.current_seat, await self.desk.stand_ins(game)
        )
        return SkipVote(
            game_id=game.id,
            votes=counted,
            needed=needed,
            turn=report,
            computers_next=computers,
            thread_id=game.thread_id,
        )

    async def _voters(self, game: Game, absent_seat: int) -> set[int]:
        """Who votes on a turn at its deadline: the humans still playing, other than the absent
        player; not a player who resigned, withdrew from the game's league, or whose seats the
        computer plays (away, on vacation)."""
        stand_ins = await self.desk.stand_ins(game)
        humans = {s.user_id for s in game.seats if s.user_id != COMPUTER_USER_ID}
        sitting_out = {s.user_id for s in game.seats if s.seat in stand_ins}
        gone = await self.store.forfeits_of_game(game.id)
        return humans - sitting_out - gone - {game.user_of(absent_seat)}

    async def back(self, user_id: int, *, thread_id: int | None = None) -> Back:
        """Give the user's away seats back to them: the thread's game's if they are away there,
        else every game's. ``back.none`` if the computer plays none of their seats."""
        seats = await self.store.away_seats(user_id)
        here = [s for s in seats if s.thread_id == thread_id]
        returned = await self.store.clear_away(here or seats, now=self.desk.now())
        if not returned:
            settings = await self.settings.user_settings(user_id)
            if (settings.vacation_until or 0) > self.desk.now():
                raise ServiceError("back.on_vacation")
            if thread_id is not None and await self._resigned_here(user_id, thread_id):
                raise ServiceError("stand_in.refused.resigned")
            raise ServiceError("back.none")
        return Back(games=tuple(dict.fromkeys((s.game_id, s.thread_id) for s in returned)))

    async def _resigned_here(self, user_id: int, thread_id: int) -> bool:
        """Whether the user resigned from the active game of this thread."""
        try:
            game, _ = await self.desk.load(thread_id=thread_id)
        except ServiceError:
            return False
        return any(game.stand_in_of(seat) == "resigned" for seat in game.seats_of(user_id))

    async def away_seats(self, user_id: int) -> list[AwaySeat]:
        """The user's seats the computer plays until they come back."""
        return await self.store.away_seats(user_id)
