"""A Yamatai building tile has one name a reader understands, the same in the texts and on the
picture (issue 38 play-through, finding 8): "Réserver le bâtiment B04", "a réservé B16", the
web's "Tuiles Bâtiment : B09, B06, P4", while the picture draws "#06", "T2" and keys
"#07 = tuile B07". The typed notation keeps the codes."""

from __future__ import annotations

import re

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from bot.games.base import Texts
from bot.games.yamatai import tile_name
from bot.service.results import PlayerInfo
from bot.summary import Summary
from bot.web.seats import seat_rows
from engine import games
from engine.yamatai.components import load_components
from render.words import say
from render.yamatai.signs import tile_label

NB = "\u00a0"
LANGUAGES = ("en", "fr", "it", "pl")
#: A tile's code as the notation writes it (B01..B21, T1..T3, P1..P4; an island is B1).
CODE = re.compile(r"\bB\d\d\b|\b[TP]\d\b")
NAMES = ("Ann", "Bo")
PLAYERS = tuple(
    PlayerInfo(seat=s, name=n, user_id=s + 1, colour=c)
    for s, (n, c) in enumerate(zip(NAMES, ("red", "blue"), strict=True))
)


def _texts(locale: str) -> Texts:
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, locale, **params)


def _label(locale: str, action: str) -> str:
    return str(presentation("yamatai").panel_label(_texts(locale), {}, action))


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_tile_is_named_by_the_number_the_picture_draws(locale: str) -> None:
    """Each tile's name carries no code and the number printed on its picture ("#07" is
    building 7, "T2" torii 2); the picture's key explains "#07" with the same name."""
    t = _texts(locale)
    names = set()
    for code in load_components().buildings:
        name = tile_name(t, code)
        assert not CODE.search(name) and "{" not in name, (code, name)
        drawn = int(tile_label(code).lstrip("#TP"))
        assert re.findall(r"\d+", name) == [str(drawn)], (code, name, tile_label(code))
        names.add(name)
    assert len(names) == len(load_components().buildings)  # no two tiles read alike
    assert tile_label("B07") == "#07"
    assert say("y.key.tile", locale) == f"= {tile_name(t, 'B07')}"


def test_the_names_in_french_and_polish() -> None:
    fr, pl = _texts("fr"), _texts("pl")
    assert [tile_name(fr, c) for c in ("B07", "B03", "T2", "P4")] == [
        f"bâtiment n°{NB}7",
        f"échoppe n°{NB}3",
        f"torii n°{NB}2",
        f"palais n°{NB}4",
    ]
    assert [tile_name(pl, c) for c in ("B07", "B03", "T2", "P4")] == [
        f"budynek nr{NB}7",
        f"faktoria nr{NB}3",
        f"torii nr{NB}2",
        f"pałac nr{NB}4",
    ]


def test_the_panel_reserves_and_builds_a_tile_by_its_name() -> None:
    """QA: "Réserver le bâtiment B04"; the object takes its article (fr) or case (pl)."""
    assert _label("fr", "reserve B16") == f"Réserver le bâtiment n°{NB}16"
    assert _label("fr", "reserve B04") == f"Réserver l'échoppe n°{NB}4"
    assert _label("fr", "build P3 C4") == f"Construire le palais n°{NB}3 sur C4"
    assert _label("pl", "reserve B04") == f"Zarezerwuj faktorię nr{NB}4"
    assert _label("pl", "build P3 C4") == f"Zbuduj pałac nr{NB}3 na wyspie C4"
    assert _label("pl", "build T1") == f"Zbuduj torii nr{NB}1"
    assert _label("fr", "arrange B03 B11 / P2") == (
        f"Remettre{NB}: échoppe n°{NB}3 et bâtiment n°{NB}11 sur la pioche, palais n°{NB}2 dessous"
    )
    shown = presentation("yamatai")
    for locale in ("fr", "pl"):
        about = shown.panel_description(_texts(locale), {}, "reserve B16")
        assert about is not None and "4 PP" in about.replace(NB, " "), about
        assert not CODE.search(about), about
        arranged = shown.panel_description(_texts(locale), {}, "arrange B05 / T3 B13")
        assert arranged is not None and not CODE.search(arranged), arranged
        assert arranged.startswith(tile_name(_texts(locale), "B05")), arranged


