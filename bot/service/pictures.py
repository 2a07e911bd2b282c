"""Pictures of games for the services: drawn off the event loop, the recent ones cached."""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from bot.kept import Kept
from bot.store import Game
from bot.workers.render_pool import RenderPool
from engine import games
from engine.contract import Event, View
from render.extras import PLAIN, Extras

PICTURES_KEPT = 64  # recent pictures kept by the service (about 200 KB each)


class SeatTurn(Protocol):
    """One of the others' turns told on a turn picture: its seat and the events it caused."""

    @property
    def seat(self) -> int: ...

    @property
    def events(self) -> Sequence[Event]: ...


class ToldTurns(Protocol):
    """The others' turns since the viewer's last one, oldest first (``first_turn``: since the
    game began, the viewer has had none); the services' ``SinceLastTurn`` is one."""

    @property
    def turns(self) -> Sequence[SeatTurn]: ...

    @property
    def first_turn(self) -> bool: ...


class Renderer(Protocol):
    """Draws a game's picture: (view, events marked or None, legal actions marked or None,
    extras) -> PNG bytes (see ``render_picture``)."""

    def __call__(
        self,
        view: dict[str, Any],
        events: Sequence[Event] | None,
        legal: Sequence[str] | None,
        extras: Extras,
        /,
    ) -> bytes: ...


def render_picture(
    view: View,
    events: Sequence[Event] | None,
    legal: Sequence[str] | None = None,
    extras: Extras = PLAIN,
) -> bytes:
    """The board PNG of a view, marking the changes in ``events`` (None: from the view), drawn
    with ``extras`` (its language, the bot's stand-ins, computer turn and time banks); with
    ``legal`` (the actions of the step to choose), the game's phone-sized turn picture marking
    them, when the game has one (docs/render.md), telling ``extras.since`` on it."""
    from render import FOCUS_RENDERERS, render_board, render_focus

    if legal is not None and view.get("game") in FOCUS_RENDERERS:
        return render_focus(view, legal=legal, events=events, extras=extras)
    return render_board(view, events=events, extras=extras)


def picture_language(game: Game) -> str:
    """The language of a game's pictures: the game's; English for games made before the choice
    (as they were drawn then)."""
    return game.language or "en"


def stored_ranks(game: Game) -> dict[int, int]:
    """A finished game's result as stored, seat -> rank (a resigned seat last): what its
    pictures rank and name as the winner (D286); empty while it runs or without a result."""
    return {s.seat: s.final_rank for s in game.seats if s.final_rank is not None}


def picture_payload(
    view: Mapping[str, Any],
    events: Sequence[Event] | None,
    legal: tuple[str, ...] | None = None,
    extras: Extras = PLAIN,
) -> bytes:
    """A picture's arguments as the worker is sent them: pickled without a memo, so equal
    values give equal bytes whichever objects they share (a view read back from its snapshot
    and the same view played in memory alike); hashed, they are the picture's key (D133)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # no memo: views hold no cycles
    pickler.dump((view, events, legal, extras))
    return buffer.getvalue()


def payload_key(payload: bytes) -> str:
    """The cache key of a picture's ``picture_payload``: its digest."""
    return hashlib.blake2b(payload, digest_size=16).hexdigest()


def picture_key(
    view: Mapping[str, Any],
    events: Sequence[Event] | None,
    legal: tuple[str, ...] | None = None,
    extras: Extras = PLAIN,
) -> str:
    """What a picture is a pure function of: the view (game state, viewer), the events marked,
    the legal actions marked and its extras (language, the bot's stand-ins, computer turn,
    turns since and time banks); as a digest of the bytes the drawer is sent."""
    return payload_key(picture_payload(view, events, legal, extras))


class PictureCache:
    """The last pictures drawn, by ``picture_key``: asked again (the board after a play, a
    second viewer with the same view), a picture is not drawn twice."""

    def __init__(self, size: int = PICTURES_KEPT) -> None:
        self._pictures: Kept[str, bytes] = Kept(size)

    def get(self, key: str) -> bytes | None:
        """The picture under ``key`` (now the most recent), or None."""
        return self._pictures.find(key)

    def put(self, key: str, png: bytes) -> None:
        """Keep a picture, forgetting the least recently used beyond ``size``."""
        self._pictures.keep(key, png)


