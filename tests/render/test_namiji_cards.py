"""Namiji's cards in words on the player's own turn picture (issue 21, item 1): the cards they
choose between and the cards they hold, each with what it does, readable on a phone."""

from __future__ import annotations

import re

import pytest

from engine import games
from engine.games import Match
from engine.namiji.components import components
from render import render_focus
from render.extras import Extras
from render.focus import MARGIN, SMALL
from render.focus import WIDTH as FOCUS_WIDTH
from render.namiji.cards import card_line, card_words
from render.text import measuring
from render.words import say, speaking

LANGUAGES = ("en", "fr", "it", "pl")
EVERY_CARD = (*components().meals, *components().upgrades, *components().rocks)


def _until(step: str, after: int = 0, seed: int = 3) -> Match:
    """A 3-player game played by the computer until ``step`` comes (after that many actions)."""
    match = games.new("namiji", ["Ann", "Bo", "Cy"], seed=seed)
    computer = games.computer_player("namiji")
    done = 0
    while (seat := match.current_seat) is not None:
        if done >= after and match.turn_info.step == step:
            return match
        match.play(computer(match.view(seat), done), seat=seat)
        done += 1
    raise AssertionError(f"no {step} step")


def _focus_lines(match: Match, language: str = "en") -> list[str]:
    seat = match.current_seat
    with measuring() as drawn:
        render_focus(
            match.view(seat), legal=match.legal_actions(), extras=Extras(language=language)
        )
    lines = [d for d in drawn if d.surface[0] == FOCUS_WIDTH]
    assert all(d.size >= SMALL for d in lines)
    assert all(d.box[0] >= MARGIN / 2 and d.box[2] <= FOCUS_WIDTH - MARGIN / 2 for d in lines)
    return [d.text for d in lines]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_has_its_effect_in_words(language: str) -> None:
    with speaking("en"):
        english = {c: card_words(c) for c in EVERY_CARD}
    with speaking(language):
        for card in EVERY_CARD:
            words = card_words(card)
            assert words.startswith(card) and len(words) > len(card) + 8, words
            assert "{" not in words and "n." not in words, words
            assert language == "en" or words != english[card], words


def test_a_rock_card_says_its_objective() -> None:
    with speaking("en"):
        assert card_words("R20") == "R20: at the end, 3 pts if no crabs and crustaceans: at least 3"
        assert card_words("U5") == "U5: trap: the catch is lost only at the 3rd crab"
        assert card_words("M8") == "M8: meal (unagi), 6 pts at once"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_draft_names_each_card_of_the_hand_with_its_effect(language: str) -> None:
    match = _until("pick")
    cards = [a.split()[1] for a in match.legal_actions()]
    lines = _focus_lines(match, language)
    with speaking(language):
        for card in cards:
            words = card_line(card)
            assert any(words.startswith(line) or line in words for line in lines), words
    assert " ".join(lines).count(":") > len(cards)


def test_the_sacred_rock_choice_and_the_cards_held_are_explained() -> None:
    match = _until("rock", after=60)
    seat = match.current_seat
    assert seat is not None
    choice = [a.split()[1] for a in match.legal_actions()]
    view = match.view(seat)
    held = [*view["players"][seat]["pontoon"], *view["players"][seat]["rocks"]]
    assert held, "the seat holds a card by now"
    text = " ".join(_focus_lines(match))
    for card in [*choice, *held]:
        with speaking("en"):
            first_words = " ".join(card_line(card).split()[:4])
        assert first_words in text, (card, text)


def test_nobody_sees_anothers_sacred_rock_cards() -> None:
    match = _until("move", after=150)
    seat = match.current_seat
    assert seat is not None
    text = " ".join(_focus_lines(match))
    state = match.state
    others = {c for s, p in enumerate(state.players) if s != seat for c in p.rocks}
    with speaking("en"):
        names = {c: say(f"n.card.{c}") for c in others}
    assert others and not {c for c in re.findall(r"R\d\d", text)} & others
    assert not [n for n in names.values() if n in text], (names, text)
