"""Namiji's words as a French, Polish or Italian player reads them (issue 38, play-through 46
Namiji items 6, 9, 13, 24, 26, 28, 31): nets of two fish in the plural ("deux fugus verts",
was "deux fugu vert"), meals named in the language ("maki" in Polish, was the engine's French
"makis"), a Polish fish's colour agreeing with its shape ("niebieska saba", was "niebieski
saba"), the web page's nets told apart and the arrival token by its points (was "A5"), equal
crustacean draws said once with their number, the trap's draws without "1 (crabes : 1)", the
move menu's name fit for the neutral boat too."""

from __future__ import annotations

import re

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from bot.games.base import Texts
from bot.summary import Summary
from bot.web.seats import seat_rows
from bot.web.texts import web_catalog
from engine import games
from engine.namiji.components import components
from engine.players import random_player

NAMES = ["Ann", "Bo", "Cy"]
NAMIJI = presentation("namiji")
#: A Polish adjective before a feminine noun ends in -a ("niebieska saba").
POLISH_FEMININE = re.compile(r"\b(\w+) saba\b")


def texts(lang: str) -> Texts:
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, lang, **params)


def _random_game_words(lang: str, seed: int) -> tuple[list[str], list[str]]:
    """Every turn message and every panel label offered in a random 3-player game."""
    summary, t = Summary(default_catalog(), lang, "namiji"), texts(lang)
    match = games.new("namiji", NAMES, seed=seed)
    said, labels = [], []
    while (seat := match.current_seat) is not None:
        view = match.view(seat)
        labels += [NAMIJI.panel_label(t, view, a) for a in match.legal_actions()]
        said.append(summary.turn(NAMES[seat], match.play(random_player(view, seat), seat), NAMES))
    return said, labels


def test_a_french_net_of_two_fish_is_in_the_plural() -> None:
    t = texts("fr")
    view: dict[str, object] = {}
    assert NAMIJI.panel_label(t, view, "net N:gf r1c1 h") == (
        "Filet de deux fugus verts\u00a0: ligne 1, colonnes 1 et 2"
    )
    assert NAMIJI.panel_label(t, view, "net N:os") == "Placer le filet de deux sabas orange"
    placed = [{"type": "net_placed", "seat": 0, "net": "bt", "cell": "r2c1", "orientation": "v"}]
    told = Summary(default_catalog(), "fr", "namiji").turn("Ann", placed, NAMES)
    assert "un filet de deux tais bleus à la verticale" in told, told


@pytest.mark.parametrize("seed", [3, 11])
def test_every_french_net_said_in_a_whole_game_agrees_with_deux(seed: int) -> None:
    said, labels = _random_game_words("fr", seed)
    pairs = re.findall(r"deux (\w+) (\w+)", "\n".join(said + labels))
    assert pairs, "no net in this game: the test proves nothing"
    for shape, colour in pairs:
        assert shape.endswith("s") and (colour.endswith("s") or colour == "orange"), (shape, colour)


def test_a_polish_fish_agrees_with_its_shape() -> None:
    t = texts("pl")
    assert NAMIJI.panel_label(t, {}, "fish bs") == "Złów rybę: niebieska saba"
    assert NAMIJI.panel_label(t, {}, "fish gt") == "Złów rybę: zielony tai"
    said, labels = _random_game_words("pl", 3)
    found = POLISH_FEMININE.findall("\n".join(said + labels))
    assert found and all(word.endswith("a") for word in found), found


@pytest.mark.parametrize("lang", ["fr", "pl", "it", "en"])
def test_every_meal_is_named_in_the_language(lang: str) -> None:
    t = texts(lang)
    expected = default_catalog().text("namiji.meal.M6", lang)
    assert expected == ("makis" if lang == "fr" else "maki")
    assert NAMIJI.card_name(t, "M6") == expected
    assert f" {expected} (" in NAMIJI.panel_label(t, {}, "pick M6")
    assert f"({expected})" in (NAMIJI.panel_description(t, {}, "pick M6") or "")
    taken = [{"type": "pontoon_card", "seat": 0, "card": "M6"}]
    told = Summary(default_catalog(), lang, "namiji").turn("Ann", taken, NAMES)
    assert f" {expected} (" in told, told
    web = NAMIJI.web.card_words
    assert web is not None and f"({expected})" in (web(t, "M6") or "")
    for code in components().meals:  # a name of its own in every language
        assert default_catalog().tables[lang].get(f"namiji.meal.{code}"), code


