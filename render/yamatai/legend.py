"""The key to the pieces, drawn under the panels when there is room (2 or 3 players)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.yamatai.components import load_components
from render.fonts import font
from render.text import text_length
from render.theme import RGB, Theme
from render.words import say
from render.yamatai.glyphs import (
    MIN_TEXT,
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
from render.yamatai.signs import culture_letters

ROW = 26

__all__ = ["draw_legend"]


def _rows(theme: Theme, language: str) -> list[list[tuple[Sprite, str]]]:
    """The legend's rows, most useful first: boats, cultures, map symbols, buildings."""
    comp = load_components()
    boats = [
        (boat_sprite(theme, boat, letter, 34), say(f"y.boat.{boat}", language))
        for boat, letter in zip(comp.boat_names, comp.boat_letters, strict=True)
    ]
    cultures = [
        (token_sprite(theme, culture, letter, 12), say(f"y.culture.{culture}", language))
        for culture, letter in culture_letters().items()
    ]
    symbols = [
        (spot_sprite(theme, "5", True), say("y.key.entry", language)),
        (sacred_sprite(theme, 13), say("y.key.sacred", language)),
        (mountain_sprite(theme, 44), say("y.key.mountain", language)),
    ]
    buildings = [
        (building_sprite(theme, kind, "grey", "", 30), say(f"y.key.{word}", language))
        for kind, word in (
            ("standard", "building"),
            ("trading_post", "trading_post"),
            ("torii", "torii"),
            ("palace", "palace"),
        )
    ]
    signs = [
        (
            _badge(theme, "A", theme.players["blue"], theme.player_ink["blue"]),
            say("y.key.player", language),
        ),
        (spot_sprite(theme, "12", False), say("y.key.spot", language)),
        (_badge(theme, "#07", theme.tile_face, theme.ink), say("y.key.tile", language)),
    ]
    marks = [
        (halo_sprite(theme.last_turn, 9, 3), say("y.key.changed", language)),
        (_badge(theme, "C4", theme.island_label_halo, theme.ink), say("y.key.island", language)),
    ]
    return [boats, cultures[:3], cultures[3:], signs, symbols, buildings, marks]


@lru_cache(maxsize=16)
def _badge(theme: Theme, text: str, fill: RGB, ink: RGB) -> Sprite:
    """A small rounded label (a player's badge, a tile's or an island's label)."""
    width = round(text_length(text, MIN_TEXT)) + 10
    sprite = Image.new("RGBA", (max(24, width), 24), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, sprite.width - 1, 23), radius=6, fill=fill, outline=theme.ink)
    draw_text(draw, (sprite.width / 2, 12.5), text, ink, MIN_TEXT)
    return sprite


def draw_legend(canvas: Image.Image, rect: Rect, theme: Theme, language: str = "en") -> None:
    """Boats, culture tokens and map symbols with their names, as many rows as fit."""
    draw = ImageDraw.Draw(canvas)
    y = rect.y0 + 22.0
    for row in _rows(theme, language):
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
