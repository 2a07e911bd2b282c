"""What a game's web page shows of it beyond the generic: ``bot/web/games/<game key>.py``.

A module per game (optional) may name the prefixes of its picture texts that are card texts
(``CARD_TEXTS``: shown on hover and tap) and that name a player's fields (``FIELD_TEXTS``), and
put a player's fields in words (``words(t, field, value)``: a list of texts in the game's
language, or None to show the value as it is). It is found by the game's key: nothing outside
it names the game (tests/test_seam.py).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

from bot.games.base import Texts

#: A player's field in words: (texts of the game's language, field, value) -> texts, or None.
FieldWords = Callable[[Texts, str, Any], list[str] | None]


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
