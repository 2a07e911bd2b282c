"""The cheaper picture (issue 16): cached text masks draw Pillow's pixels, and the fixed palette
keeps every theme colour exact."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import games
from engine.yamatai.view import yamatai_view
from render.fonts import font
from render.namiji.picture import picture_palette as namiji_palette
from render.png import encode_png, palette_of
from render.text import draw_text
from render.theme import THEMES, Theme, theme_colours
from render.yamatai.picture import picture_palette as yamatai_palette
from render.yamatai.picture import render_board as yamatai_board
from render.yamatai.picture import render_image as yamatai_image

INK = (0x1D, 0x1A, 0x16)
HALO = (0xF7, 0xF3, 0xE4)


@pytest.mark.parametrize("text", ["A1", "Round 6 · Cy to play", "花子 and Ann", "محمد"])
@pytest.mark.parametrize("xy", [(100.0, 40.0), (100.5, 40.25), (99.75, 41.5)])
@pytest.mark.parametrize("halo", [None, HALO])
def test_cached_text_draws_pillows_pixels(
    text: str, xy: tuple[float, float], halo: tuple[int, int, int] | None
) -> None:
    """Drawn twice from the mask cache, text has exactly the pixels Pillow draws itself."""
    for _ in range(2):
        ours = Image.new("RGB", (400, 80), (0x2F, 0x7F, 0xAE))
        draw_text(ImageDraw.Draw(ours), xy, text, INK, 25, halo=halo)
    if text.isascii():
        pillows = Image.new("RGB", (400, 80), (0x2F, 0x7F, 0xAE))
        stroke = 2 if halo is not None else 0
        ImageDraw.Draw(pillows).text(
            xy,
            text,
            fill=INK,
            font=font("bold", 25),
            anchor="mm",
            stroke_width=stroke,
            stroke_fill=halo,
        )
        assert ImageChops.difference(ours, pillows).getbbox() is None
    assert ours.getbbox() is not None


def test_same_text_in_another_colour() -> None:
    """A cached mask is laid in the colour asked for, not the one it was first drawn in."""
    first = Image.new("RGB", (200, 60), (255, 255, 255))
    second = first.copy()
    draw_text(ImageDraw.Draw(first), (100, 30), "B2", (200, 0, 0), 30)
    draw_text(ImageDraw.Draw(second), (100, 30), "B2", (0, 0, 200), 30)
    assert (200, 0, 0) in {c for _, c in first.getcolors(10_000) or []}
    assert (0, 0, 200) in {c for _, c in second.getcolors(10_000) or []}
    assert (200, 0, 0) not in {c for _, c in second.getcolors(10_000) or []}


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
@pytest.mark.parametrize("palette", [yamatai_palette, namiji_palette], ids=["yamatai", "namiji"])
def test_every_theme_colour_survives_the_palette(
    theme: Theme, palette: Callable[[Theme], Image.Image]
) -> None:
    """Each colour a theme names is in the game's fixed palette and comes back (almost) exact."""
    colours = theme_colours(theme)
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(list(colours))
    fixed = palette(theme)
    back = Image.open(io.BytesIO(encode_png(strip, palette=fixed))).convert("RGB")
    # Pillow maps a pixel to the entry nearest its 6-bit cell's corner: the theme's near-equal
    # creams (4 apart at most) come back as one another, every other colour exactly
    back_colours = [back.getpixel((x, 0)) for x in range(back.width)]
    misses: list[tuple[Any, Any]] = [
        (got, want) for got, want in zip(back_colours, colours, strict=True) if got != want
    ]
    assert len(misses) <= 3, misses
    assert all(max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 4 for got, want in misses)


def test_palette_is_a_pure_function_of_its_inputs() -> None:
    """The same colours and reference give the same palette; 256 entries, exact ones first."""
    reference = Image.linear_gradient("L").convert("RGB")
    exact = [(1, 2, 3), (250, 10, 10), (1, 2, 3)]
    first, second = palette_of(exact, reference), palette_of(exact, reference)
    assert first.getpalette() == second.getpalette()
    values = first.getpalette() or []
    assert len(values) == 3 * 256
    assert values[:6] == [1, 2, 3, 250, 10, 10]


def test_board_png_is_a_small_palette_picture_close_to_the_drawing() -> None:
    """The board PNG is a 256-colour picture under 600 KB that looks like the RGB drawing."""
    match = games.new("yamatai", ["Ann", "Bo", "Cy", "Di"], seed=7)
    view = match.view(None)
    png = yamatai_board(yamatai_view(view))
    picture = Image.open(io.BytesIO(png))
    assert picture.mode == "P" and len(png) < 600 * 1024
    drawn = yamatai_image(yamatai_view(view))
    diff = ImageChops.difference(drawn, picture.convert("RGB")).convert("L")
    off = sum(diff.point(lambda v: 255 if v > 48 else 0).histogram()[255:])
    assert off / (drawn.width * drawn.height) < 0.0005
