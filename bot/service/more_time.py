"""More time on a turn (issue 39 item 4): the player to act may ask once per turn for
``EXTRA`` seconds more (the others see it), and one of the game's other players may grant it
once; the turn's deadline and unsent reminders then move on, in one transaction. Never in a game
with a time bank (banks are never extended), never past a deadline already reached, never
twice for a turn: at most ``EXTRA`` more per turn, as the lobby's deadline menu says."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from bot.store import Game
from bot.store.player_interface import MoreTimeStore

from .deadlines import DeadlineService
from .errors import ServiceError
from .results import COMPUTER_USER_ID
from .tables import GameDesk, current_turn

#: The time a grant adds to a turn (the lobby and the buttons say "24 h").
EXTRA = 24 * 3600


class MoreTimeBook(MoreTimeStore, Protocol):
    """The store calls more time makes."""


@dataclass(frozen=True, kw_only=True)
class MoreTime:
    """More time on a turn, asked or granted: the game and its thread, the turn's key, the
    player who asked, the turn's deadline (moved on once granted) and who granted it."""

    game_id: int
    thread_id: int
    language: str | None
    turn: str
    player: str
    deadline: int
    granted_by: str | None = None


@dataclass(frozen=True)
class _Turn:
    game: Game
    key: str
    user_id: int
    player: str
    deadline: int


class MoreTimeService:
    """Asking for and granting more time on the turn being played."""

    def __init__(self, desk: GameDesk, store: MoreTimeBook, deadlines: DeadlineService) -> None:
        self.desk = desk
        self.store = store
        self.deadlines = deadlines

    async def ask(self, user_id: int, *, game_id: int, turn: str | None = None) -> MoreTime:
        """The player to act asks for more time on their turn (``turn``: its key, as the
        reminder's button carries it; None: the turn being played). Refused when it is not
        their turn, the game has no deadline or a time bank, the deadline passed, or the more
        time asked for this turn was granted already (asked, not granted: the same request)."""
        now = await self._turn(game_id, turn)
        if now.user_id != user_id:
            raise ServiceError("more.not_yours")
        if not await self.store.ask_more_time(game_id, now.key, user_id, now=self.desk.now()):
            asked = await self.store.more_time_of(game_id, now.key)
            # asked before, not granted yet: the request is shown again (its post may have failed)
            if asked is None or asked.granted_by is not None:
                raise ServiceError("more.asked_already")
        return self._told(now)

    async def grant(self, user_id: int, *, game_id: int, turn: str) -> MoreTime:
        """Another player of the game grants the more time asked on this turn: the turn's
        deadline and reminders move on by ``EXTRA``. Refused to the asker, to anyone not
        seated, once granted, or when the turn is over or its deadline passed."""
        now = await self._turn(game_id, turn)
        asked = await self.store.more_time_of(game_id, now.key)
        if asked is None:
            raise ServiceError("more.not_asked")
        if asked.granted_by is not None:
            raise ServiceError("more.granted_already")
        seated = [s for s in now.game.seats if s.user_id == user_id]
        if not seated or user_id == COMPUTER_USER_ID:
            raise ServiceError("more.not_player")
        if user_id == asked.asked_by:
            raise ServiceError("more.own")
        granted = await self.store.grant_more_time(
            game_id, now.key, user_id, EXTRA, now=self.desk.now()
        )
        if not granted:  # another player's grant came first
            raise ServiceError("more.granted_already")
        return replace(self._told(now), deadline=now.deadline + EXTRA, granted_by=seated[0].player)

    async def _turn(self, game_id: int, turn: str | None) -> _Turn:
        """The turn being played, if it is ``turn`` (None: any), with its standing deadline."""
        game, match = await self.desk.load(game_id=game_id)
        if game.time_bank is not None:
            raise ServiceError("more.bank")
        if game.turn_deadline is None:
            raise ServiceError("more.no_deadline")
        current = await current_turn(match)
        key = None if current is None else await self.deadlines.stored_turn(game.id, current)
        if current is None or key is None or (turn is not None and key != turn):
            raise ServiceError("more.turn_over")
        user = game.user_of(current.seat)
        deadline = await self.deadlines.deadline_of(game.id, current)
        if user is None or deadline is None or deadline <= self.desk.now():
            raise ServiceError("more.too_late")
        player = next(s.player for s in game.seats if s.seat == current.seat)
        return _Turn(game, key, user, player, deadline)

    def _told(self, turn: _Turn) -> MoreTime:
        return MoreTime(
            game_id=turn.game.id,
            thread_id=turn.game.thread_id,
            language=turn.game.language,
            turn=turn.key,
            player=turn.player,
            deadline=turn.deadline,
        )
