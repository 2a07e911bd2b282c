"""Pure drawing: an engine view in, PNG bytes out (Pillow, engine and ISA-L's deflate only).

Shared parts (fonts, text with script fallback, themes, PNG encoding, the catalog of texts) live
here; each game brings its own picture in ``render/<game>/``, found by the view's ``game`` key,
and its texts in ``render/<game>/locale/``. This module is the one place in ``render/`` that lists
the games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources.abc import Traversable
from typing import Any, Protocol

from engine.errors import UnknownGame
from render import namiji, words, yamatai
from render.focus import Since
from render.namiji.focus import render_focus as namiji_focus
from render.namiji.picture import render_board as namiji_board
from render.theme import THEMES, Theme, get_theme
from render.yamatai.focus import render_focus as yamatai_focus
from render.yamatai.picture import render_board as yamatai_board


class BoardRenderer(Protocol):
    """A game's picture: its view (and the last turn's events, to mark them) to PNG bytes."""

    def __call__(
        self,
        view: Mapping[str, Any],
        *,
        events: Sequence[Mapping[str, Any]] | None = None,
        theme: str | Theme = "default",
        language: str = "en",
        stand_ins: Mapping[int, str] | None = None,
        computer_played: bool = False,
        ended: str | None = None,
        banks: Mapping[int, int] | None = None,
    ) -> bytes: ...


RENDERERS: dict[str, BoardRenderer] = {"yamatai": yamatai_board, "namiji": namiji_board}


class FocusRenderer(Protocol):
    """A game's turn picture for the player to move, with the legal targets marked."""

    def __call__(
        self,
        view: Mapping[str, Any],
        *,
        legal: Sequence[str],
        events: Sequence[Mapping[str, Any]] | None = None,
        theme: str | Theme = "default",
        language: str = "en",
        stand_ins: Mapping[int, str] | None = None,
        computer_played: bool = False,
        ended: str | None = None,
        banks: Mapping[int, int] | None = None,
        since: Since | None = None,
        first_turn: bool = False,
    ) -> bytes: ...


FOCUS_RENDERERS: dict[str, FocusRenderer] = {"yamatai": yamatai_focus, "namiji": namiji_focus}

#: Each game's picture texts: a folder of ``<lang>.json`` files.
TEXTS: dict[str, Traversable] = {"yamatai": yamatai.LOCALE, "namiji": namiji.LOCALE}
for _folder in TEXTS.values():
    words.add_texts(_folder)


def register(
    game: str,
    renderer: BoardRenderer,
    focus: FocusRenderer | None = None,
    texts: Traversable | None = None,
) -> None:
    """Add a game's picture, turn picture and picture texts (the lines above list the shipped
    games)."""
    RENDERERS[game] = renderer
    if focus is not None:
        FOCUS_RENDERERS[game] = focus
    if texts is not None:
        TEXTS[game] = texts
        words.add_texts(texts)


def render_board(
    view: Mapping[str, Any],
    *,
    events: Sequence[Mapping[str, Any]] | None = None,
    theme: str | Theme = "default",
    language: str = "en",
    stand_ins: Mapping[int, str] | None = None,
    computer_played: bool = False,
    ended: str | None = None,
    banks: Mapping[int, int] | None = None,
) -> bytes:
    """The picture of any registered game's view as PNG bytes (events: the turn to mark), its
    texts in ``language`` (en, fr, it, pl; any other: English); the bot's extras: the seats a
    computer plays for their human and why (``stand_ins``), the last turn played so
    (``computer_played``), why the bot ended the game (``ended``) and the seconds left in each
    seat's time bank (``banks``; see render.stand_in)."""
    game = str(view.get("game", ""))
    renderer = RENDERERS.get(game)
    if renderer is None:
        raise UnknownGame(f"No picture for game {game!r}.", legal=sorted(RENDERERS))
    return renderer(
        view,
        events=events,
        theme=theme,
        language=language,
        stand_ins=stand_ins,
        computer_played=computer_played,
        ended=ended,
        banks=banks,
    )


def render_focus(
    view: Mapping[str, Any],
    *,
    legal: Sequence[str],
    events: Sequence[Mapping[str, Any]] | None = None,
    theme: str | Theme = "default",
    language: str = "en",
    stand_ins: Mapping[int, str] | None = None,
    computer_played: bool = False,
    ended: str | None = None,
    banks: Mapping[int, int] | None = None,
    since: Since | None = None,
    first_turn: bool = False,
) -> bytes:
    """The turn picture of any registered game for the player to move, the ``legal`` actions'
    spots, islands or cards marked, as PNG bytes (about 900 px wide, read on a phone); the bot's
    extras as for ``render_board``; ``since``: the others' turns since the viewer's last one
    (each seat and its events), told in words and their places marked, instead of the last
    turn (``first_turn``: since the game began, the viewer has had no turn)."""
    game = str(view.get("game", ""))
    renderer = FOCUS_RENDERERS.get(game)
    if renderer is None:
        raise UnknownGame(f"No turn picture for game {game!r}.", legal=sorted(FOCUS_RENDERERS))
    return renderer(
        view,
        legal=legal,
        events=events,
        theme=theme,
        language=language,
        stand_ins=stand_ins,
        computer_played=computer_played,
        ended=ended,
        banks=banks,
        since=since,
        first_turn=first_turn,
    )


__all__ = [
    "FOCUS_RENDERERS",
    "RENDERERS",
    "TEXTS",
    "THEMES",
    "BoardRenderer",
    "FocusRenderer",
    "Theme",
    "get_theme",
    "register",
    "render_board",
    "render_focus",
]
