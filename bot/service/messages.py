"""A game's thread message: what it owes, prepared in one call, and marked posted in one.

The outbox (``bot.thread.outbox``) asks ``ThreadMessages.prepare`` once per message: whether the
game owes its thread a message (read without the game), the message (a completed turn, an
opening, an ending), the deadline it states, how the next player is told, and what a game's last
message carries (the coach's turning points, the recap). The game is read at most once, and not
at all when the change that made the message kept it (``GameDesk.save``). Once the message is
out the outbox calls ``posted``: the turn it shows begins (its reminders, its time bank turn:
D156) and the version is recorded. No discord types here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.store import Game, GameNotFound, ReadingStore
from engine.games import Match

from .coach import CoachService
from .deadlines import DeadlineService, Stated, TurnBegin
from .errors import ServiceError
from .game_pings import GamePings
from .notify import Delivery
from .records import Records, ended_word
from .reports import TurnReports
from .results import Created, Ended, TurnId, TurnReport
from .settings import SettingsService
from .tables import GameDesk

Owed = TurnReport | Created | Ended  # a message a game owes its thread


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalExtras:
    """What a game's last message carries besides its text: whether it offers the coach's
    turning points (a coached game's final turn) and its animated recap (None: none, or it
    failed or was slow)."""

    coach: bool
    recap: bytes | None
    board: bytes | None = None  # an ending's board as it stood (a final turn's is its card's)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardExtras:
    """What a turn's card shows besides the turn: its deadline, a last turn's extras, and how
    its post told the next player (None: not known, after a restart)."""

    deadline: int | None
    final: FinalExtras | None = None
    delivery: Delivery | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Prepared:
    """A thread message ready to post: the ``message``, the ``deadline`` it states, the turn
    its post begins (``begins``, for ``posted``), how the next player is told (``delivery``: a
    human's turn only) and a last message's ``final`` extras."""

    message: Owed
    deadline: int | None
    begins: TurnBegin | None
    delivery: Delivery | None
    final: FinalExtras | None

    @property
    def game_id(self) -> int:
        """The game the message is about."""
        return self.message.game_id

    @property
    def version(self) -> int:
        """The game's version the message shows."""
        return self.message.version

    @property
    def card(self) -> CardExtras:
        """What the message's card shows besides the turn, as prepared for its post."""
        return CardExtras(deadline=self.deadline, final=self.final, delivery=self.delivery)


def next_turn(message: Owed) -> TurnId | None:
    """The turn a message's post begins (None: an ending, or a game over)."""
    if isinstance(message, TurnReport):
        return message.next_turn
    if isinstance(message, Created):
        return message.turn
    return None


class ThreadMessages:
    """Prepares the message a game owes its thread, and records it posted."""

    def __init__(
        self,
        desk: GameDesk,
        store: ReadingStore,
        reports: TurnReports,
        deadlines: DeadlineService,
        settings: SettingsService,
        coach: CoachService,
        records: Records,
        pings: GamePings,
    ) -> None:
        self.desk = desk
        self.store = store
        self.reports = reports
        self.deadlines = deadlines
        self.settings = settings
        self.coach = coach
        self.records = records
        self.pings = pings

    async def prepare(self, game_id: int, known: Owed | None = None) -> Prepared | None:
        """The message the game owes its thread, ready to post; None if nothing is owed.

        ``known``: the message the change just made (a completed turn, an opening, an ending),
        owed unless already posted; else what the store says is owed. Whether anything is owed
        is read without the game; the game is then read once, unless the change kept it. The
        turn played before stops here (its reminders, its time bank turn), just before the
        post (``DeadlineService.stated_for``).
        """
        try:
            versions = await self.store.game_versions(game_id)
        except GameNotFound:
            return None
        held: tuple[Game, Match] | None = None
        if known is not None:
            if versions.announced >= known.version:
                return None
            message: Owed = known
            if versions.version == known.version:  # else a newer version: read as it is now
                held = self._kept(game_id, known.version)
        else:
            if not versions.owed:
                return None
            owed = await self.reports.owed_with_game(game_id)
            if owed is None:
                return None
            message, read, read_match = owed
            held = (read, read_match)
        start = self.desk.now()
        if held is None:
            held = await self._read(game_id)
        stated = Stated(None)
        if held is not None:
            stated = await self.deadlines.stated_for(*held, next_turn(message), start)
        final = await self._final(message, held)
        return Prepared(
            message=message,
            deadline=stated.deadline,
            begins=stated.begins,
            delivery=await self._delivery(message),
            final=final,
        )

    async def posted(self, prepared: Prepared, *, picture_message: int | None = None) -> None:
        """Record a prepared message as posted: the turn it shows begins (its reminders and
        time bank turn, from the time its deadline was stated: D156), then its version is
        marked (``picture_message``: its id, when its picture is still owed)."""
        if prepared.begins is not None:
            await self.deadlines.begin(prepared.begins)
        await self.store.mark_announced(
            prepared.game_id, prepared.version, picture_message=picture_message
        )

    async def card_extras(self, report: TurnReport) -> CardExtras:
        """What a turn message posted before a restart needs to become its card: the deadline
        its turn had when posted, and a last turn's extras."""
        if report.final is None:
            deadline = await self.deadlines.deadline_of(report.game_id, report.next_turn)
            return CardExtras(deadline=deadline)
        return CardExtras(
            deadline=None, final=await self._final(report, await self._read(report.game_id))
        )

    def _kept(self, game_id: int, version: int) -> tuple[Game, Match] | None:
        """The game and match the save of ``version`` kept, if it still is."""
        kept = self.desk.known.get(game_id, version)
        if kept is None or kept.game is None:
            return None
        return kept.game, kept.match

    async def _read(self, game_id: int) -> tuple[Game, Match] | None:
        """The game as stored (also over); None if it cannot be read (gone, or damaged: its
        message then states no deadline and carries no extras)."""
        try:
            return await self.desk.load(game_id=game_id, ended=True)
        except ServiceError:
            return None

    async def _final(self, message: Owed, held: tuple[Game, Match] | None) -> FinalExtras | None:
        """A game's last message's extras: the coach's turning points offered in a coached
        game, the recap; an ending's too, with its board as it stood, saying why it ended (a
        game cancelled before any move has none of them). Other messages: none."""
        game = None if held is None else held[0]
        if isinstance(message, TurnReport) and message.final is not None:
            coach = game is not None and await self.coach.coached(game)
            return FinalExtras(coach=coach, recap=await self._recap(game))
        if not isinstance(message, Ended):
            return None
        if held is None or message.reason == "cancelled":  # nothing was played: no board
            return FinalExtras(coach=False, recap=await self._recap(game))
        game, match = held
        board = await self.reports.pictures.render(
            match.view(None), None, game, ended=ended_word(game)
        )
        coach = await self.coach.coached(game)
        return FinalExtras(coach=coach, recap=await self._recap(game), board=board)

    async def _recap(self, game: Game | None) -> bytes | None:
        return None if game is None else await self.records.final_recap_of(game)

    async def _delivery(self, message: Owed) -> Delivery | None:
        """How a completed turn's message tells its players now: the next player (ping, direct
        message: their settings, unless they chose only reminders in this game), and ``also``
        the others who chose every turn, but the player whose move it tells (when their quiet
        hours allow a ping); None when nobody is told."""
        if not isinstance(message, TurnReport) or message.final is not None:
            return None
        modes = await self.pings.of_game(message.game_id)
        nxt = message.next_player
        human = nxt is not None and not nxt.computer and nxt.user_id is not None
        next_id = nxt.user_id if human and nxt is not None else None
        mover = message.player.user_id  # not pinged by the message of their own move
        also = []
        for user, mode in sorted(modes.items()):
            if mode != "every" or user in (next_id, mover):
                continue
            if (await self.settings.delivery(user)).ping:
                also.append(user)
        if next_id is None:
            return Delivery(ping=False, dm=False, also=tuple(also)) if also else None
        how = await self.settings.delivery(next_id)
        if modes.get(next_id) == "reminders":
            how = Delivery(ping=False, dm=False)
        return replace(how, also=tuple(also))
