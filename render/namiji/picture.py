"""Namiji's picture: static layer, then the boats, the centre, the boat boards and the header."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.marks import player_marks
from render.namiji import layout
from render.namiji.boards import draw_boards, fit_text
from render.namiji.centre import TASKS, draw_centre, draw_final_table
from render.namiji.glyphs import boat_sprite, paste_centred
from render.namiji.highlight import Highlight
from render.namiji.route import boat_look, draw_boats
from render.namiji.static import static_layer
from render.png import encode_png
from render.stand_in import ended, without_turn
from render.text import draw_text
from render.theme import Theme, get_theme

TITLE_SIZE = 26
HEADER_SIZE = 20
PHASES = {"move": "move a boat", "station": "at a station", "draft": "pontoon draft"}

__all__ = ["render_board", "render_image"]


def render_image(
    view: Mapping[str, Any],
    *,
    highlight: Highlight | None = None,
    events: Sequence[Mapping[str, Any]] | None = None,
    theme: str | Theme = "default",
) -> Image.Image:
    """The board of a view as an RGB Pillow image (the last turn from ``highlight`` or events)."""
    look = get_theme(theme)
    view = without_turn(view)  # a game the bot ended has nobody to play
    hl = highlight if highlight is not None else Highlight.from_events(events)
    players = view["players"]
    marks = player_marks(players)
    canvas = static_layer(
        look, len(players), len(view["boats"]), bool(view.get("doubles_used"))
    ).copy()
    draw_boats(canvas, view, look, hl, marks)
    if view.get("phase") == "over":
        draw_final_table(canvas, view, look, marks)
    else:
        draw_centre(canvas, view, look)
    draw_boards(canvas, view, look, hl, marks)
    _draw_header(canvas, view, look, marks)
    return canvas


def render_board(
    view: Mapping[str, Any],
    *,
    events: Sequence[Mapping[str, Any]] | None = None,
    theme: str | Theme = "default",
    highlight: Highlight | None = None,
) -> bytes:
    """The board of an engine view as PNG bytes (events: the last turn, ringed)."""
    return encode_png(render_image(view, highlight=highlight, events=events, theme=theme))


def _draw_header(
    canvas: Image.Image, view: Mapping[str, Any], look: Theme, marks: Sequence[str]
) -> None:
    """Title and turn; whose turn it is and what they do, or the winners."""
    draw = ImageDraw.Draw(canvas)
    _, top, right, bottom = layout.HEADER
    y = (top + bottom) / 2
    draw_text(draw, (18, y), "Namiji", look.ink_light, TITLE_SIZE, "bold", anchor="lm")
    draw_text(
        draw,
        (128, y),
        f"turn {int(view.get('turns', 0)) + 1}",
        look.ink_dim,
        HEADER_SIZE,
        "bold",
        anchor="lm",
    )
    players = view["players"]
    if view.get("phase") == "over":
        best = max(int(p.get("score", 0)) for p in players)
        names = [str(p.get("name", "")) for p in players if int(p.get("score", 0)) == best]
        text = f"Game over \u2014 {' and '.join(names)} {'wins' if len(names) == 1 else 'win'}"
        text = fit_text(f"{text} with {best} points", HEADER_SIZE + 2, right - 280)
        draw_text(draw, (260, y), text, look.accent, HEADER_SIZE + 2, "bold", anchor="lm")
        return
    if stopped := ended(view):
        text = f"{stopped} \u2014 scores as they stood"
        draw_text(draw, (260, y), text, look.accent, HEADER_SIZE + 2, "bold", anchor="lm")
        return
    seat = view.get("current_seat")
    if seat is None:
        return
    fill, ink, mark = boat_look(int(seat), players, marks)
    paste_centred(canvas, boat_sprite(fill, ink, mark, 17), (282, y))
    phase = str(view.get("phase", ""))
    doing = PHASES.get(phase, phase)
    tasks = list(view.get("tasks", []))
    if phase == "station" and tasks:
        doing = TASKS.get(tasks[0], tasks[0])
    name = fit_text(str(players[int(seat)].get("name", "")), HEADER_SIZE, 300)
    text = f"{name} to play: {doing}"
    draw_text(draw, (308, y), text, look.current, HEADER_SIZE, "bold", anchor="lm")
    viewer = view.get("viewer")
    who = "spectator view" if viewer is None else f"view of {players[int(viewer)].get('name', '')}"
    draw_text(draw, (right - 18, y), fit_text(who, 16, 300), look.ink_dim, 16, "bold", anchor="rm")
