"""How the picture names pieces: boat and culture letters, tile labels (no two kinds share one)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.yamatai.components import load_components

__all__ = ["CULTURE_SIGNS", "boat_letters", "culture_letters", "tile_label"]


def boat_letters() -> dict[str, str]:
    """Boat name -> letter (G W S C Y)."""
    comp = load_components()
    return dict(zip(comp.boat_names, comp.boat_letters, strict=True))


#: Culture letters the picture writes instead of the components' ones, so that no culture
#: shares a letter with a boat (sake's S is stone's; N for nihonshu, sake's Japanese name).
CULTURE_SIGNS: Mapping[str, str] = {"sake": "N"}


def culture_letters() -> dict[str, str]:
    """Culture name -> the letter on its token (none is a boat letter)."""
    comp = load_components()
    letters = dict(zip(comp.culture_names, comp.culture_letters, strict=True))
    return {**letters, **{k: v for k, v in CULTURE_SIGNS.items() if k in letters}}


def tile_label(tile_id: str) -> str:
    """A building tile as the picture writes it: ``B07`` is ``#07``, so no tile reads like an
    island label (``B2``); palaces ``P2`` and torii ``T1`` keep their id (no island column P/T)."""
    if tile_id[:1] == "B" and tile_id[1:].isdigit():
        return "#" + tile_id[1:]
    return tile_id
