"""Namiji's supplies in the centre of the board, read in every language (issue 38): the piles'
line is not cut (French lost its rock deck: "pioche …"), the bonus cards left stay inside the
centre (French and Italian pushed them onto the loop) and the arrival tokens show the points they
give ("+7", as the bonus cards' "+3"), not their code ("A7")."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageChops

from engine import games
from engine.namiji.components import components
from engine.namiji.view import namiji_view
from render.namiji import layout
from render.namiji.picture import render_image
from render.text import measuring
from render.words import say, speaking
from tests.render.test_phone import _clear_caches

LANGUAGES = ("en", "fr", "it", "pl")


def _start() -> dict[str, Any]:
    """Everyone's view of a new five-player game: every pile full, every token and bonus left."""
    view: dict[str, Any] = games.new("namiji", ["Ann", "Bo", "Cy", "Di", "Ed"], seed=3).view(None)
    return view


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_piles_line_is_whole(lang: str) -> None:
    """Nets, the crustacean bag, the pontoon deck and the rock deck: all four, uncut."""
    view = _start()
    _clear_caches()
    with measuring() as drawn:
        render_image(namiji_view(view), language=lang)
    with speaking(lang):
        nets = say("n.centre.nets", count=view["net_pile"])
        rocks = say("n.centre.rock_deck", count=view["rock_deck"])
    line = next(d.text for d in drawn if d.text.startswith(nets))
    assert rocks in line and "…" not in line, line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_arrival_tokens_show_their_points(lang: str) -> None:
    view = _start()
    _clear_caches()
    with measuring() as drawn:
        render_image(namiji_view(view), language=lang)
    texts = [d.text for d in drawn]
    points = components().arrival_points
    for token in view["arrivals"]:
        assert token not in texts and f"+{points[token]}" in texts, (token, texts)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_bonus_cards_stay_inside_the_centre(lang: str) -> None:
    """The board with the three bonuses left and without them differ only inside the centre's
    margin: nothing of a bonus card is drawn past it."""
    view = _start()
    assert len(view["bonuses"]) == 3
    bare = dict(view, bonuses=[])
    _, top, right, _ = layout.CENTRE
    strip = (right - 14, top, right + 60, top + 200)  # the centre's right margin and the loop
    full = render_image(namiji_view(view), language=lang).crop(strip)
    without = render_image(namiji_view(bare), language=lang).crop(strip)
    assert ImageChops.difference(full, without).getbbox() is None, lang
