"""Nim's picture, drawn only from the shared parts of ``render/`` (theme, text, PNG)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.contract import Event, View
from render.extras import PLAIN, Extras
from render.png import encode_png
from render.stand_in import dressed, stand_in_words
from render.text import draw_text
from render.theme import Theme, get_theme

WIDTH, HEIGHT = 640, 360
PILE_NAMES = "ABC"


def render_board(
    view: View, *, events: Sequence[Event] | None = None, extras: Extras = PLAIN
) -> bytes:
    """Three piles of stones, the players, whose turn or who won; the last take is marked;
    a seat the computer plays for its human says so under the piles."""
    with dressed(extras):
        return _picture(view, events, extras.theme)


def _picture(view: View, events: Sequence[Event] | None, theme: str | Theme) -> bytes:
    look = get_theme(theme)
    canvas = Image.new("RGB", (WIDTH, HEIGHT), look.background)
    draw = ImageDraw.Draw(canvas)
    names = list(view["names"])
    winner: int | None = view.get("winner")
    current: int = view.get("current_seat") or 0
    status = f"{names[winner]} wins" if winner is not None else f"{names[current]} to play"
    draw_text(draw, (20, 30), f"NIM  ·  {status}", look.ink_light, 26, anchor="lm")
    taken = next((e for e in reversed(events or []) if e.get("type") == "take"), None)
    for index, count in enumerate(view["piles"]):
        x = 110 + index * 210
        marked = taken is not None and taken["pile"] == PILE_NAMES[index]
        edge = look.last_turn if marked else look.panel_edge
        draw.rounded_rectangle(
            (x - 90, 70, x + 90, 320), radius=12, fill=look.panel, outline=edge, width=4
        )
        draw_text(draw, (x, 95), f"{PILE_NAMES[index]}: {count}", look.ink, 24, anchor="mm")
        for stone in range(count):
            cy = 295 - stone * 30
            draw.ellipse(
                (x - 14, cy - 14, x + 14, cy + 14), fill=look.coin, outline=look.coin_edge, width=2
            )
    away = [f"{names[s]}: {words}" for s in range(len(names)) if (words := stand_in_words(s))]
    draw_text(draw, (20, 340), "  ·  ".join(away), look.ink_dim, 16, anchor="lm")
    return encode_png(canvas)
