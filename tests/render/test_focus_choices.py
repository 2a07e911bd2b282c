"""The turn picture's unringed choices (buy, sell, keep, end, a specialist's power) in words."""

from __future__ import annotations

import random
import re

import pytest

from engine import games
from render import render_focus
from render.extras import Extras
from render.text import recording
from tests.render.games import new_match

RAW = {"buy", "sell", "keep", "end", "look", "arrange", "bamboo", "wood", "stone", "clay", "gold"}
"""The notation's words for the unringed choices: English, never drawn in another language."""


def _trading_states(seed: int) -> list[tuple[dict[str, object], list[str]]]:
    """Views and legal actions of a random 3-player game where boats can be bought or kept."""
    match = new_match(3, seed)
    picked = random.Random(seed)
    found: list[tuple[dict[str, object], list[str]]] = []
    while (seat := match.current_seat) is not None and len(found) < 6:
        legal = match.legal_actions()
        if any(a.split()[0] in ("buy", "keep", "sell") for a in legal):
            found.append((match.view(seat), legal))
        match.play(picked.choice(legal), seat=seat)
    return found


@pytest.mark.parametrize("lang", ["fr", "it", "pl"])
def test_the_turn_picture_says_the_other_choices_in_the_language(lang: str) -> None:
    """QA saw "buy bamboo … / sell …" in English on a French turn picture: the choices with no
    place to ring are drawn in the picture's language, with no notation word."""
    states = _trading_states(5)
    assert states
    for view, legal in states:
        render_focus(view, legal=legal)  # the palette's English layer is drawn once and cached
        with recording() as drawn:
            render_focus(view, legal=legal, extras=Extras(language=lang))
        words = {w.strip(",.:;+").lower() for text, _ in drawn for w in text.split()}
        assert not words & RAW, (lang, sorted(words & RAW), legal[:8])


NAMIJI_RAW = {"end", "draw", "refuse", "release", "stop", "offer", "hidden"}
"""Namiji's notation words for the choices with no place to ring."""
FISH_CODE = re.compile(r"\b(?:N:)?[bog][fst]\b")


def _namiji_states(seed: int) -> list[tuple[dict[str, object], list[str]]]:
    """Views and legal actions of a random 3-player Namiji game at steps with unringed
    choices or fish and nets to choose."""
    match = games.new("namiji", ["Ann", "Bo", "Cy"], seed=seed)
    picked = random.Random(seed)
    found: list[tuple[dict[str, object], list[str]]] = []
    while (seat := match.current_seat) is not None and len(found) < 12:
        legal = match.legal_actions()
        if any(a.split()[0] in NAMIJI_RAW | {"net", "fish"} for a in legal):
            found.append((match.view(seat), legal))
        match.play(picked.choice(legal), seat=seat)
    return found


@pytest.mark.parametrize("lang", ["fr", "it", "pl"])
def test_the_namiji_turn_picture_says_its_choices_in_the_language(lang: str) -> None:
    """QA saw "Wybierz: N:bf / Lub: refuse" and "Lub: end" on a Polish turn picture: fish,
    nets and the other actions are drawn in words."""
    states = _namiji_states(3)
    assert {a.split()[0] for _, legal in states for a in legal} >= {"end", "net", "refuse"}
    for view, legal in states:
        render_focus(view, legal=legal)  # the palette's English layer is drawn once and cached
        with recording() as drawn:
            render_focus(view, legal=legal, extras=Extras(language=lang))
        text = " ".join(t for t, _ in drawn)
        words = {w.strip(",.:;").lower() for w in text.split()}
        assert not words & NAMIJI_RAW, (lang, sorted(words & NAMIJI_RAW), legal[:6])
        assert not FISH_CODE.search(text), (lang, FISH_CODE.findall(text), legal[:6])
