"""Computer players of any game: pure, seeded functions from a seat's view to a legal action."""

from __future__ import annotations

from typing import Any

from engine.rng import Rng


def seeded(view: dict[str, Any], seed: int) -> Rng:
    """A generator for one decision: the player's seed and the game's version."""
    return Rng(seed * 1_000_003 + int(view.get("version", 0)))


def legal_of(view: dict[str, Any]) -> list[str]:
    """The legal actions a seat's view lists (ValueError if it is not that seat's turn)."""
    legal: list[str] = view["legal_actions"]
    if not legal:
        raise ValueError("the view has no legal actions: it is not this seat's turn")
    return legal


def random_player(view: dict[str, Any], seed: int) -> str:
    """A uniformly random legal action (works for every game)."""
    legal = legal_of(view)
    return legal[seeded(view, seed).below(len(legal))]
