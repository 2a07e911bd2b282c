"""The key to the pieces, drawn under the panels when there is room (2 or 3 players)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.yamatai.components import load_components
from render.fonts import font
from render.theme import Theme
from render.yamatai.glyphs import (
    Sprite,
    boat_sprite,
    building_sprite,
    draw_text,
    halo_sprite,
    mountain_sprite,
    paste_centred,
    sacred_sprite,
    spot_sprite,
    token_sprite,
)
from render.yamatai.layout import Rect

ROW = 30

__all__ = ["draw_legend"]


def _rows(theme: Theme) -> list[list[tuple[Sprite, str]]]:
    """The legend's rows, most useful first: boats, cultures, map symbols, buildings."""
    comp = load_components()
    boats = [
        (boat_sprite(theme, boat, letter, 34), boat)
        for boat, letter in zip(comp.boat_names, comp.boat_letters, strict=True)
    ]
    cultures = [
        (token_sprite(theme, culture, letter, 12), culture)
        for culture, letter in zip(comp.culture_names, comp.culture_letters, strict=True)
    ]
    symbols = [
        (spot_sprite(theme, "5", True), "entry spot"),
        (sacred_sprite(theme, 13), "sacred ground"),
        (mountain_sprite(theme, 44), "mountain"),
    ]
    buildings = [
        (building_sprite(theme, kind, "grey", "", 30), text)
        for kind, text in (
            ("standard", "building"),
            ("trading_post", "trading post"),
            ("torii", "torii"),
            ("palace", "palace"),
        )
    ]
    marks = [
        (halo_sprite(theme.last_turn, 9, 3), "changed in the last turn"),
        (spot_sprite(theme, "12", False), "spot label (type it in commands)"),
    ]
    return [boats, cultures[:3], cultures[3:], symbols, buildings, marks[:1], marks[1:]]


def draw_legend(canvas: Image.Image, rect: Rect, theme: Theme) -> None:
    """Boats, culture tokens and map symbols with their names, as many rows as fit."""
    draw = ImageDraw.Draw(canvas)
    draw_text(
        draw, (rect.x0 + 12, rect.y0 + 8), "KEY", theme.ink_soft, theme.small_size, anchor="lt"
    )
    y = rect.y0 + 44.0
    for row in _rows(theme):
        if y + ROW / 2 > rect.y1 - 4:
            break
        _row(canvas, draw, row, rect, y, theme)
        y += ROW


def _row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    items: Sequence[tuple[Sprite, str]],
    rect: Rect,
    y: float,
    theme: Theme,
) -> None:
    size = theme.small_size
    face = font("regular", size)
    x = rect.x0 + 14.0
    spacing = (rect.width - 28) / len(items)
    for sprite, text in items:
        paste_centred(canvas, sprite, (x + sprite.width / 2, y))
        left = x + sprite.width + 5
        draw_text(draw, (left, y), text, theme.ink, size, style="regular", anchor="lm")
        x = max(x + spacing, left + face.getlength(text) + 10)
