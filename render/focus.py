"""The turn ("focus") picture's shared parts: big text lines, marked legal targets, the crop.

A focus picture is laid out for a phone: ``WIDTH`` pixels wide, shown about 400 px wide by
Discord, so its smallest text (``SMALL``) still reads at about 9-10 px there. Each game stacks
text blocks and a crop of its board picture (with the legal targets ringed) with ``stack``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import Style
from render.text import draw_text, text_length
from render.theme import RGB, Theme

WIDTH = 900
MARGIN = 24
TITLE = 40
BODY = 28
SMALL = 24
"""The smallest text of a focus picture (about 10.7 px when shown 400 px wide)."""
CROP_PAD = 64
MIN_CROP = (420, 300)
MAX_ZOOM = 2.0
MAX_CROP_HEIGHT = 900

#: A line of text: the words, their size, their colour, and whether they are bold.
Line = tuple[str, int, RGB, bool]

__all__ = [
    "BODY",
    "MARGIN",
    "SMALL",
    "TITLE",
    "WIDTH",
    "Line",
    "Marked",
    "crop_marked",
    "mark_target",
    "stack",
    "text_panel",
    "wrap_text",
]


@dataclass(frozen=True)
class Marked:
    """Where a legal target was marked on the board picture: its centre and half its size."""

    kind: str
    label: str
    x: float
    y: float
    radius: float
    """Half the width (a ring's radius)."""
    half_height: float | None = None
    """Half the height of a card-shaped target (None: a ring, ``radius``)."""
    tag: str = ""
    """A short name shown beside the target in the crop, at the picture's least size (a space's
    number, as the choices name it); empty: none."""
    tag_side: tuple[float, float] = (0.0, -1.0)
    """The side of the target where the tag goes, as a unit vector (default: above)."""
    tag_anchor: tuple[float, float, float] | None = None
    """The centre and reach (x, y, r) the tag stands beside on its side; None: the ring."""

    @property
    def ry(self) -> float:
        """Half the height."""
        return self.radius if self.half_height is None else self.half_height


def mark_target(canvas: Image.Image, marked: Marked, theme: Theme, shape: str = "ring") -> None:
    """A legal target ringed as Board Game Arena highlights legal moves: a thick bright ring
    with a dark edge (reads on sea, land and panels, and without colour by its shape)."""
    draw = ImageDraw.Draw(canvas)
    x, y, r = marked.x, marked.y, marked.radius
    box = (x - r, y - marked.ry, x + r, y + marked.ry)
    if shape == "box":
        draw.rounded_rectangle(box, radius=8, outline=theme.ink, width=9)
        draw.rounded_rectangle(box, radius=8, outline=theme.accent, width=5)
        return
    draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=theme.ink, width=9)
    draw.ellipse(box, outline=theme.accent, width=5)


