"""Game records from the store (``/export``) and the animated recap of a game that ended.

A record is built by ``engine.record`` from the stored setup and action log (docs/records.md):
the spectator record while the game runs (no seed, no secret), the full one once it is over.
Building replays the log (a fraction of a second), so it runs in a thread; the recap is drawn
by a render pool worker. No discord types here.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Protocol

from bot.store import Action, Game, GameNotFound, GameStatus
from bot.workers.render_pool import RenderPool
from engine import record

from .computers import STAND_IN_LEVEL
from .errors import ServiceError
from .pictures import picture_language
from .results import COMPUTER_USER_ID
from .tables import CANCELLED, RESIGNED, match_of

log = logging.getLogger(__name__)

RECAP_SECONDS = 30.0  # the final message waits this long for its recap, then goes without


class RecordStore(Protocol):
    """The store calls records need (all reads)."""

    async def load_latest_game_by_thread(self, thread_id: int) -> Game:
        """The thread's latest game, any status (GameNotFound)."""
        ...

    async def load_actions(self, game_id: int) -> list[Action]:
        """A game's whole action log in order (with the time of each action)."""
        ...


@dataclass(frozen=True, kw_only=True)
class Export:
    """A game's record as a file: its name (``<game>-<id>.json``), kind and JSON bytes."""

    game_id: int
    game_key: str
    kind: str  # record.FULL or record.SPECTATOR
    data: bytes

    @property
    def filename(self) -> str:
        """``<game>-<id>.json``."""
        return f"{self.game_key}-{self.game_id}.json"


def ended_word(game: Game) -> str | None:
    """Why the bot ended a game the rules had not (``abandoned``, ``resigned``, ``cancelled``),
    for the record and the recap's last picture; None while it runs or if the rules ended it."""
    if game.status == GameStatus.ACTIVE:
        return None
    reason = game.end_reason or ""
    if reason.startswith(RESIGNED):
        return "resigned"
    return "cancelled" if reason == CANCELLED else "abandoned"


def computers_of(game: Game) -> dict[int, str | None]:
    """The seats a computer plays when the record is made, each at the level it plays: its own
    seats at the level the lobby chose, the stand-ins at the stand-ins' level."""
    levels: dict[int, str | None] = {}
    for s in game.seats:
        if s.user_id == COMPUTER_USER_ID:
            levels[s.seat] = game.computer_level
        elif s.stand_in is not None:
            levels[s.seat] = STAND_IN_LEVEL
    return levels


def record_of(game: Game, actions: list[Action], kind: str) -> record.Record:
    """The record of a stored game (pure; replays the log: run it in a thread).

    RecordMismatch if the stored log does not replay (``python -m bot.store verify``)."""
    outcome = match_of(game).outcome
    return record.build(
        game.game_key,
        game.options,
        game.seed,
        game.players,
        [record.Played(a.seat, a.notation, a.created_at) for a in actions],
        outcome,
        computers=computers_of(game),
        language=game.language,
        ended=None if outcome is not None else ended_word(game),
        kind=kind,
    )


def draw_recap(
    full_json: str, language: str, ended: str | None, ranks: tuple[tuple[int, int], ...] = ()
) -> bytes:
    """The animated GIF of a full record (a render pool worker runs this: a few seconds);
    ``ranks``: the stored result, (seat, rank), its last picture ranks and names (D286)."""
    from render.recap import render_recap

    full = record.from_json(full_json)
    moments = record.recap_moments(record.replay(full))
    return render_recap(moments, language=language, ended=ended, ranks=ranks)


def recap_ranks(game: Game) -> tuple[tuple[int, int], ...]:
    """What a finished game's recap ranks on its last picture: its stored result (a resigned
    seat last, D286); none for a game the bot ended (its last picture names no winner)."""
    if match_of(game).outcome is None:
        return ()
    ranks = {s.seat: s.final_rank for s in game.seats if s.final_rank is not None}
    return tuple(sorted(ranks.items()))


class Records:
    """Exports and recaps of stored games."""

    def __init__(self, store: RecordStore, pool: RenderPool) -> None:
        self.store = store
        self.pool = pool

    async def export(self, user_id: int, *, thread_id: int) -> Export:
        """The record of the thread's latest game for ``user_id``: a seated player gets the
        spectator record while it runs, anyone the full record once it is over."""
        try:
            game = await self.store.load_latest_game_by_thread(thread_id)
        except GameNotFound:
            raise ServiceError("export.no_game") from None
        over = game.status != GameStatus.ACTIVE
        seated = user_id != COMPUTER_USER_ID and bool(game.seats_of(user_id))
        if not over and not seated:
            raise ServiceError("export.not_player")
        kind = record.FULL if over else record.SPECTATOR
        made = await self._record(game, kind)
        return Export(
            game_id=game.id, game_key=game.game_key, kind=kind, data=record.to_json(made).encode()
        )

    async def _record(self, game: Game, kind: str) -> record.Record:
        actions = await self.store.load_actions(game.id)
        return await asyncio.to_thread(record_of, game, actions, kind)

    async def recap(self, game: Game) -> bytes | None:
        """The recap GIF of a game that is over (None while it runs or without any action)."""
        if game.status == GameStatus.ACTIVE or game.action_count == 0:
            return None
        full = await self._record(game, record.FULL)
        return await self.pool.call(
            draw_recap, record.to_json(full), picture_language(game), full.ended, recap_ranks(game)
        )

    async def final_recap_of(self, game: Game, timeout: float | None = None) -> bytes | None:
        """The recap for the final message of the game in hand (as stored: its status and
        action count), or None if it fails or takes over ``timeout`` seconds (default
        ``RECAP_SECONDS``; logged: the message goes without it)."""
        timeout = RECAP_SECONDS if timeout is None else timeout
        try:
            return await asyncio.wait_for(self.recap(game), timeout)
        except TimeoutError:
            log.warning("game %s: the recap took over %.0f s; posted without it", game.id, timeout)
        except Exception:
            log.warning("game %s: the recap failed; posted without it", game.id, exc_info=True)
        return None
