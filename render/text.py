"""Text in any script: each character is drawn by the first bundled font that has it.

A string is split into runs by font (the style's main font, then its fallbacks, see
``render.fonts.chain``); runs are drawn one after the other on a common baseline and measured the
same way, so fitting and ellipses work for every script. A character no bundled font has is
drawn as ``SUBSTITUTE`` (never an empty box); invisible format characters and variation
selectors without a glyph are dropped. ASCII text is one run of the main font, as before.
Without libraqm, right-to-left runs are shaped and put in drawing order by ``render.shaping``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from render import fonts
from render.fonts import Style, chain, coverage, font, font_file
from render.shaping import visual
from render.theme import RGB

#: Drawn in place of a character that no bundled font has (a small black diamond).
SUBSTITUTE = "\u25c6"
#: Categories of characters that take no room: dropped when no font has them.
INVISIBLE = frozenset({"Mn", "Me", "Cf"})
#: Explicit direction marks, embeddings, overrides and isolates (U+061C, U+200E-F, U+202A-E,
#: U+2066-9): allowed in Discord names, they would reorder what follows a name (D148).
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f" + "".join(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
)
_NO_BIDI = str.maketrans(dict.fromkeys(BIDI_CONTROLS))
#: Categories that stay in the run before them when its font has them (spaces, marks).
NEUTRAL = frozenset({"Zs", "Mn", "Me", "Cf"})
_SHIFT = {"l": 0.0, "m": 0.5, "r": 1.0}

Run = tuple[str, int]  # (text, index of its font in the style's chain)

#: While ``recording()`` is active: every text drawn, with its size in picture pixels.
_RECORDS: ContextVar[list[tuple[str, float]] | None] = ContextVar("text_records", default=None)


class Drawn(NamedTuple):
    """A text as drawn, in picture pixels: its box and the size of the surface it was drawn on
    (a sprite's or a text panel's own surface, or the whole picture)."""

    text: str
    size: float
    box: tuple[float, float, float, float]
    surface: tuple[float, float]


#: While ``measuring()`` is active: every text drawn, with its box.
_BOXES: ContextVar[list[Drawn] | None] = ContextVar("text_boxes", default=None)

__all__ = [
    "SUBSTITUTE",
    "Drawn",
    "Run",
    "draw_text",
    "face",
    "fit_name_first",
    "fit_text",
    "ink_box",
    "measuring",
    "recording",
    "runs",
    "text_length",
    "watched",
]


@contextmanager
def recording() -> Iterator[list[tuple[str, float]]]:
    """Collect (text, size in picture pixels) of every ``draw_text`` call inside the block."""
    records: list[tuple[str, float]] = []
    token = _RECORDS.set(records)
    try:
        yield records
    finally:
        _RECORDS.reset(token)


def watched() -> bool:
    """Whether texts are being recorded or measured (memos of drawn text are then bypassed)."""
    return _RECORDS.get() is not None or _BOXES.get() is not None


@contextmanager
def measuring() -> Iterator[list[Drawn]]:
    """Collect every ``draw_text`` call inside the block with its box (for layout tests)."""
    boxes: list[Drawn] = []
    token = _BOXES.set(boxes)
    try:
        yield boxes
    finally:
        _BOXES.reset(token)


def _measure(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    style: Style,
    anchor: str,
    stroke: int,
    scale: int,
) -> Drawn:
    """Where ``draw_text`` puts ``text``: the advance width across, the main font's ink height."""
    advance = text_length(text, size, style)
    x0 = xy[0] - _SHIFT[anchor[0]] * advance - stroke
    width = advance + 2 * stroke
    shown = "".join(chunk for chunk, _ in runs(text, style))
    top, bottom = font(style, size).getbbox(shown, anchor=anchor, stroke_width=stroke)[1::2]
    box = (x0 / scale, (xy[1] + top) / scale, (x0 + width) / scale, (xy[1] + bottom) / scale)
    surface = (draw.im.size[0] / scale, draw.im.size[1] / scale)
    return Drawn(text, size / scale, box, surface)


def face(style: Style, index: int, size: int) -> ImageFont.FreeTypeFont:
    """Font ``index`` of a style's chain (0: the main font) at a pixel size."""
    return font_file(chain(style)[index], size)


def _font_index(char: str, style: Style, previous: int | None) -> int | None:
    """Which font of the chain draws ``char`` (None: none has it)."""
    code = ord(char)
    files = chain(style)
    stays = previous is not None and code in coverage(files[previous])
    if stays and unicodedata.category(char) in NEUTRAL:
        return previous
    return next((i for i, name in enumerate(files) if code in coverage(name)), None)


def without_bidi_controls(text: str) -> str:
    """``text`` without explicit direction controls (a user-given name's are never kept)."""
    return text if text.isascii() else text.translate(_NO_BIDI)


