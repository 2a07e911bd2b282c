"""Yamatai's pictures never write a torii's or palace's code ("T3", "P4"): the building row,
the players' built and reserved tiles and the turn picture say the number the texts say
("torii n° 3", "palais n° 4"), after the key's torii or palace sign (issue 38, V1's finding 2)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from render import turn_words
from render.extras import Extras
from render.text import measuring
from render.yamatai.highlight import Highlight
from render.yamatai.picture import render_board
from render.yamatai.signs import tile_label, tile_sign
from tests.render.games import play_turns

LANGUAGES = ("en", "fr", "it", "pl")
CODE = re.compile(r"\b[TP]\d\b")
GAMES = ((2, 3), (3, 5), (4, 7))  # players, seed: finished games with torii and palaces drawn


@cache
def _final(players: int, seed: int) -> tuple[Any, Highlight]:
    match, last = play_turns(players, seed, None)
    return match.view(None), last


def _signed(view: dict[str, Any]) -> set[str]:
    """The torii and palaces the picture shows: in the row, built or reserved."""
    row = {str(t["id"]) for t in view.get("building_row", [])}
    built = {str(t) for p in view["players"] for t in p.get("tiles", [])}
    reserved = {str(t["id"]) for p in view["players"] for t in p.get("reserved", [])}
    return {t for t in row | built | reserved if t[0] in "TP"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_the_board_picture_writes_no_torii_or_palace_code(
    players: int, seed: int, lang: str
) -> None:
    view, last = _final(players, seed)
    assert _signed(view), "the game shows no torii or palace: choose another"
    with measuring() as drawn:
        render_board(view, highlight=last, extras=Extras(language=lang))
    texts = [d.text for d in drawn]
    assert not [t for t in texts if CODE.search(t)], texts
    numbers = " ".join(texts).split()
    for tile in _signed(view):
        assert tile[1:] in numbers, (tile, texts)


def test_a_torii_or_palace_is_its_sign_and_number() -> None:
    """The picture's label of a torii or palace is the number the texts give it, drawn after
    the key's sign; a standard building stays "#07" as the key explains."""
    assert (tile_label("T1"), tile_sign("T1")) == ("1", "torii")
    assert (tile_label("P4"), tile_sign("P4")) == ("4", "palace")
    assert (tile_label("B07"), tile_sign("B07")) == ("#07", None)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "reserved torii 3"),
        ("fr", "a réservé le torii n° 3"),
        ("it", "ha riservato il Torii n. 3"),
        ("pl", "rezerwuje torii nr 3"),
    ],
)
def test_the_turn_picture_names_a_reserved_torii(lang: str, said: str) -> None:
    events: list[dict[str, Any]] = [
        {"type": "fleet", "seat": 0, "fleet": 4},
        {"type": "reserve", "tile": "T3"},
    ]
    words = str(turn_words("yamatai", "Ann", 0, events, language=lang)).replace("\xa0", " ")
    assert said in words, words
    assert not CODE.search(words)


def test_a_reserved_trading_post_is_named_in_its_case() -> None:
    events: list[dict[str, Any]] = [
        {"type": "fleet", "seat": 0, "fleet": 4},
        {"type": "reserve", "tile": "B03"},
    ]
    words = str(turn_words("yamatai", "Ann", 0, events, language="pl")).replace("\xa0", " ")
    assert "rezerwuje faktorię nr 3" in words, words
