"""Pictures of games for the services: drawn off the event loop, the recent ones cached."""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.render_pool import RenderPool
from bot.store import Game
from engine import games

from .results import Event

PICTURES_KEPT = 64  # recent pictures kept by the service (about 200 KB each)


class Renderer(Protocol):
    """Draws a game's picture: (view, events marked or None, language[, legal actions marked])
    -> PNG bytes (see ``render_picture``)."""

    def __call__(
        self, view: dict[str, Any], events: Sequence[Event] | None, /, *more: Any
    ) -> bytes: ...


def render_picture(
    view: dict[str, Any],
    events: Sequence[Event] | None,
    language: str = "en",
    legal: Sequence[str] | None = None,
) -> bytes:
    """The board PNG of a view, marking the changes in ``events`` (None: from the view), with
    its texts in ``language``; with ``legal`` (the actions of the step to choose), the game's
    phone-sized turn picture marking them, when the game has one (docs/render.md)."""
    from render import FOCUS_RENDERERS, render_board, render_focus

    if legal is not None and view.get("game") in FOCUS_RENDERERS:
        return render_focus(view, legal=legal, events=events, language=language)
    return render_board(view, events=events, language=language)


def picture_language(game: Game) -> str:
    """The language of a game's pictures: the game's; English for games made before the choice
    (as they were drawn then)."""
    return game.language or "en"


def picture_key(view: Mapping[str, Any], events: Sequence[Event] | None, *more: str) -> str:
    """What a picture is a pure function of: the view (game state, viewer, the bot's stand-in
    keys), the events marked, and ``more`` (language, theme); as a digest."""
    text = json.dumps([view, events, more], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class PictureCache:
    """The last pictures drawn, by ``picture_key``: asked again (the board after a play, a
    second viewer with the same view), a picture is not drawn twice."""

    def __init__(self, size: int = PICTURES_KEPT) -> None:
        self.size = size
        self._pictures: OrderedDict[str, bytes] = OrderedDict()

    def get(self, key: str) -> bytes | None:
        """The picture under ``key`` (now the most recent), or None."""
        png = self._pictures.get(key)
        if png is not None:
            self._pictures.move_to_end(key)
        return png

    def put(self, key: str, png: bytes) -> None:
        """Keep a picture, forgetting the least recently used beyond ``size``."""
        self._pictures[key] = png
        self._pictures.move_to_end(key)
        while len(self._pictures) > self.size:
            self._pictures.popitem(last=False)


def _dressed(
    view: dict[str, Any], stand_ins: Mapping[int, str], computer_played: bool = False
) -> dict[str, Any]:
    """The view with the bot's keys for the picture (``players[seat]["stand_in"]``,
    ``computer_played``; see docs/render.md): a copy, the engine's view is left alone."""
    if not stand_ins and not computer_played:
        return view
    players = [dict(p) for p in view.get("players", [])]
    for seat, kind in stand_ins.items():
        if 0 <= seat < len(players):
            players[seat]["stand_in"] = kind
    dressed = {**view, "players": players}
    if computer_played:
        dressed["computer_played"] = True
    return dressed


class Pictures:
    """The pictures the services show: from the cache, else drawn by the pool."""

    def __init__(self, pool: RenderPool) -> None:
        self.pool = pool
        self.pictures = PictureCache()

    async def render(
        self,
        view: dict[str, Any],
        events: Sequence[Event] | None,
        game: Game | None = None,
        legal: Sequence[str] | None = None,
    ) -> bytes:
        """The picture in the game's language (None: a warm-up), from the cache or drawn off
        the event loop (see ``bot.render_pool``); ``legal``: the turn picture marking them."""
        language = "en" if game is None else picture_language(game)
        more: tuple[object, ...] = (language,) if legal is None else (language, tuple(legal))
        key = picture_key(view, events, *map(str, more))
        png = self.pictures.get(key)
        if png is None:
            png = await self.pool.draw(view, events, *more)
            self.pictures.put(key, png)
        return png

    async def warm_up(self) -> None:
        """Render one board per game so the caches exist before the first player waits on it."""
        for key, rules in games.GAMES.items():
            match = games.new(key, [f"P{i}" for i in range(rules.min_players)], 0)
            await self.render(match.view(None), None)
