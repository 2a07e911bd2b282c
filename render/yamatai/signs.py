"""How the picture names pieces: boat and culture letters in the picture's language (no two
pieces share one in a language), tile labels and names."""

from __future__ import annotations

from engine.yamatai.components import load_components
from render.words import say

__all__ = ["boat_letters", "culture_letters", "tile_label", "tile_sign", "tile_words"]

SIGNED = ("torii", "palace")
"""The kinds of tile the picture draws as the key's sign and a number (the texts' number)."""


def boat_letters(language: str | None = None) -> dict[str, str]:
    """Boat name -> its letter in the picture's language, or ``language`` (en: G W S C Y)."""
    return {boat: say(f"y.letter.{boat}", language) for boat in load_components().boat_names}


def culture_letters(language: str | None = None) -> dict[str, str]:
    """Culture name -> the letter on its token in the picture's language, or ``language``
    (en: R T K P L N; sake is N, nihonshu, as S is stone's)."""
    return {name: say(f"y.letter.{name}", language) for name in load_components().culture_names}


def tile_label(tile_id: str) -> str:
    """A building tile's text as the picture writes it: ``B07`` is ``#07``, so no tile reads
    like an island label (``B2``), as the key says ("#07 = building 7"); a torii ``T1`` or a
    palace ``P2`` is its number alone ("1", "2", as the texts number it: "torii 1"), drawn
    after its sign (``tile_sign``) or under its banner, never its code."""
    if tile_id[:1] == "B" and tile_id[1:].isdigit():
        return "#" + tile_id[1:]
    if tile_sign(tile_id):
        return tile_id[1:]
    return tile_id


def tile_sign(tile_id: str) -> str | None:
    """The kind whose sign (the key's torii or palace) the picture draws before a tile's
    number: "torii" for ``T1``, "palace" for ``P2``; None for other tiles."""
    tile = load_components().buildings.get(tile_id)
    if tile is None or tile.kind not in SIGNED or not tile_id[1:].isdigit():
        return None
    return tile.kind


def tile_words(tile_id: str, role: str = "tile") -> str:
    """A building tile in words, by the number its picture draws, as the turn panel names it
    (``B07`` "building 7", ``B03`` "trading post 3", ``T2`` "torii 2"; ``y.tile.<kind>``), or
    with ``role`` "tile_object" as a verb's object (French "le torii n° 2", Polish "faktorię
    nr 3"; ``y.tile_object.<kind>``); a code that is no tile as it is."""
    tile = load_components().buildings.get(tile_id)
    if tile is None or not tile_id[1:].isdigit():
        return tile_id
    return say(f"y.{role}.{tile.kind}", number=int(tile_id[1:]))