def crop_marked(
    picture: Image.Image,
    marks: Sequence[Marked],
    area: tuple[int, int, int, int],
    *,
    width: int = WIDTH,
    theme: Theme | None = None,
) -> Image.Image:
    """The part of ``picture`` around the marks (else ``area``), scaled to ``width`` at most
    ``MAX_ZOOM`` times, centred on a background as wide as ``width``; with a ``theme``, each
    mark's tag on a badge in the ring's colours, drawn after scaling so that it reads on a phone."""
    if marks:
        x0 = min(m.x - m.radius for m in marks) - CROP_PAD
        y0 = min(m.y - m.ry for m in marks) - CROP_PAD
        x1 = max(m.x + m.radius for m in marks) + CROP_PAD
        y1 = max(m.y + m.ry for m in marks) + CROP_PAD
        x0, x1 = _widen(x0, x1, MIN_CROP[0], area[0], area[2])
        y0, y1 = _widen(y0, y1, MIN_CROP[1], area[1], area[3])
    else:
        x0, y0, x1, y1 = area
    box = (round(x0), round(y0), round(x1), round(y1))
    part = picture.crop(box)
    zoom = min(MAX_ZOOM, width / part.width, MAX_CROP_HEIGHT / part.height)
    size = (max(1, round(part.width * zoom)), max(1, round(part.height * zoom)))
    part = part.resize(size, Image.Resampling.BILINEAR)
    out = part
    if part.width != width:
        out = Image.new("RGB", (width, part.height), picture.getpixel((0, 0)))
        out.paste(part, ((width - part.width) // 2, 0))
    if theme is not None:
        left = (width - part.width) // 2
        for mark in marks:
            if mark.tag:
                x, y, reach = mark.tag_anchor or (mark.x, mark.y, mark.radius + 6)
                centre = (left + (x - box[0]) * zoom, (y - box[1]) * zoom)
                _tag(out, centre, reach * zoom, mark, theme)
    return out


def _tag(
    canvas: Image.Image, centre: tuple[float, float], reach: float, mark: Marked, theme: Theme
) -> None:
    """A target's tag on a badge just outside its ring, on its side, kept inside the canvas."""
    draw = ImageDraw.Draw(canvas)
    half_w = text_length(mark.tag, SMALL, "bold") / 2 + 6
    half_h = SMALL * 0.62
    dx, dy = mark.tag_side
    # from the ring's edge to the badge's centre: the badge's half extent along the side
    at = (centre[0] + dx * (reach + half_w), centre[1] + dy * (reach + half_h))
    x = min(max(at[0], MARGIN / 2 + half_w), canvas.width - MARGIN / 2 - half_w)
    y = min(max(at[1], half_h + 2), canvas.height - half_h - 2)
    box = (x - half_w, y - half_h, x + half_w, y + half_h)
    draw.rounded_rectangle(box, radius=7, fill=theme.accent, outline=theme.ink, width=3)
    draw_text(draw, (x, y), mark.tag, theme.ink, SMALL, "bold")


def _widen(
    low: float, high: float, least: float, floor: float, ceiling: float
) -> tuple[float, float]:
    """The span grown to ``least`` around its middle, kept inside floor..ceiling."""
    if high - low < least:
        middle = (low + high) / 2
        low, high = middle - least / 2, middle + least / 2
    if low < floor:
        low, high = floor, high + (floor - low)
    if high > ceiling:
        low, high = low - (high - ceiling), ceiling
    return max(floor, low), min(ceiling, high)


def wrap_text(text: str, size: int, width: float, bold: bool = True) -> list[str]:
    """Words broken into lines no wider than ``width`` pixels (a word never breaks)."""
    style: Style = "bold" if bold else "regular"
    lines: list[str] = []
    for word in text.split(" "):
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and text_length(candidate, size, style) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def text_panel(lines: Sequence[Line], theme: Theme, *, fill: RGB | None = None) -> Image.Image:
    """Lines of text, each wrapped to the picture's width, on the panel colour (or ``fill``)."""
    inner = WIDTH - 2 * MARGIN
    rows = [
        (part, size, colour, bold)
        for text, size, colour, bold in lines
        for part in wrap_text(text, size, inner, bold)
    ]
    height = MARGIN + sum(round(size * 1.3) for _, size, _, _ in rows) + MARGIN // 2
    panel = Image.new("RGB", (WIDTH, height), fill or theme.panel)
    draw = ImageDraw.Draw(panel)
    y = MARGIN * 0.75
    for text, size, colour, bold in rows:
        step = round(size * 1.3)
        style: Style = "bold" if bold else "regular"
        draw_text(draw, (MARGIN, y + step / 2), text, colour, size, style, anchor="lm")
        y += step
    return panel


def stack(parts: Sequence[Image.Image], theme: Theme, gap: int = 6) -> Image.Image:
    """Parts one under the other, separated by thin gaps of the background colour."""
    height = sum(p.height for p in parts) + gap * (len(parts) - 1)
    out = Image.new("RGB", (WIDTH, height), theme.background)
    y = 0
    for part in parts:
        out.paste(part, ((WIDTH - part.width) // 2, y))
        y += part.height + gap
    return out