@pytest.mark.parametrize(
    ("locale", "said"),
    [("fr", f"a réservé le bâtiment n°{NB}16"), ("pl", f"rezerwuje budynek nr{NB}16")],
)
def test_the_thread_says_which_tile_was_reserved_by_its_name(locale: str, said: str) -> None:
    """QA: "a réservé B16" in the turn's summary."""
    turn = [
        {"type": "fleet", "seat": 0, "fleet": 2, "boats": ["wood"], "missing": []},
        {"type": "reserve", "seat": 0, "tile": "B16"},
        {"type": "end_turn", "seat": 0},
    ]
    text = Summary(default_catalog(), locale, "yamatai").turn("Ann", turn, NAMES)
    assert said in text and "B16" not in text, text


@pytest.mark.parametrize(
    ("locale", "built", "reserved"),
    [
        ("fr", (f"bâtiment n°{NB}9", f"bâtiment n°{NB}6", f"palais n°{NB}4"), f"palais n°{NB}3"),
        ("pl", (f"budynek nr{NB}9", f"budynek nr{NB}6", f"pałac nr{NB}4"), f"pałac nr{NB}3"),
    ],
)
def test_the_web_page_names_built_and_reserved_tiles(
    locale: str, built: tuple[str, ...], reserved: str
) -> None:
    """QA: "Tuiles Bâtiment : B09, B06, P4", "Tuiles réservées : P3 : 7 PP (...)"."""
    view = {
        "players": [
            {
                "name": "Ann",
                "tiles": ["B09", "B06", "P4"],
                "reserved": [{"id": "P3", "boats": ["wood", "stone", "clay", "gold"], "pp": 7}],
            }
        ]
    }
    rows = dict(seat_rows("yamatai", view, 0, default_catalog(), locale))
    assert built in rows.values(), rows
    [shown] = [v for v in rows.values() if any("PP" in x for x in v)]
    colon = f"{NB}: " if locale == "fr" else ": "
    assert shown[0].startswith(f"{reserved}{colon}7 PP ("), shown
    assert not any(CODE.search(" ".join(v)) for v in rows.values()), rows


@pytest.mark.parametrize("locale", ["fr", "pl"])
def test_no_panel_choice_about_a_tile_shows_its_code(locale: str) -> None:
    """Every reserve, build and put-back choice of whole games, and the words of their
    turns, name the tiles (the value of a choice stays the notation)."""
    t = _texts(locale)
    shown = presentation("yamatai")
    summary = Summary(default_catalog(), locale, "yamatai")
    seen = set()
    for seed in (1, 2, 3):
        match = games.new("yamatai", list(NAMES), seed=seed)
        while (seat := match.current_seat) is not None:
            view = match.view(seat)
            for action in match.legal_actions():
                kind = action.split()[0]
                if kind not in ("reserve", "build", "arrange"):
                    continue
                seen.add(kind)
                for text in (
                    shown.panel_label(t, view, action),
                    shown.panel_description(t, view, action) or "",
                ):
                    assert not CODE.search(text), (action, text)
            action = _prefer_powers(match.legal_actions())
            events = match.play(action, seat=seat)
            assert not CODE.search(summary.actions(events, NAMES)), (action, events)
    assert seen == {"reserve", "build", "arrange"}


def _prefer_powers(legal: list[str]) -> str:
    """The fleet 2 and 3 powers whenever offered, so their words are read; else the first."""
    for kind in ("fleet 2", "fleet 3", "reserve", "look", "arrange", "build"):
        found = [a for a in legal if a.startswith(kind)]
        if found:
            return found[0]
    return legal[0]
