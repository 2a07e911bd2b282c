"""Pure drawing: an engine view in, PNG bytes out (Pillow, engine and ISA-L's deflate only).

Shared parts (fonts, text with script fallback, themes, PNG encoding, the catalog of texts) live
here; each game brings its own picture in ``render/<game>/``, found by the view's ``game`` key,
and its texts in ``render/<game>/locale/``. This module is the one place in ``render/`` that lists
the games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib.resources.abc import Traversable
from typing import Any, Protocol, TypeVar

from engine.contract import Event, View
from engine.errors import UnknownGame
from render import namiji, words, yamatai
from render.extras import PLAIN, Extras
from render.namiji.focus import render_focus as namiji_focus
from render.namiji.focus import turn_words as namiji_turn_words
from render.namiji.palette import PLAYERS as NAMIJI_SEATS
from render.namiji.picture import render_board as namiji_board
from render.theme import RGB, THEMES, Theme, get_theme
from render.yamatai.focus import render_focus as yamatai_focus
from render.yamatai.focus import turn_words as yamatai_turn_words
from render.yamatai.picture import render_board as yamatai_board

#: The view a game's renderer takes: its own (``YamataiView``, ``NamijiView``); the dispatchers
#: below hand it the ``engine.contract.View`` whose ``game`` key chose that renderer.
ViewT = TypeVar("ViewT", contravariant=True)


class BoardRenderer(Protocol[ViewT]):
    """A game's picture: its view (and the last turn's events, to mark them) to PNG bytes."""

    def __call__(
        self, view: ViewT, *, events: Sequence[Event] | None = None, extras: Extras = ...
    ) -> bytes: ...


# A renderer's view is its game's own type, which the registry cannot name: the key does.
RENDERERS: dict[str, BoardRenderer[Any]] = {"yamatai": yamatai_board, "namiji": namiji_board}


class FocusRenderer(Protocol[ViewT]):
    """A game's turn picture for the player to move, with the legal targets marked."""

    def __call__(
        self,
        view: ViewT,
        *,
        legal: Sequence[str],
        events: Sequence[Event] | None = None,
        extras: Extras = ...,
    ) -> bytes: ...


FOCUS_RENDERERS: dict[str, FocusRenderer[Any]] = {"yamatai": yamatai_focus, "namiji": namiji_focus}

#: Each game's seat colours as its pictures draw them, by the engine's colour names.
SEAT_COLOURS: dict[str, Mapping[str, RGB]] = {
    "yamatai": get_theme("default").players,
    "namiji": NAMIJI_SEATS,
}

#: A turn's changes in words, as a game's pictures tell them: (name, seat, events) -> "Ann: ...".
TurnWords = Callable[[str, int, Sequence[Event]], str]
TURN_WORDS: dict[str, TurnWords] = {"yamatai": yamatai_turn_words, "namiji": namiji_turn_words}

#: Each game's picture texts: a folder of ``<lang>.json`` files.
TEXTS: dict[str, Traversable] = {"yamatai": yamatai.LOCALE, "namiji": namiji.LOCALE}
for _folder in TEXTS.values():
    words.add_texts(_folder)


def register(
    game: str,
    renderer: BoardRenderer[Any],
    focus: FocusRenderer[Any] | None = None,
    texts: Traversable | None = None,
    colours: Mapping[str, RGB] | None = None,
    said: TurnWords | None = None,
) -> None:
    """Add a game's picture, turn picture, picture texts, seat colours and turns in words (the
    lines above list the shipped games)."""
    RENDERERS[game] = renderer
    if said is not None:
        TURN_WORDS[game] = said
    if focus is not None:
        FOCUS_RENDERERS[game] = focus
    if colours is not None:
        SEAT_COLOURS[game] = colours
    if texts is not None:
        TEXTS[game] = texts
        words.add_texts(texts)


def seat_colour(game: str, colour: str) -> RGB | None:
    """The colour a game's pictures give a seat of the engine's ``colour``, if known."""
    return SEAT_COLOURS.get(game, {}).get(colour)


def turn_words(
    game: str, who: str, seat: int, events: Sequence[Event], *, language: str
) -> str | None:
    """What ``who`` (at ``seat``) did, said from the events of a turn or an action in the
    pictures' words of ``language`` ("Ann: took fleet 4; placed boats on spots 12, 13"); None
    for a game whose pictures do not tell turns."""
    said = TURN_WORDS.get(game)
    if said is None:
        return None
    with words.speaking(language):
        return said(who, seat, events)


def render_board(
    view: View, *, events: Sequence[Event] | None = None, extras: Extras = PLAIN
) -> bytes:
    """The picture of any registered game's view as PNG bytes (events: the turn to mark), drawn
    with ``extras``: its language (en, fr, it, pl; any other: English) and theme, and the bot's
    extras (the seats a computer plays for their human and why, the last turn played so, why
    the bot ended the game, the seconds left in each seat's time bank; see render.stand_in)."""
    game = str(view.get("game", ""))
    renderer = RENDERERS.get(game)
    if renderer is None:
        raise UnknownGame(f"No picture for game {game!r}.", legal=sorted(RENDERERS))
    return renderer(view, events=events, extras=extras)


def render_focus(
    view: View,
    *,
    legal: Sequence[str],
    events: Sequence[Event] | None = None,
    extras: Extras = PLAIN,
) -> bytes:
    """The turn picture of any registered game for the player to move, the ``legal`` actions'
    spots, islands or cards marked, as PNG bytes (about 900 px wide, read on a phone); drawn
    with ``extras`` as for ``render_board``, whose ``since`` (the others' turns since the
    viewer's last one, each seat and its events) is told in words and its places marked,
    instead of the last turn (``first_turn``: since the game began, the viewer has had none)."""
    game = str(view.get("game", ""))
    renderer = FOCUS_RENDERERS.get(game)
    if renderer is None:
        raise UnknownGame(f"No turn picture for game {game!r}.", legal=sorted(FOCUS_RENDERERS))
    return renderer(view, legal=legal, events=events, extras=extras)


__all__ = [
    "FOCUS_RENDERERS",
    "RENDERERS",
    "SEAT_COLOURS",
    "TEXTS",
    "THEMES",
    "TURN_WORDS",
    "BoardRenderer",
    "Extras",
    "FocusRenderer",
    "Theme",
    "TurnWords",
    "get_theme",
    "register",
    "render_board",
    "render_focus",
    "seat_colour",
    "turn_words",
]
