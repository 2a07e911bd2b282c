"""The key to the pieces, drawn under the panels when there is room (2 or 3 players)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

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
from render.yamatai.signs import boat_letters, culture_letters

ROW = 26
INSET = 14
"""Room left and right of the key's entries."""
GAP = 10
"""The least room between two entries."""

__all__ = ["draw_legend"]


def _rows(theme: Theme, language: str) -> list[list[tuple[Sprite, str]]]:
    """The legend's rows, most useful first: boats, cultures, map symbols, buildings."""
    boats = [
        (boat_sprite(theme, boat, letter, 34), say(f"y.boat.{boat}", language))
        for boat, letter in boat_letters(language).items()
    ]
    cultures = [
        (token_sprite(theme, culture, letter, 12), say(f"y.culture.{culture}", language))
        for culture, letter in culture_letters(language).items()
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
    """Boats, culture tokens and map symbols with their names, as many rows as fit (a row
    whose names are too long for one line, as in some languages, takes two)."""
    draw = ImageDraw.Draw(canvas)
    y = rect.y0 + 22.0
    room = rect.width - 2 * INSET
    for row in _rows(theme, language):
        for line in _lines(row, room, theme.small_size):
            if y + ROW / 2 > rect.y1 - 4:
                return
            _row(canvas, draw, line, rect, y, theme)
            y += ROW


def _width(item: tuple[Sprite, str], size: int) -> float:
    """An entry's width: its sprite, a gap and its name."""
    return item[0].width + 5 + text_length(item[1], size, "regular")


def _lines(
    items: Sequence[tuple[Sprite, str]], room: float, size: int
) -> list[list[tuple[Sprite, str]]]:
    """A row's entries on as few lines as hold them within ``room`` pixels."""
    lines: list[list[tuple[Sprite, str]]] = [[]]
    used = 0.0
    for item in items:
        width = _width(item, size)
        if lines[-1] and used + GAP + width > room:
            lines.append([])
            used = 0.0
        used += (GAP if lines[-1] else 0) + width
        lines[-1].append(item)
    return lines


def _row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    items: Sequence[tuple[Sprite, str]],
    rect: Rect,
    y: float,
    theme: Theme,
) -> None:
    """One line of entries: in equal columns when each fits its column, else packed evenly."""
    size = theme.small_size
    room = rect.width - 2 * INSET
    widths = [_width(item, size) for item in items]
    column = room / len(items)
    if all(w + GAP <= column for w in widths):
        steps = [column] * len(items)
    else:
        gap = (room - sum(widths)) / max(1, len(items) - 1)
        steps = [w + gap for w in widths]
    x = rect.x0 + float(INSET)
    for (sprite, text), step in zip(items, steps, strict=True):
        paste_centred(canvas, sprite, (x + sprite.width / 2, y))
        draw_text(draw, (x + sprite.width + 5, y), text, theme.ink, size, "regular", anchor="lm")
        x += step
