"""Every specialist's power, in every language, fits its card above the prestige disc."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import pytest

from engine.yamatai.view import YamataiSpecialist
from render import render_board
from render.extras import Extras
from render.text import measuring, text_length
from render.words import speaking
from render.yamatai.layout import layout
from render.yamatai.tracks import POWER_SIZE, card_slots, specialist_power, wrap
from tests.render.test_overflow import GAMES, LANGUAGES, SLACK

CARDS = json.loads(
    (Path(__file__).parents[2] / "engine/yamatai/data/components.json").read_text("utf-8")
)["specialists"]["cards"]
TRACK = 5  # cards on the specialist track
DISC = 32  # the prestige disc and the coins take a card's last 32 pixels


def _tracks() -> list[list[YamataiSpecialist]]:
    """Every specialist on a track of five (two-digit coins: the widest coin line)."""
    cards = [cast(YamataiSpecialist, {**card, "coins": 12}) for card in CARDS]
    return [cards[i : i + TRACK] for i in range(0, len(cards), TRACK)]


def _within(box: tuple[float, float, float, float], area: tuple[float, ...]) -> bool:
    """The middle of ``box`` lies in ``area``."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return area[0] <= x <= area[2] and area[1] <= y <= area[3]


@pytest.mark.parametrize("game", ["yamatai-2p-turn8", "yamatai-4p-turn20"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_specialist_power_fits_its_card(lang: str, game: str) -> None:
    """The French Izanami ran into its prestige disc on the final board (found in play)."""
    view = GAMES[game]().view(None)
    slots = card_slots(layout("default", len(view["players"])).specialists, TRACK)
    for track in _tracks():
        with speaking(lang):
            powers = {specialist_power(card) for card in track}
        with measuring() as drawn:
            render_board({**view, "specialist_track": track}, extras=Extras(language=lang))
        area = slots[0].x0, slots[0].y0, slots[-1].x1, slots[0].y1
        lines = [
            d
            for d in drawn
            if d.size == POWER_SIZE
            and _within(d.box, area)
            and d.text not in {c["name"] for c in track}
            and any(d.text in p for p in powers)
        ]
        assert len(lines) >= TRACK, lines
        for d in lines:
            slot = next(s for s in slots if s.x0 <= (d.box[0] + d.box[2]) / 2 <= s.x1)
            assert d.box[0] >= slot.x0 - SLACK and d.box[2] <= slot.x1 + SLACK, d
            assert d.box[3] <= slot.y1 - DISC + SLACK, f"{d.text!r} runs into the disc"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_of_a_power_fits_its_cards_width(lang: str) -> None:
    """QA: French "Tout emplacement" was cut to "mplacemen" on the card: every line of every
    specialist's power fits the card's width, a word too long for it broken with a hyphen."""
    width = card_slots(layout("default", 4).specialists, TRACK)[0].width - 6
    with speaking(lang):
        for card in CARDS:
            power = specialist_power(card)
            lines = wrap(power, POWER_SIZE, width, "condensed")
            assert all(text_length(line, POWER_SIZE, "condensed") <= width for line in lines)
            assert _letters("".join(lines)) == _letters(power)  # every letter, in order


def _letters(text: str) -> str:
    """The text without its spaces and hyphens."""
    return text.replace(" ", "").replace("-", "")
