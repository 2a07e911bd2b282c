"""Yamatai's static layer is its text-free base, made once for every language, with the words
drawn on top (D204): the base holds no word, each language's layer differs from it only where
words are drawn, and the base is kept when the memos of drawn text are forgotten; the same for
the sails and hulls of boats and the discs of spots."""

from __future__ import annotations

from dataclasses import replace

from PIL import Image, ImageChops, ImageDraw

from render.text import measuring, recording
from render.theme import THEMES, Theme
from render.yamatai.glyphs import KEPT, map_boat_sprite, spot_sprite
from render.yamatai.layout import layout
from render.yamatai.static import BASES, base_layer, static_layer
from tests.render.test_phone import _clear_caches

HALO = 4  # pixels around a measured text box: the island labels' halo and antialiasing


def _fresh_theme(name: str) -> Theme:
    """A theme no memo has seen (themes key the memos by identity)."""
    return replace(THEMES["default"], name=name)


def test_two_languages_share_one_base_and_differ_only_in_their_words() -> None:
    """French after English makes no second base; the map (sea, islands, labels) is the same."""
    look = _fresh_theme("base-test-shared")
    kept = len(BASES)
    english = static_layer("default", look, 3, "en")
    french = static_layer("default", look, 3, "fr")
    assert len(BASES) == kept + 1
    assert base_layer("default", look, 3) is base_layer("default", look, 3)
    lay = layout("default", 3)
    assert ImageChops.difference(english, french).getbbox() is not None  # titles, legend
    assert english.crop(lay.map.box).tobytes() == french.crop(lay.map.box).tobytes()


def test_the_base_has_no_word_and_the_layer_adds_only_words_and_the_legend() -> None:
    """Every pixel where a language's layer differs from the base is inside a drawn text's box
    (or the legend, whose symbols go with their names)."""
    look = _fresh_theme("base-test-words")
    with recording() as said:
        base = base_layer("default", look, 4)
    assert said == []
    with measuring() as drawn:
        layer = static_layer("default", look, 4, "pl")
    assert drawn
    allowed = Image.new("L", layer.size, 0)
    paint = ImageDraw.Draw(allowed)
    for text in drawn:
        x0, y0, x1, y1 = text.box
        paint.rectangle((x0 - HALO, y0 - HALO, x1 + HALO, y1 + HALO), fill=255)
    legend = layout("default", 4).legend
    if legend is not None:
        paint.rectangle(legend.box, fill=255)
    changed = ImageChops.difference(layer, base).convert("L").point(lambda v: 255 if v else 0)
    outside = ImageChops.subtract(changed, allowed)
    assert changed.getbbox() is not None
    assert outside.getbbox() is None, outside.getbbox()


def test_the_base_is_kept_when_the_memos_of_drawn_text_are_forgotten() -> None:
    """Tests that measure texts forget every memo that holds words; the base holds none."""
    look = _fresh_theme("base-test-kept")
    base = base_layer("default", look, 2)
    layer = static_layer("default", look, 2, "it")
    _clear_caches()
    assert base_layer("default", look, 2) is base
    again = static_layer("default", look, 2, "it")
    assert again is not layer  # the words are drawn again
    assert again.tobytes() == layer.tobytes()


def test_boats_and_spots_of_one_width_share_their_text_free_sprite() -> None:
    """A boat's sail and hull (a spot's disc) are drawn once per look and width; each label is
    still written on its own copy, also after the memos of drawn text are forgotten."""
    look = _fresh_theme("base-test-sprites")
    boat = next(iter(look.boats))
    kept = len(KEPT)
    boats = [map_boat_sprite(look, boat, "A", label) for label in ("12", "34", "56")]
    spots = [spot_sprite(look, label, False) for label in ("12", "34", "56")]
    assert len(KEPT) == kept + 2
    assert len({b.tobytes() for b in boats}) == 3
    assert len({s.tobytes() for s in spots}) == 3
    _clear_caches()
    with recording() as said:
        again = map_boat_sprite(look, boat, "A", "34")
    assert [text for text, _ in said] == ["34", "A"]
    assert again.tobytes() == boats[1].tobytes()
    assert len(KEPT) == kept + 2
