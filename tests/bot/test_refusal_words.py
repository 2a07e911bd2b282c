"""A Yamatai refusal names boats and culture tokens in the reader's words (issue 38, play-through
46 item 1): the French said "Tu n'as pas de bateau bamboo à vendre", "jeton silk", the Polish
"Nie masz łodzi (bamboo)", the engine's own words inside the sentence. Each refusal that names a
boat or a token, made by the engine's own rules and shown by the bot (``error_text``), reads no
engine word in French, Italian or Polish; the English sentence stays the engine's."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.present import error_text
from bot.service import EngineRejected, ServiceError
from bot.service.errors import rejected
from engine.errors import EngineError
from engine.games import Match, new
from engine.yamatai.components import load_components
from engine.yamatai.refusals import REFUSALS as YAMATAI

CATALOG = default_catalog()
COMPONENTS = load_components()
#: The engine's words for boats and culture tokens ("bamboo", "silk"...).
ENGINE_WORDS = (*COMPONENTS.boat_names, *COMPONENTS.culture_names)

#: Each refusal that names boats or tokens, with data as the engine's rules give it.
REFUSALS: dict[str, dict[str, Any]] = {
    "choose_extra_boat": {"fleet": 10, "boats": "bamboo, wood, clay"},
    "reserve_empty": {"boat": "stone"},
    "reserve_empty.fleet": {"boat": "stone", "boats": "bamboo, wood"},
    "gold_not_tradable": {"boat": "gold"},
    "unaffordable": {"boat": "clay", "price": 4, "coins": 2},
    "no_such_boat.sell": {"boat": "bamboo"},
    "no_such_boat.place": {"boat": "bamboo", "held": 3},
    "no_such_boat.none": {"boat": "wood", "held": 0},
    "not_an_entry": {"boat": "clay", "spot": 12},
    "missing_boats": {"tile": "B07", "boats": "bamboo, bamboo, wood", "island": "C4", "count": 2},
    "missing_tokens": {"tokens": "silk silk rice"},
    "missing_tokens.one": {"culture": "silk"},
    "unknown_boat": {"word": "'x'", "boats": ", ".join(COMPONENTS.boat_names)},
    "unknown_culture": {"word": "'x'", "cultures": ", ".join(COMPONENTS.culture_names)},
}


def engine_words_in(text: str, lang: str) -> list[str]:
    """The engine's boat and culture words ``text`` holds, where the language's own word for the
    thing is another (Polish "sake" is Polish too)."""
    own = " ".join(
        CATALOG.text(f"yamatai.{kind}.{name}", lang)
        for kind, names in (("boat", COMPONENTS.boat_names), ("culture", COMPONENTS.culture_names))
        for name in names
    )
    return [
        word
        for word in ENGINE_WORDS
        if re.search(rf"\b{word}\b", text) and not re.search(rf"\b{word}\b", own)
    ]


@pytest.mark.parametrize("lang", ["fr", "it", "pl"])
@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_a_refusal_names_boats_and_tokens_in_the_readers_words(key: str, lang: str) -> None:
    refusal = YAMATAI.illegal(key, **REFUSALS[key])
    shown = error_text(CATALOG, EngineRejected(refusal), lang)
    assert engine_words_in(shown, lang) == [], shown
    assert "{" not in shown and "(bambus)" not in shown, shown


def test_the_words_are_the_languages_own() -> None:
    """What the sentences read, in each language (the boat's kind after the word for boat),
    in lower case after the frame's colon but in English."""

    def shown(key: str, lang: str) -> str:
        return error_text(CATALOG, EngineRejected(YAMATAI.illegal(key, **REFUSALS[key])), lang)

    assert "tu n'as pas de bateau de bambou à vendre." in shown("no_such_boat.sell", "fr")
    assert "nie masz łodzi z bambusem na sprzedaż." in shown("no_such_boat.sell", "pl")
    assert "non hai navi di bambù da vendere." in shown("no_such_boat.sell", "it")
    assert "tu n'as pas de jeton soie." in shown("missing_tokens.one", "fr")
    assert "tu n'as pas les jetons soie \u00d72 et riz." in shown("missing_tokens", "fr")
    assert "un bateau d'argile coûte 4 pièces" in shown("unaffordable", "fr")
    assert "2 łodzie z bambusem i łódź z drewnem" in shown("missing_boats", "pl")
    assert "You have no bamboo boat to sell." in shown("no_such_boat.sell", "en")


def _refused(match: Match, text: str) -> ServiceError:
    """The bot's refusal of ``text`` (``/play``'s, with the game and the player's view)."""
    seat = match.current_seat
    assert seat is not None
    with pytest.raises(EngineError) as caught:
        match.preview(text, seat=seat)
    return rejected(caught.value, match, seat, text.split("; "))


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_refusals_of_a_real_game_read_no_engine_word(lang: str) -> None:
    """Refusals the engine's rules make in a real game, shown by the bot."""
    match = new("yamatai", ["Ann", "Bo"], seed=3)
    fleet = next(a for a in match.legal_actions() if a.startswith("fleet"))
    refusals = [_refused(match, f"{fleet}; buy gold")]
    seat = match.current_seat
    assert seat is not None
    match.play(fleet, seat=seat)
    held = match.view(seat)["players"][seat]["boats"]
    missing = next(b for b in COMPONENTS.boat_names if b != "gold" and b not in held)
    refusals.append(_refused(match, f"sell {missing}"))
    keys = [r.refusal.key for r in refusals if r.refusal is not None]
    assert keys == ["gold_not_tradable", "no_such_boat.sell"]
    for refusal in refusals:
        shown = error_text(CATALOG, refusal, lang)
        words = re.sub(r"`[^`]*`", "", shown)  # the notation, marked as such, is the engine's
        assert engine_words_in(words, lang) == [], shown


#: A building tile's code as the engine writes it (an island is B1, a tile B01).
TILE_CODE = re.compile(r"\bB\d\d\b|\b[TP]\d\b")

#: Each refusal that names building tiles (issue 38: "B07 demande 2 bateaux…", "(B07 B12)"),
#: with data as the engine's rules give it.
TILE_REFUSALS: dict[str, dict[str, Any]] = {
    "tile_not_available": {"tile": "B03"},
    "tile_not_available.reserved": {"tile": "B07", "player": "Ann"},
    "tile_not_available.row": {"tile": "T2", "row": "B07, B03, P1"},
    "missing_boats": REFUSALS["missing_boats"],
    "arrange_first": {"tiles": "B07 B12"},
    "arrange_mismatch": {"tiles": "B07 P2 B03"},
    "unknown_tile": {"word": "'x'"},
}


def tile_codes_in(text: str) -> list[str]:
    """The building tile codes ``text`` holds outside its notation (marked in backticks)."""
    return TILE_CODE.findall(re.sub(r"`[^`]*`", "", text))


@pytest.mark.parametrize("lang", ["fr", "it", "pl"])
@pytest.mark.parametrize("key", sorted(TILE_REFUSALS))
def test_a_refusal_names_building_tiles_by_their_number(key: str, lang: str) -> None:
    refusal = YAMATAI.illegal(key, **TILE_REFUSALS[key])
    shown = error_text(CATALOG, EngineRejected(refusal), lang)
    assert tile_codes_in(shown) == [], shown
    assert "{" not in shown, shown


def test_the_tiles_are_said_as_the_panel_says_them() -> None:
    """The tile begins its sentence in the form a subject takes; lists name each tile."""

    def shown(key: str, lang: str) -> str:
        refusal = YAMATAI.illegal(key, **TILE_REFUSALS[key])
        return error_text(CATALOG, EngineRejected(refusal), lang)

    nb = "\u00a0"
    fr = f"Le bâtiment n°{nb}7 demande 2 bateaux de bambou et un bateau de bois à côté de C4"
    assert fr in shown("missing_boats", "fr")
    assert f"Budynek nr{nb}7 wymaga obok wyspy C4" in shown("missing_boats", "pl")
    assert f"L'échoppe n°{nb}3 n'est pas dans la ligne de bâtiments." in shown(
        "tile_not_available", "fr"
    )
    assert f"Faktoria nr{nb}3 nie leży w rzędzie budynków." in shown("tile_not_available", "pl")
    assert f"Le bâtiment n°{nb}7 fait partie des tuiles réservées par Ann." in shown(
        "tile_not_available.reserved", "fr"
    )
    assert f"(bâtiment n°{nb}7 et bâtiment n°{nb}12) avec `arrange`" in shown("arrange_first", "fr")
    assert f"kafelki: budynek nr{nb}7, pałac nr{nb}2 i faktoria nr{nb}3." in shown(
        "arrange_mismatch", "pl"
    )
    assert "`B01`…`B21`" in shown("unknown_tile", "fr")  # what to type, marked as notation
    assert f"Building{nb}7 needs 2 bamboo boats" in shown("missing_boats", "en")


@pytest.mark.parametrize("lang", ["fr", "it", "pl"])
def test_a_real_refused_reservation_names_the_tiles(lang: str) -> None:
    """Reserving a tile that is not in the row, in a real game: the tile and the row in words."""
    match = new("yamatai", ["Ann", "Bo"], seed=3)
    seat = match.current_seat
    assert seat is not None
    row = [tile["id"] for tile in match.view(seat)["building_row"]]
    absent = next(code for code in COMPONENTS.buildings if code not in row)
    refusal = _refused(match, f"fleet 2; reserve {absent}")
    assert refusal.refusal is not None and refusal.refusal.key == "tile_not_available.row"
    shown = error_text(CATALOG, refusal, lang)
    assert tile_codes_in(shown) == [], shown
    said = CATALOG.text("yamatai.tile.torii", lang, number=2)  # T2 is in this row
    assert said in shown, shown
