"""League pictures: the standings table and a player's rating-history chart (pure: data -> PNG).

Texts (title, column headers) come from the caller, already in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.png import encode_png
from render.text import draw_text, text_length
from render.theme import DEFAULT, Theme

__all__ = ["StandingRow", "render_rating_chart", "render_standings"]

PAD = 24
ROW = 34
TITLE = 56
NAME_WIDTH = 260
NUMBER_WIDTH = 96
NOTE_SIZE = 14
NAME_LEAST = 90  # pixels of the name a row's note leaves


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings picture, numbers already formatted."""

    rank: str
    player: str
    points: str
    played: str
    rating: str
    change: str  # "+1.2", "-0.4" or "" when the round changed nothing
    withdrawn: bool = False
    note: str = ""  # after the name, in the warning colour: games the player resigned


def _fit(text: str, width: float, size: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if text_length(text, size, "regular") <= width:
        return text
    while text and text_length(text + "…", size, "regular") > width:
        text = text[:-1]
    return text + "…"


def render_standings(
    title: str,
    subtitle: str,
    headers: Sequence[str],
    rows: Sequence[StandingRow],
    *,
    theme: Theme = DEFAULT,
) -> bytes:
    """The standings as a PNG: rank, player, points, games played, rating and its change.

    ``headers`` are the six column titles in that order; the change column is left out while
    no row has a change to show (an empty column under "Change" reads as missing data).
    Withdrawn players are drawn greyed and struck through; a row's note (games resigned)
    follows the name in the warning colour.
    """
    widths = [56, NAME_WIDTH, NUMBER_WIDTH, NUMBER_WIDTH, NUMBER_WIDTH, NUMBER_WIDTH]
    if not any(row.change for row in rows):
        widths.pop()
    width = PAD * 2 + sum(widths)
    height = PAD * 2 + TITLE + ROW * (len(rows) + 1)
    image = Image.new("RGB", (width, height), theme.panel)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (PAD, PAD + 14), _fit(title, width - 2 * PAD, 24), theme.ink, 24, anchor="lm")
    draw_text(draw, (PAD, PAD + 42), subtitle, theme.ink_soft, 15, "regular", anchor="lm")
    top = PAD + TITLE
    draw.rectangle((PAD, top, width - PAD, top + ROW), fill=theme.background)
    lefts = [PAD + sum(widths[:i]) for i in range(len(widths))]
    for i, header in enumerate(headers[: len(widths)]):
        anchor = "lm" if i == 1 else "mm"
        x = lefts[i] + 8 if i == 1 else lefts[i] + widths[i] / 2
        draw_text(draw, (x, top + ROW / 2), header, theme.ink_light, 15, anchor=anchor)
    for n, row in enumerate(rows):
        y = top + ROW * (n + 1)
        fill = theme.panel_alt if n % 2 else theme.panel
        draw.rectangle((PAD, y, width - PAD, y + ROW), fill=fill)
        ink = theme.ink_soft if row.withdrawn else theme.ink
        cells = [row.rank, row.player, row.points, row.played, row.rating, row.change]
        for i, cell in enumerate(cells[: len(widths)]):
            mid = y + ROW / 2
            if i == 1:
                _name_cell(draw, (lefts[1] + 8, mid), widths[1] - 16, row, ink, theme)
                continue
            colour = ink
            if i == 5 and cell.startswith("-"):
                colour = theme.negative
            elif i == 5 and cell.startswith("+"):
                colour = (0x2E, 0x7D, 0x32)
            draw_text(draw, (lefts[i] + widths[i] / 2, mid), cell, colour, 16, anchor="mm")
        if row.withdrawn:
            draw.line((PAD + 8, y + ROW / 2, width - PAD - 8, y + ROW / 2), fill=ink, width=1)
    draw.rectangle((PAD, top, width - PAD, height - PAD), outline=theme.panel_edge, width=2)
    return encode_png(image)


def _name_cell(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    width: float,
    row: StandingRow,
    ink: tuple[int, int, int],
    theme: Theme,
) -> None:
    """The player's name, cut to leave room for the row's note, then the note."""
    note = _fit(row.note, width - NAME_LEAST, NOTE_SIZE) if row.note else ""
    room = width - (text_length(note, NOTE_SIZE, "regular") + 6 if note else 0)
    name = _fit(row.player, room, 16)
    draw_text(draw, at, name, ink, 16, "regular", anchor="lm")
    if note:
        x = at[0] + text_length(name, 16, "regular") + 6
        draw_text(draw, (x, at[1]), note, theme.negative, NOTE_SIZE, "regular", anchor="lm")


def render_rating_chart(
    values: Sequence[float],
    *,
    axis: str,
    number: Callable[[float], str] = "{:.1f}".format,
    theme: Theme = DEFAULT,
    width: int = 480,
) -> bytes:
    """A small line chart of a rating after each rated game (oldest left), starting at 0: no
    title (the card above it names the player and the game), ``axis`` under the line (what
    it counts, in the reader's words), the rating's marks written by ``number``."""
    height = 200
    image = Image.new("RGB", (width, height), theme.panel)
    draw = ImageDraw.Draw(image)
    points = [0.0, *values]
    low, high = min(points), max(points)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    left, right, top, bottom = 56, width - 20, 16, height - 36
    for value in (low, (low + high) / 2, high):
        y = bottom - (value - low) / (high - low) * (bottom - top)
        draw.line((left, y, right, y), fill=theme.panel_alt, width=1)
        draw_text(draw, (left - 6, y), number(value), theme.ink_soft, 12, "regular", anchor="rm")
    step = (right - left) / max(1, len(points) - 1)
    xy = [
        (left + i * step, bottom - (v - low) / (high - low) * (bottom - top))
        for i, v in enumerate(points)
    ]
    if len(xy) > 1:
        draw.line(xy, fill=theme.sea_bottom, width=3)
    for x, y in xy:
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=theme.last_turn_ink)
    draw.line((left, bottom, right, bottom), fill=theme.ink_soft, width=1)
    label = _fit(axis, right - left, 13)
    draw_text(
        draw, ((left + right) / 2, bottom + 18), label, theme.ink_soft, 13, "regular", anchor="mm"
    )
    return encode_png(image)
