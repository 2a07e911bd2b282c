"""Namiji's words from play-through 47 (findings 11, 12, 15): Polish says "przystanek" for a
station everywhere (``/rules`` said "na swojej stacji"), a move onto a pontoon names the
pontoon's slot in Polish as French does ("Płyń na pole 13 (miejsce 1)" did not), and a
panorama section's points agree with their number ("Rapporte 1 pts")."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from importlib.resources import files

import pytest

from bot.catalog import default_catalog
from bot.games import presentation

NAMIJI = presentation("namiji")


def _t(lang: str) -> Callable[..., str]:
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, lang, **params)


def test_polish_names_a_station_przystanek_in_every_bot_text() -> None:
    texts = json.loads((files("bot.games.namiji") / "locale" / "pl.json").read_text("utf-8"))
    stacja = {k: v for k, v in texts.items() if re.search(r"\bstacj", v, re.IGNORECASE)}
    assert not stacja, stacja
    assert "przystanku" in texts["namiji.rules.upgrades"]


@pytest.mark.parametrize(
    ("lang", "slot"),
    [
        ("pl", "(miejsce 1 na pomoście)"),
        ("fr", "(emplacement de ponton 1)"),
        ("en", "(pontoon slot 1)"),
    ],
)
def test_a_move_to_a_pontoon_names_the_pontoon_slot(lang: str, slot: str) -> None:
    for view in ({}, {"boat_to_act": 0, "boats": [{"seat": None}]}):  # own boat, neutral boat
        said = NAMIJI.panel_label(_t(lang), view, "move 13 slot 1")
        assert said.endswith(slot), said


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("fr", "Rapporte 1\u00a0pt\u00a0;", "Rapporte 2\u00a0pts\u00a0;"),
        ("en", "Worth 1 pt;", "Worth 2 pts;"),
        ("it", "Vale 1 punto;", "Vale 2 punti;"),
        ("pl", "Daje 1 pkt;", "Daje 2 pkt;"),
    ],
)
def test_a_panorama_sections_points_agree_with_their_number(lang: str, one: str, two: str) -> None:
    def view(taken: int) -> dict[str, object]:
        return {"current_seat": 0, "players": [{"panoramas": {"D": taken}}]}

    said = [NAMIJI.panel_description(_t(lang), view(n), "panorama D") or "" for n in (0, 1)]
    assert said[0].startswith(one) and said[1].startswith(two), said
