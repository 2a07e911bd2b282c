"""Namiji's public texts say cards in words and a penalty as points lost (issue 21, QA: "took
the pontoon card M1", "revealed sacred rocks R03", "zdobywa -10 pkt")."""

from __future__ import annotations

import re

import pytest

from bot.catalog import default_catalog
from bot.summary import Summary
from engine import games
from engine.players import random_player

NAMES = ["Ann", "Bo", "Cy"]
CODE = re.compile(r"\b[MRU]\d{1,2}\b|\b[AP]\d\b")  # cards, arrival tokens, pontoons


@pytest.mark.parametrize("locale", ["en", "fr", "it", "pl"])
def test_a_whole_games_messages_name_cards_and_lose_points(locale: str) -> None:
    """Every turn message of a random game, the end's reveal included: no card code, no
    negative score."""
    summary = Summary(default_catalog(), locale, "namiji")
    match = games.new("namiji", NAMES, seed=7)
    said: list[str] = []
    while (seat := match.current_seat) is not None:
        events = match.play(random_player(match.view(seat), seat), seat=seat)
        said.append(summary.turn(NAMES[seat], events, NAMES))
    text = "\n".join(said)
    assert not CODE.search(text), CODE.findall(text)
    assert not re.search(r"(?<![\w(])-\d", text), text  # "-10" said as points lost
    for code in ("M1", "U3", "R12"):  # cards by name
        events = [{"type": "pontoon_card", "seat": 0, "card": code}]
        if code.startswith("R"):
            events = [{"type": "rocks_revealed", "seat": 1, "cards": [code], "met": [code]}]
        name = default_catalog().text(f"namiji.card.{code}", locale) if code != "M1" else "onigiri"
        told = summary.turn("Ann", events, NAMES)
        assert name in told and (code[0] != "R" or "\nBo " in told), told  # the revealer named


def test_the_offerings_penalty_is_said_as_points_lost() -> None:
    events = [{"type": "score", "seat": 0, "for": "offerings", "points": -10}]
    said = {
        lang: Summary(default_catalog(), lang, "namiji").turn("Ann", events, NAMES)
        for lang in ("en", "fr", "it", "pl")
    }
    assert "lost 10 for offerings left" in said["en"]
    assert "a perdu 10 points pour les offrandes restantes" in said["fr"]
    assert "ha perso 10 per le offerte rimaste" in said["it"]
    assert "traci 10 pkt za pozostałe ofiary" in said["pl"]
