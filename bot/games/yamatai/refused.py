"""Yamatai's refusals in the reader's words: the boats, culture tokens and building tiles the
engine names in its own words ("bamboo", "silk", "B07") said as the catalog says them ("de
bambou", "soie", "le bâtiment n° 7")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from bot.games.base import Texts, counted, joined, language
from engine.yamatai.components import load_components
from render.words import say


def refusal_words(t: Texts, key: str, data: Mapping[str, object]) -> dict[str, object]:
    """The parameters of the refusal ``key`` that name boats or tokens, in words.

    ``{boat}`` follows the language's word for a boat ("bateau {boat}": "de bambou",
    ``yamatai.boat_kind.<type>``); ``{boats}`` lists whole boats ("bateau de bambou, bateau de
    bois"), counted for a building's needs ("2 bateaux de bambou et un bateau de bois") or, for
    an unknown boat, the short words a player may type ("bambou, bois"); ``{culture}``,
    ``{tokens}`` and ``{cultures}`` are culture tokens' names; ``{tile}`` is a building tile
    by the number its picture draws, as the subject that begins the sentence ("Le bâtiment n° 7
    n'est pas…", ``yamatai.tile_subject.<kind>``), ``{tiles}`` and ``{row}`` list tiles by name.
    """
    told: dict[str, object] = {}
    tile, tiles, row = data.get("tile"), data.get("tiles"), data.get("row")
    if isinstance(tile, str):
        told["tile"] = _tile(t, tile, "tile_subject")
    if isinstance(tiles, str):
        told["tiles"] = joined(t, [_tile(t, code, "tile") for code in tiles.split()])
    if isinstance(row, str):
        told["row"] = joined(t, [_tile(t, code.strip(), "tile") for code in row.split(",")])
    boat, boats = data.get("boat"), data.get("boats")
    if isinstance(boat, str):
        told["boat"] = t(f"yamatai.boat_kind.{boat}")
    if isinstance(boats, str):
        told["boats"] = _boats(t, key, [b.strip() for b in boats.split(",") if b.strip()])
    culture, tokens, cultures = data.get("culture"), data.get("tokens"), data.get("cultures")
    if isinstance(culture, str):
        told["culture"] = _culture(t, culture)
    if isinstance(tokens, str):
        told["tokens"] = tokens_listed(t, tokens.split())
    if isinstance(cultures, str):
        told["cultures"] = ", ".join(_culture(t, c.strip()) for c in cultures.split(","))
    return told


def _boats(t: Texts, key: str, boats: list[str]) -> str:
    """Boats named by a refusal, as its sentence wants them."""
    if key == "missing_boats":  # one name per boat: counted by type
        needs = Counter(boats)
        return joined(t, [counted(t, f"yamatai.summary.boats.{b}", n) for b, n in needs.items()])
    if key == "unknown_boat":  # what a player may type
        return ", ".join(say(f"y.boat.{b}", language(t)) for b in boats)
    return ", ".join(t(f"yamatai.boat.{b}") for b in boats)


def tokens_listed(t: Texts, cultures: list[str]) -> str:
    """Culture tokens in words, each kind once with its count (silk times 2 and rice, not "silk,
    silk and rice": ``yamatai.culture_counted``)."""
    named = [
        _culture(t, c) if n == 1 else t("yamatai.culture_counted", name=_culture(t, c), count=n)
        for c, n in Counter(cultures).items()
    ]
    return joined(t, named)


def _culture(t: Texts, culture: str) -> str:
    """A culture token's name (``yamatai.culture.<name>``)."""
    return t(f"yamatai.culture.{culture}")


def _tile(t: Texts, code: str, form: str) -> str:
    """A building tile (``B07``) named in ``form`` (``yamatai.<form>.<kind>``: "bâtiment n° 7");
    a code that is no tile stays as the engine wrote it."""
    tile = load_components().buildings.get(code)
    if tile is None:
        return code
    return t(f"yamatai.{form}.{tile.kind}", number=int(code[1:]))
