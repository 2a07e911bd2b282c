"""Yamatai on the web page: the specialists' texts, the players' fields and their values."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.games.base import Texts, counted
from bot.games.yamatai import culture_name

from . import times

CARD_TEXTS = "y.specialist."
FIELD_TEXTS = "y.col."
BOATS = frozenset({"bamboo", "wood", "stone", "clay", "gold"})


def words(t: Texts, field: str, value: Any) -> list[str] | None:
    """A player's field in words (``t``: the game's language): boats by type and count,
    culture tokens by name; None for a field shown as it is (numbers, tiles, names)."""
    if field in ("boats", "set_aside") and isinstance(value, list) and set(value) <= BOATS:
        return [counted(t, f"yamatai.summary.boats.{b}", n) for b, n in Counter(value).items()]
    if field == "tokens" and isinstance(value, dict):
        return [times(t, culture_name(t, str(c)), n) for c, n in value.items() if n]
    return None