@dataclass(frozen=True, kw_only=True)
class PictureOrder:
    """What one picture is drawn from, to draw it later (a turn message's picture follows the
    message): the view, the events marked, the legal actions marked (None: the board, not the
    turn picture) and its extras."""

    game_id: int | None
    view: dict[str, Any]
    events: Sequence[Event] | None
    legal: tuple[str, ...] | None = None
    extras: Extras = PLAIN

    @cached_property
    def payload(self) -> bytes:
        """What the worker is sent to draw it (``picture_payload``), made once."""
        return picture_payload(self.view, self.events, self.legal, self.extras)

    @cached_property
    def key(self) -> str:
        """The picture's cache key (``picture_key``), from the payload."""
        return payload_key(self.payload)


class Pictures:
    """The pictures the services show: from the cache, else drawn by the pool."""

    def __init__(self, pool: RenderPool) -> None:
        self.pool = pool
        self.pictures = PictureCache()

    def order(
        self,
        view: dict[str, Any],
        events: Sequence[Event] | None,
        game: Game | None = None,
        legal: Sequence[str] | None = None,
        *,
        stand_ins: Mapping[int, str] | None = None,
        computer_played: bool = False,
        since: ToldTurns | None = None,
        banks: Mapping[int, int] | None = None,
        ended: str | None = None,
        ranks: Mapping[int, int] | None = None,
    ) -> PictureOrder:
        """What the picture of ``view`` is drawn from, in the game's language (None: a
        warm-up); ``legal``: the turn picture marking them; ``stand_ins`` (seat -> why the
        computer plays its human), ``computer_played`` (the last turn so) and ``banks`` (seat
        -> seconds left in its time bank) are told on it; ``since``: the turn picture tells and
        marks these turns (the others' since the viewer's last one); ``ended``: why the bot
        ended the game (``records.ended_word``), told on it; ``ranks``: the result as stored
        (seat -> rank, ``stored_ranks``), ranked and named on it instead of the rules' (D286)."""
        extras = Extras(
            language="en" if game is None else picture_language(game),
            stand_ins=tuple(sorted((stand_ins or {}).items())),
            computer_played=computer_played,
            banks=tuple(sorted((banks or {}).items())),
            since=None if since is None else tuple((t.seat, tuple(t.events)) for t in since.turns),
            first_turn=since is not None and since.first_turn,
            ended=ended,
            ranks=tuple(sorted((ranks or {}).items())),
        )
        return PictureOrder(
            game_id=None if game is None else game.id,
            view=view,
            events=events,
            legal=None if legal is None else tuple(legal),
            extras=extras,
        )

    async def draw(self, order: PictureOrder) -> bytes:
        """The picture of an order, from the cache or drawn off the event loop (see
        ``bot.workers.render_pool``)."""
        key = order.key
        png = self.pictures.get(key)
        if png is None:
            png = await self.pool.draw_payload(order.payload)
            self.pictures.put(key, png)
        return png

    async def render(
        self,
        view: dict[str, Any],
        events: Sequence[Event] | None,
        game: Game | None = None,
        legal: Sequence[str] | None = None,
        *,
        stand_ins: Mapping[int, str] | None = None,
        computer_played: bool = False,
        banks: Mapping[int, int] | None = None,
        ended: str | None = None,
        ranks: Mapping[int, int] | None = None,
    ) -> bytes:
        """The picture at once (``order`` then ``draw``)."""
        order = self.order(
            view,
            events,
            game,
            legal,
            stand_ins=stand_ins,
            computer_played=computer_played,
            banks=banks,
            ended=ended,
            ranks=ranks,
        )
        return await self.draw(order)

    async def warm_up(self) -> None:
        """Render one board per game so the caches exist before the first player waits on it."""
        for key, rules in games.GAMES.items():
            match = games.new(key, [f"P{i}" for i in range(rules.min_players)], 0)
            await self.render(match.view(None), None)
