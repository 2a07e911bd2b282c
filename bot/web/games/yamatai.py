"""Yamatai on the web page: the specialists' texts, the players' fields and their values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot.games.base import Texts, counted
from bot.games.yamatai import culture_name
from render import words as picture_words

from . import times

CARD_TEXTS = "y.specialist."
FIELD_TEXTS = "y.col."
BOATS = frozenset({"bamboo", "wood", "stone", "clay", "gold"})
HIDDEN_SCORE = "y.focus.hidden_score"  # the pictures' note on what "+?" stands for


def score(player: Mapping[str, Any], language: str) -> tuple[str, str | None]:
    """A running score as the spectator's view has it: without the PP of face-down building
    tiles (R34), "+?" standing for them, and the pictures' note saying so."""
    total = player.get("score", {}).get("total", 0)
    if not player.get("hidden_tiles"):
        return (str(total), None)
    return (f"{total}+?", picture_words.say(HIDDEN_SCORE, language))


def words(t: Texts, field: str, value: Any) -> list[str] | None:
    """A player's field in words (``t``: the game's language): boats by type and count,
    culture tokens by name; None for a field shown as it is (numbers, tiles, names)."""
    if field in ("boats", "set_aside") and isinstance(value, list) and set(value) <= BOATS:
        return [counted(t, f"yamatai.summary.boats.{b}", n) for b, n in Counter(value).items()]
    if field == "tokens" and isinstance(value, dict):
        return [times(t, culture_name(t, str(c)), n) for c, n in value.items() if n]
    if field == "reserved" and isinstance(value, list):
        return [_tile(t, tile) for tile in value if isinstance(tile, dict)]
    return None


def _tile(t: Texts, tile: dict[str, Any]) -> str:
    """A reserved building tile: its code, prestige points and the boats it takes."""
    boats = Counter(b for b in tile.get("boats", []) if b in BOATS)
    needs = ", ".join(counted(t, f"yamatai.summary.boats.{b}", n) for b, n in boats.items())
    return f"{tile.get('id', '?')}: {tile.get('pp', 0)} PP ({needs})"