def _seat(lang: str, view_player: dict[str, object]) -> dict[str, tuple[str, ...]]:
    """A player's rows on the web page: {field name: values}."""
    view = {"players": [{"seat": 0, "name": "Ann", "colour": "green", **view_player}]}
    return dict(seat_rows("namiji", view, 0, web_catalog(), lang))


@pytest.mark.parametrize(
    ("lang", "first", "points"),
    [
        ("fr", "deux fugus orange (ligne 2, colonne 1, à la verticale)", "5 points"),
        ("pl", "dwie ryby: pomarańczowy fugu (pionowo, rząd 2, kolumna 1)", "5 punktów"),
        ("it", "due fugu arancioni (riga 2, colonna 1, in verticale)", "5 punti"),
        ("en", "two orange fugu (row 2, column 1, vertical)", "5 points"),
    ],
)
def test_web_nets_are_told_apart_and_the_arrival_token_by_its_points(
    lang: str, first: str, points: str
) -> None:
    rows = _seat(lang, {"nets": ["of r2c1 v", "ot r3c3 h"], "arrival": "A5"})
    nets = next(values for values in rows.values() if len(values) == 2)
    assert nets[0] == first, nets
    assert all(value.count("(") == 1 and value.endswith(")") for value in nets), nets
    assert (points,) in rows.values(), rows
    assert not any("A5" in value for values in rows.values() for value in values), rows
    assert ("A5",) not in rows.values()
    empty = _seat(lang, {"arrival": ""})
    assert all(values for values in empty.values())  # no arrival yet: no row


DRAWS = [
    {"type": "move", "seat": 0, "to": 43},
    *[{"type": "drawn", "seat": 0, "token": "SH"}] * 4,
    {"type": "drawn", "seat": 0, "token": "CB"},
    {"type": "crustaceans", "seat": 0, "tokens": ["SH"] * 4 + ["CB"]},
]


@pytest.mark.parametrize(
    ("lang", "told"),
    [
        ("fr", "a pioché 4 crevettes, a pioché un crabe, a pêché 5 crustacés"),
        ("pl", "dobiera 4 krewetki, dobiera kraba, łowi 5 skorupiaków"),
        ("it", "ha estratto 4 gamberi, ha estratto un granchio, ha pescato 5 crostacei"),
        ("en", "drew 4 shrimps, drew a crab, caught 5 crustaceans"),
    ],
)
def test_equal_draws_in_a_row_are_said_once_with_their_number(lang: str, told: str) -> None:
    said = Summary(default_catalog(), lang, "namiji").turn("Ann", DRAWS, NAMES)
    assert told in said, said


@pytest.mark.parametrize(
    ("lang", "drawn", "about"),
    [
        ("fr", ["CB"], "Déjà piochés\u00a0: 1, dont 1 crabe"),
        ("fr", ["SH", "SH"], "Déjà piochés\u00a0: 2, aucun crabe"),
        ("fr", ["SH", "CB", "CB"], "Déjà piochés\u00a0: 3, dont 2 crabes"),
        ("pl", ["CB"], "Dobrane dotąd: 1, w tym 1 krab"),
        ("pl", ["SH"], "Dobrane dotąd: 1, bez kraba"),
        ("pl", ["CB", "SH", "CB"], "Dobrane dotąd: 3, w tym 2 kraby"),
        ("pl", [], "Jeszcze nic nie dobrano"),
    ],
)
def test_the_trap_says_its_draws_and_crabs_in_words(
    lang: str, drawn: list[str], about: str
) -> None:
    assert NAMIJI.panel_description(texts(lang), {"drawn": drawn}, "draw") == about


@pytest.mark.parametrize("lang", ["fr", "pl", "it", "en"])
def test_the_move_menus_name_fits_the_neutral_boat_too(lang: str) -> None:
    """The move group's name is not the player's own sailing ("Avancer jusqu'à un
    emplacement") when its options move the neutral boat: it names moving a boat."""
    name = NAMIJI.panel_group_label(texts(lang), "move")
    boat = {"fr": "bateau", "pl": "łódź", "it": "barca", "en": "boat"}[lang]
    assert boat in name, name
