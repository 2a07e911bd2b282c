"""The turn picture's unringed choices (buy, sell, keep, end, a specialist's power) in words."""

from __future__ import annotations

import random

import pytest

from render import render_focus
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
            render_focus(view, legal=legal, language=lang)
        words = {w.strip(",.:;+").lower() for text, _ in drawn for w in text.split()}
        assert not words & RAW, (lang, sorted(words & RAW), legal[:8])
