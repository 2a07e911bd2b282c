"""Yamatai's names a player may type in words: boats by material or colour, culture tokens."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from importlib.resources import files

from bot.games.typed import AS_TYPED, Names, locale_texts, names_of

#: Each boat's own words in the four languages beside the catalog's name ("bamboo boat"): its
#: material, its colour, and the forms a sentence gives them (Polish: "z bambusem", "zieloną").
BOAT_WORDS = {
    "bamboo": (
        "bamboo green g bambou vert verte bambù verde bambus bambusem bambusa bambusowa "
        "zielona zielony zieloną"
    ),
    "wood": (
        "wood brown w bois marron brun brune legno marrone drewno drewnem drewna drewniana "
        "brązowa brązowy brązową"
    ),
    "stone": (
        "stone black s pierre noir noire pietra nero nera kamień kamieniem kamienia kamienna "
        "czarna czarny czarną"
    ),
    "clay": (
        "clay red c argile rouge argilla rosso rossa glina gliną gliny gliniana czerwona "
        "czerwony czerwoną"
    ),
    "gold": ("gold yellow y or jaune oro giallo gialla złoto złotem złota złota żółta żółty żółtą"),
}
#: Culture tokens' other forms beside the catalog's names (plurals mostly).
CULTURE_WORDS = {
    "rice": "rices",
    "tea": "teas",
    "silk": "soies sete jedwabiu",
    "pottery": "poteries",
    "pearl": "pearls perles perle perły perel",
    "sake": "saké sakè",
}
#: Which arguments of each verb are names (``bot.games.typed.Names``).
VERBS = {
    "buy": ("boat",),
    "sell": ("boat",),
    "place": ("boat", AS_TYPED),
    "keep": ("*boat",),
    "fleet": (AS_TYPED, "boat"),
    "raijin": ("boat", "boat"),
    "nakatsu": ("boat", "boat"),
    "recruit": (AS_TYPED, "*culture"),
    "michimata": ("culture",),
    "hetsuka": ("culture",),
}


def _named() -> Iterator[tuple[str, str, str]]:
    for texts in locale_texts(files("bot.games.yamatai") / "locale").values():
        for boat in BOAT_WORDS:
            yield "boat", texts[f"yamatai.boat.{boat}"], boat
        for culture in CULTURE_WORDS:
            yield "culture", texts[f"yamatai.culture.{culture}"], culture
    for boat, words in BOAT_WORDS.items():
        yield from (("boat", word, boat) for word in words.split())
    for culture, words in CULTURE_WORDS.items():
        yield "culture", culture, culture
        yield from (("culture", word, culture) for word in words.split())


@cache
def typed_names() -> Names:
    """The names Yamatai's ``/play`` reads in words, in every language."""
    return names_of(VERBS, _named())
