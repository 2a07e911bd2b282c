"""Yamatai's turn picture names the building tiles to choose as the panel and the picture's key
do ("bâtiment n° 9", "échoppe n° 5", "budynek nr 9"), not by code ("tuile B09"), in every
language (issue 38: the key now reads "#07 = bâtiment n° 7")."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.yamatai.components import load_components
from render import render_focus
from render.extras import Extras
from render.focus import WIDTH as FOCUS_WIDTH
from render.text import measuring
from render.words import say, speaking
from tests.render.games import play_actions

LANGUAGES = ("en", "fr", "it", "pl")
TILE = re.compile(r"\bB\d\d\b|\b[TP]\d\b")  # tiles; islands (B3) are the map's labels
ROOT = Path(__file__).resolve().parents[2]


def _panel_texts(lang: str) -> dict[str, str]:
    path = ROOT / "bot" / "games" / "yamatai" / "locale" / f"{lang}.json"
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return texts


@cache
def _tile_step() -> tuple[dict[str, Any], tuple[str, ...], tuple[str, ...]]:
    """A turn picture's view with building tiles to choose (3 players, seed 5), its legal
    actions and the tiles they name."""
    for actions in range(40, 140):
        match = play_actions(3, 5, actions)
        legal = tuple(match.legal_actions())
        tiles = tuple(
            sorted({w for a in legal for w in a.split()[1:] if w in load_components().buildings})
        )
        if tiles:
            return match.view(match.current_seat), legal, tiles
    raise AssertionError("no step with tiles to choose")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tiles_to_choose_are_named(lang: str) -> None:
    view, legal, tiles = _tile_step()
    with measuring() as drawn:
        render_focus(view, legal=list(legal), extras=Extras(language=lang))
    lines = [d.text for d in drawn if d.surface[0] == FOCUS_WIDTH]
    text = " ".join(lines)
    assert not [t for t in lines if TILE.search(t)], lines
    panel = _panel_texts(lang)
    for tile in tiles:
        kind = load_components().buildings[tile].kind
        name = panel[f"yamatai.tile.{kind}"].format(number=int(tile[1:]))
        assert name in text, (tile, name, lines)


def test_the_pictures_name_tiles_as_the_panel_does() -> None:
    """The pictures' tile names are the panel's, kind for kind, in every language."""
    kinds = {tile.kind for tile in load_components().buildings.values()}
    for lang in LANGUAGES:
        panel = _panel_texts(lang)
        with speaking(lang):
            for kind in kinds:
                assert say(f"y.tile.{kind}", number=7) == panel[f"yamatai.tile.{kind}"].format(
                    number=7
                ), (lang, kind)
