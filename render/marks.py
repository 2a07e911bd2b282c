"""How players are told apart without colour (any game): one mark, letter or digit, per seat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["player_marks"]


def player_marks(players: Sequence[Mapping[str, object]]) -> list[str]:
    """Each player's initial, or seat numbers 1..n when two initials collide."""
    initials = [(str(p.get("name", "")).strip()[:1] or "?").upper() for p in players]
    if len(set(initials)) == len(initials) and all(i.isalnum() for i in initials):
        return initials
    return [str(seat + 1) for seat in range(len(players))]
