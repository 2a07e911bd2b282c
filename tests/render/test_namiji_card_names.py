"""Namiji's turn pictures name the cards to choose as a player does (issue 38): the sacred rock
step reads "Choose: sacred rock “Varied catch”, …", not "Choose: R04, R06", and each card's line
begins with its name, the same name the turn panel gives it, in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.namiji.components import components
from render import render_focus
from render.extras import Extras
from render.focus import WIDTH as FOCUS_WIDTH
from render.text import measuring
from render.words import say, speaking
from tests.render.test_namiji_words import LANGUAGES, _scenes
from tests.render.test_phone import _clear_caches

#: A pontoon or sacred rock card's code (``M6``, ``U12``, ``R07``).
CARD = re.compile(r"\b[MUR]\d{1,2}\b")
ROOT = Path(__file__).resolve().parents[2]


def _panel_names(lang: str) -> dict[str, str]:
    """The cards' names as the turn panel says them (the game's own texts, ``namiji.card.*``)."""
    path = ROOT / "bot" / "games" / "namiji" / "locale" / f"{lang}.json"
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    names: dict[str, str] = {}
    for prefix in ("namiji.card.", "namiji.meal."):
        names |= {k.removeprefix(prefix): v for k, v in texts.items() if k.startswith(prefix)}
    return names


def _lines(scene: str, lang: str) -> list[str]:
    """The texts of the turn picture's own lines (not its crop of the board)."""
    view, legal, events = _scenes()[scene]
    _clear_caches()
    with measuring() as drawn:
        render_focus(view, legal=legal, events=events, extras=Extras(language=lang))
    return [d.text for d in drawn if d.surface[0] == FOCUS_WIDTH]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sacred_rock_step_names_the_rocks(lang: str) -> None:
    """Both rocks offered are named, in the title and in their lines; no card code is left."""
    _, legal, _ = _scenes()["rock"]
    rocks = [a.split()[1] for a in legal if a.startswith("rock ")]
    assert len(rocks) >= 2
    lines = _lines("rock", lang)
    text = " ".join(lines)
    assert not [t for t in lines if CARD.search(t)], lines
    names = _panel_names(lang)
    for rock in rocks:
        assert text.count(names[rock]) >= 2, (rock, names[rock], lines)  # title and its line
    with speaking(lang):
        choose = say("n.focus.choose", cards="").strip()
    assert any(t.startswith(choose) for t in lines), (choose, lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pontoon_draft_names_the_cards(lang: str) -> None:
    """The pontoon cards to pick are named (a meal by its dish, an upgrade by its name)."""
    _, legal, _ = _scenes()["pick"]
    cards = [a.split()[1] for a in legal if a.startswith("pick ")]
    lines = _lines("pick", lang)
    text = " ".join(lines)
    assert not [t for t in lines if CARD.search(t)], lines
    names = _panel_names(lang)
    for card in cards:
        assert names[card] in text, (card, names[card], lines)


def test_the_pictures_name_every_card_as_the_panel_does() -> None:
    """The pictures' card names (meals' dishes too) are the panel's, card for card, in every
    language."""
    comp = components()
    for lang in LANGUAGES:
        names = _panel_names(lang)
        with speaking(lang):
            for code in [*comp.upgrades, *comp.rocks]:
                assert say(f"n.card.{code}") == names[code], (lang, code)
            for code in comp.meals:  # the dish in the language ("maki" in Polish, not "makis")
                assert say(f"n.meal.{code}") == names[code], (lang, code)