@lru_cache(maxsize=4096)
def runs(text: str, style: Style) -> tuple[Run, ...]:
    """``text`` split into runs of one font each, with substitutes for missing characters."""
    if text.isascii():
        return ((text, 0),) if text else ()
    found: list[Run] = []
    for char in without_bidi_controls(text):
        index = _font_index(char, style, found[-1][1] if found else None)
        if index is None:
            if unicodedata.category(char) in INVISIBLE:
                continue
            char, index = SUBSTITUTE, 0
        if found and found[-1][1] == index:
            found[-1] = (found[-1][0] + char, index)
        else:
            found.append((char, index))
    if fonts.LAYOUT == ImageFont.Layout.RAQM:  # Pillow shapes and orders it
        return tuple(found)
    files = chain(style)
    return tuple((visual(chunk, coverage(files[i])), i) for chunk, i in found)


@lru_cache(maxsize=8192)
def text_length(text: str, size: int, style: Style = "bold") -> float:
    """The advance width of ``text`` in pixels, as ``draw_text`` draws it."""
    if text.isascii():
        return font(style, size).getlength(text)
    return sum(face(style, i, size).getlength(chunk) for chunk, i in runs(text, style))


ELLIPSIS = "\u2026"


def _less(text: str, cut: int) -> str:
    """``text`` less ``cut`` letters, with an ellipsis when shortened."""
    return text if cut == 0 else text[: max(0, len(text) - cut)].rstrip() + ELLIPSIS


_ASIDE = re.compile(r"\s*\([^()]*\)(?=[^()]*$)")


def without_aside(text: str) -> str:
    """``text`` without its last bracketed aside ("Computer 1 (normal)" -> "Computer 1"), the
    first thing a name too long for its place gives up (a level, a note), before its letters."""
    return _ASIDE.sub("", text, count=1)


def fit_text(text: str, size: int, width: float, style: Style = "bold") -> str:
    """``text`` as drawn within ``width`` pixels at ``size``: whole when it fits, else without
    its last bracketed aside, else cut to end with an ellipsis ("Bartholom…"), never below its
    first letter (the one cut of names and words too long for their place)."""
    if text_length(text, size, style) <= width:
        return text
    shorter = without_aside(text)
    if shorter != text and text_length(shorter, size, style) <= width:
        return shorter
    text = shorter
    letters = len(text) - 1
    while letters > 1 and text_length(_less(text, len(text) - letters), size, style) > width:
        letters -= 1
    return _less(text, len(text) - max(1, letters))


def fit_name_first(
    line: Callable[[str, str], str],
    name: str,
    detail: str,
    size: int,
    width: float,
    style: Style = "bold",
) -> str:
    """``line(name, detail)`` within ``width`` pixels: the name's bracketed aside goes first
    ("Computer 1 (normal)": its level), then the detail (a step, what is done) loses letters,
    down to an ellipsis; only then the name, never below its first letter."""
    shorter = without_aside(name)
    if shorter != name:  # whole with its aside, before the aside goes
        text = line(name, detail)
        if text_length(text, size, style) <= width:
            return text
        name = shorter
    for cut in range(len(detail) + 1):
        text = line(name, _less(detail, cut))
        if text_length(text, size, style) <= width:
            return text
    short = _less(detail, len(detail)) if detail else ""
    for cut in range(1, len(name)):
        text = line(_less(name, cut), short)
        if text_length(text, size, style) <= width:
            return text
    return line(_less(name, max(0, len(name) - 1)), short)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: RGB,
    size: int,
    style: Style = "bold",
    anchor: str = "mm",
    halo: RGB | None = None,
    halo_width: int = 2,
    scale: int = 1,
) -> None:
    """Text from the bundled fonts, optionally with a halo (stroke) for contrast.

    ``scale``: the surface is drawn at that many times the picture's size (and reduced later).
    """
    records = _RECORDS.get()
    if records is not None and text.strip():
        records.append((text, size / scale))
    stroke = halo_width if halo is not None else 0
    boxes = _BOXES.get()
    if boxes is not None and text.strip():
        boxes.append(_measure(draw, xy, text, size, style, anchor, stroke, scale))
    for at, chunk, run_font, run_anchor in _placed(xy, text, size, style, anchor):
        _stamp(draw, at, chunk, run_font, run_anchor, fill, stroke, halo)


Stamp = tuple[tuple[float, float], str, ImageFont.FreeTypeFont, str]
"""A run of one font as drawn: where, its text, its font and its anchor."""


