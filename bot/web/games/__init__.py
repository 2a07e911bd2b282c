"""What a game's web page shows of it beyond the generic: ``bot/web/games/<game key>.py``.

A module per game (optional) may name the prefixes of its picture texts that are card texts
(``CARD_TEXTS``: shown on hover and tap) and that name a player's fields (``FIELD_TEXTS``), put
a player's fields in words (``words(t, field, value)``: a list of texts in the game's language,
or None to show the value as it is), and show a player's running score as the spectator's view
has it (``score(player, language)``: the score and a note on what it leaves out, or None). It
is found by the game's key: nothing outside it names the game (tests/test_seam.py).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from functools import cache
from types import ModuleType
from typing import Any

from bot.games.base import Texts

#: A player's field in words: (texts of the game's language, field, value) -> texts, or None.
FieldWords = Callable[[Texts, str, Any], list[str] | None]
#: A player's running score as shown, and a note on what it leaves out (None: nothing).
Score = tuple[str, str | None]


@cache
def _module(game_key: str) -> ModuleType | None:
    """The game's web module, if it has one."""
    name = f"{__name__}.{game_key}"
    if not game_key.isidentifier() or importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def text_prefix(game_key: str, kind: str) -> str | None:
    """The game module's ``kind`` prefix (``CARD_TEXTS``, ``FIELD_TEXTS``), if it has one."""
    value = getattr(_module(game_key), kind, None)
    return value if isinstance(value, str) else None


def field_words(game_key: str) -> FieldWords | None:
    """The game module's ``words``, if it has one."""
    words = getattr(_module(game_key), "words", None)
    return words if callable(words) else None


def times(t: Texts, name: str, count: int) -> str:
    """A thing and how many: the name alone for one, "silk" and a count for more."""
    return name if count == 1 else t("web.value.counted", name=name, count=count)


def shown_score(game_key: str, player: Mapping[str, Any], language: str) -> Score:
    """A player's running score as the spectator's view of that player has it (never the
    engine's standing, which counts what a spectator may not see): the game module's
    ``score``, else the view's ``score`` (a number, or a mapping with its ``total``)."""
    own = getattr(_module(game_key), "score", None)
    if callable(own):
        found = own(player, language)
        if found is not None:
            return (str(found[0]), None if found[1] is None else str(found[1]))
    score = player.get("score", 0)
    if isinstance(score, Mapping):
        score = score.get("total", 0)
    return (str(score), None)
