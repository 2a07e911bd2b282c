"""The title line: round, whose turn and step (or the winner), and the boat reserve."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.fonts import font
from render.text import text_length
from render.theme import Theme
from render.yamatai.archipelago import boat_letters
from render.yamatai.glyphs import boat_sprite, draw_text, paste_centred
from render.yamatai.layout import Rect

STEP_WORDS: Mapping[str, str] = {
    "fleet": "choose a fleet",
    "trade": "trade or place boats",
    "place": "place boats",
    "acted": "keep boats in the harbor",
    "stored": "recruit or end the turn",
    "recruited": "end the turn",
}
# Games begun before the rulebook's step order recruit before the harbor step.
RECRUIT_FIRST_WORDS: Mapping[str, str] = {**STEP_WORDS, "acted": "recruit or end the turn"}

__all__ = ["STEP_WORDS", "draw_header"]


def draw_header(
    canvas: Image.Image, view: Mapping[str, Any], rect: Rect, theme: Theme, marks: Sequence[str]
) -> None:
    """Round and current player (or the winner) on the left, the reserve on the right."""
    draw = ImageDraw.Draw(canvas)
    y = (rect.y0 + rect.y1) / 2
    right = _reserve(canvas, draw, view, rect.x1 - 6, y, theme)
    x = rect.x0 + 4.0
    draw_text(draw, (x, y), "YAMATAI", theme.accent, theme.title_size, anchor="lm")
    x += font("bold", theme.title_size).getlength("YAMATAI") + 18
    text = _status(view)
    size = theme.heading_size + 2
    while size > 14 and text_length(text, size) > right - x - 16:
        size -= 1
    draw_text(draw, (x, y), text, theme.ink_light, size, anchor="lm")


def _status(view: Mapping[str, Any]) -> str:
    """Whose turn and what to do, or who won."""
    players = view["players"]
    outcome = view.get("outcome")
    if view.get("over") and outcome:
        seat = int(outcome["winner"])
        scores = outcome.get("scores", [])
        total = next((s["total"] for s in scores if s["seat"] == seat), "")
        rounds = view.get("round", "")
        return f"Game over after round {rounds}  ·  {players[seat]['name']} wins with {total} PP"
    current = view.get("current_seat")
    turn = view.get("turn") or {}
    words = RECRUIT_FIRST_WORDS if view.get("step_order") == "recruit-first" else STEP_WORDS
    step = words.get(str(turn.get("step", "")), str(turn.get("step", "")))
    who = players[current]["name"] if isinstance(current, int) else "?"
    return f"Round {view.get('round', '')}  ·  {who} to play: {step}"


def _reserve(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    right: float,
    y: float,
    theme: Theme,
) -> float:
    """The boats left in the reserve, right-aligned; returns the x where it starts."""
    reserve = view.get("reserve") or {}
    letters = boat_letters()
    x = right
    for boat in reversed(list(letters)):
        count = str(reserve.get(boat, 0))
        draw_text(draw, (x, y), count, theme.ink_light, theme.body_size, anchor="rm")
        x -= font("bold", theme.body_size).getlength(count) + 4
        paste_centred(canvas, boat_sprite(theme, boat, letters[boat], 34), (x - 17, y))
        x -= 46
    draw_text(
        draw, (x, y), "reserve", theme.ink_dim, theme.small_size, style="regular", anchor="rm"
    )
    return x - font("regular", theme.small_size).getlength("reserve")