def _placed(
    xy: tuple[float, float], text: str, size: int, style: Style, anchor: str
) -> list[Stamp]:
    """The runs of ``text`` as ``draw_text`` lays them out."""
    parts = runs(text, style)
    main = font(style, size)
    if len(parts) == 1 and parts[0][1] == 0:  # the main font alone: as Pillow anchors it
        return [(xy, parts[0][0], main, anchor)]
    shown = "".join(chunk for chunk, _ in parts)
    x = xy[0] - _SHIFT[anchor[0]] * text_length(text, size, style)
    # The baseline where the main font would put it for this anchor; every run sits on it.
    y = xy[1] + main.getbbox(shown, anchor=anchor)[1] - main.getbbox(shown, anchor="ls")[1]
    placed: list[Stamp] = []
    for chunk, index in parts:
        run_font = face(style, index, size)
        placed.append(((x, y), chunk, run_font, "ls"))
        x += run_font.getlength(chunk)
    return placed


def ink_box(
    xy: tuple[float, float], text: str, size: int, style: Style = "bold", anchor: str = "mm"
) -> tuple[int, int, int, int] | None:
    """The pixels ``draw_text`` (no halo, on an RGB or L surface) may change: the union of its
    glyph masks' boxes; None when it draws nothing, or lets Pillow lay out several lines."""
    if "\n" in text:
        return None
    boxes = []
    for (x, y), chunk, run_font, run_anchor in _placed(xy, text, size, style, anchor):
        start = (math.modf(x)[0], math.modf(y)[0])
        core, offset = _mask(run_font, chunk, run_anchor, 0, start, "L")
        left, top = int(x) + offset[0], int(y) + offset[1]
        if core.size[0] and core.size[1]:
            boxes.append((left, top, left + core.size[0], top + core.size[1]))
    if not boxes:
        return None
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def one_mask(
    xy: tuple[float, float], text: str, size: int, style: Style = "bold", anchor: str = "mm"
) -> Mask | None:
    """The coverage mask ``draw_text`` (no halo, on an RGB or L surface) lays for a line of one
    font, and where its corner goes; None when it lays several (fonts, lines)."""
    if "\n" in text:
        return None
    placed = _placed(xy, text, size, style, anchor)
    if len(placed) != 1:
        return None
    (x, y), chunk, run_font, run_anchor = placed[0]
    core, offset = _mask(run_font, chunk, run_anchor, 0, (math.modf(x)[0], math.modf(y)[0]), "L")
    return core, (int(x) + offset[0], int(y) + offset[1])


def ink_ramp(colour: RGB, fill: RGB) -> Image.Image:
    """What ``draw_text`` lays in ``colour`` on ``fill`` at each coverage level 0..255: a
    256x1 RGB strip (a pixel's colour depends on its coverage alone)."""
    ramp = Image.new("RGB", (256, 1), fill)
    levels = Image.new("L", (256, 1))
    levels.putdata(range(256))
    _composite(ImageDraw.Draw(ramp), (0, 0), (levels.im, (0, 0)), colour)
    return ramp


def _stamp(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    anchor: str,
    fill: RGB,
    stroke: int,
    halo: RGB | None,
) -> None:
    """One line of one font, exactly as ``ImageDraw.text`` draws it, from cached masks.

    Pillow renders a mask per call (most of a picture's drawing time); the same text, font,
    anchor, stroke and sub-pixel offset always give the same mask, so it is rendered once and
    then composited in the fill colour. It uses Pillow's own ``ImageDraw.text`` internals
    (``draw.draw.draw_bitmap``, ``_getink``); tests/render/test_speed.py compares the pixels
    with ``ImageDraw.text``, so a Pillow upgrade that changes them is caught.
    """
    if "\n" in text:  # several lines: Pillow lays them out
        draw.text(
            xy, text, fill=fill, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=halo
        )
        return
    x, y = xy
    at = (int(x), int(y))
    start = (math.modf(x)[0], math.modf(y)[0])
    outline = halo if halo is not None else fill
    if stroke:
        _composite(draw, at, _mask(font, text, anchor, stroke, start, draw.fontmode), outline)
        if draw._getink(outline)[0] == draw._getink(fill)[0]:  # Pillow draws the fill only if
            return  # it differs from the stroke
    _composite(draw, at, _mask(font, text, anchor, 0, start, draw.fontmode), fill)


Mask = tuple[Any, tuple[int, int]]  # (Pillow's core image of the mask, offset)


@lru_cache(maxsize=8192)  # a whole 4-player game draws under 1,000 masks
def _mask(
    font: ImageFont.FreeTypeFont,
    text: str,
    anchor: str,
    stroke: int,
    start: tuple[float, float],
    mode: str,
) -> Mask:
    """Pillow's coverage mask of a line of text and its offset from the drawing position."""
    mask, offset = font.getmask2(
        text, mode, anchor=anchor, stroke_width=stroke, start=start, stroke_filled=True
    )
    return mask, offset


def _composite(draw: ImageDraw.ImageDraw, at: tuple[int, int], mask: Mask, fill: RGB) -> None:
    """A cached mask laid on the drawing in one colour (as ``ImageDraw.text`` does)."""
    core, offset = mask
    ink = draw._getink(fill)[0]
    draw.draw.draw_bitmap((at[0] + offset[0], at[1] + offset[1]), core, ink)
