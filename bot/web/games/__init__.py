"""What a game's web page shows of it beyond the generic: ``bot/web/games/<game key>.py``.

A module per game (optional) may name the prefixes of its picture texts that are card texts
(``CARD_TEXTS``: shown on hover and tap) and that name a player's fields (``FIELD_TEXTS``). It is
found by the game's key: nothing outside it names the game (tests/test_seam.py).
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache


@cache
def text_prefix(game_key: str, kind: str) -> str | None:
    """The game module's ``kind`` prefix (``CARD_TEXTS``, ``FIELD_TEXTS``), if it has one."""
    name = f"{__name__}.{game_key}"
    if not game_key.isidentifier() or importlib.util.find_spec(name) is None:
        return None
    value = getattr(importlib.import_module(name), kind, None)
    return value if isinstance(value, str) else None
