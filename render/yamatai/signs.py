"""How the picture names pieces: boat and culture letters in the picture's language (no two
pieces share one in a language), tile labels and names."""

from __future__ import annotations

from engine.yamatai.components import load_components
from render.words import say

__all__ = ["boat_letters", "culture_letters", "tile_label", "tile_words"]


def boat_letters(language: str | None = None) -> dict[str, str]:
    """Boat name -> its letter in the picture's language, or ``language`` (en: G W S C Y)."""
    return {boat: say(f"y.letter.{boat}", language) for boat in load_components().boat_names}


def culture_letters(language: str | None = None) -> dict[str, str]:
    """Culture name -> the letter on its token in the picture's language, or ``language``
    (en: R T K P L N; sake is N, nihonshu, as S is stone's)."""
    return {name: say(f"y.letter.{name}", language) for name in load_components().culture_names}


def tile_label(tile_id: str) -> str:
    """A building tile as the picture writes it: ``B07`` is ``#07``, so no tile reads like an
    island label (``B2``); palaces ``P2`` and torii ``T1`` keep their id (no island column P/T)."""
    if tile_id[:1] == "B" and tile_id[1:].isdigit():
        return "#" + tile_id[1:]
    return tile_id


def tile_words(tile_id: str) -> str:
    """A building tile in words, by the number its picture draws, as the turn panel names it
    (``B07`` "building 7", ``B03`` "trading post 3", ``T2`` "torii 2"; ``y.tile.<kind>``); a
    code that is no tile as it is."""
    tile = load_components().buildings.get(tile_id)
    if tile is None or not tile_id[1:].isdigit():
        return tile_id
    return say(f"y.tile.{tile.kind}", number=int(tile_id[1:]))
