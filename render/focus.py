"""The turn ("focus") picture's shared parts: big text lines, marked legal targets, the crop.

A focus picture is laid out for a phone: ``WIDTH`` pixels wide, shown about 400 px wide by
Discord, so its smallest text (``SMALL``) still reads at about 9-10 px there. Each game stacks
text blocks and a crop of its board picture (with the legal targets ringed) with ``stack``.

The crop is either cut from the board picture and scaled (``crop_marked``), or drawn at its own
size (``frame``, ``Stage``, ``scaled_static``): the board's static layer scaled once per game,
size and zoom and kept in tiles, the pieces pasted on it scaled, the rings drawn at size. Zooms
are multiples of ``1/GRID`` and the crop starts on a ``GRID``-pixel grid, so the tiles of one
zoom fit any crop at whole pixels; they are snapped down to a few levels (``ZOOMS``), so the
tiles and scaled sprites of a level are made once and then kept for every game (D136).
"""

from __future__ import annotations

import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from engine.contract import Event, View
from render.extras import Since
from render.fonts import Style
from render.png import to_palette
from render.text import draw_text, ink_box, ink_ramp, one_mask, text_length, watched
from render.theme import RGB, Theme
from render.words import say

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
GRID = 16
"""Zooms drawn at size are multiples of 1/GRID, and their crops start on a GRID-pixel grid."""
ZOOM_STEPS = 4
"""Zoom levels per halving of the zoom (each level about 16% under the one above)."""
ZOOMS = tuple(
    sorted({math.floor(MAX_ZOOM * GRID / 2 ** (k / ZOOM_STEPS)) / GRID for k in range(17)})
)
"""The zooms a frame snaps down to (multiples of 1/GRID from ``MAX_ZOOM`` down to an eighth
of it), besides the zoom showing a whole area."""
TILE = 128
"""Side of a static-layer tile, in board pixels (a multiple of GRID)."""
TILE_BUDGET = 16_000_000
"""Pixels of scaled static tiles kept per process (64 MB: Pillow keeps RGB in 4 bytes a pixel),
least recently used first out: a game's map at its usual zooms (D122)."""
SPRITES = 2048
"""Scaled sprites kept per process."""

SINCE_SHOWN = 6
"""The others' turns told in a turn picture's "since your last turn" box (the latest)."""

Box = tuple[int, int, int, int]

#: A line of text: the words, their size, their colour, and whether they are bold.
Line = tuple[str, int, RGB, bool]

__all__ = [
    "BODY",
    "MARGIN",
    "SINCE_SHOWN",
    "SMALL",
    "TITLE",
    "WIDTH",
    "Box",
    "Frame",
    "Line",
    "Marked",
    "Panel",
    "Since",
    "Stage",
    "centred",
    "crop_marked",
    "draw_tags",
    "frame",
    "mark_changed",
    "mark_target",
    "overlaps",
    "palette_index",
    "scaled_static",
    "snapped_zoom",
    "stack",
    "stack_mapped",
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


def mark_target(
    canvas: Image.Image, marked: Marked, theme: Theme, shape: str = "ring", scale: float = 1.0
) -> None:
    """A legal target ringed as Board Game Arena highlights legal moves: a thick bright ring
    with a dark edge (reads on sea, land and panels, and without colour by its shape);
    ``scale``: the ring's widths for a picture drawn at that zoom (the mark already placed)."""
    draw = ImageDraw.Draw(canvas)
    x, y, r = marked.x, marked.y, marked.radius
    box = (x - r, y - marked.ry, x + r, y + marked.ry)
    edge, bright, out = max(1, round(9 * scale)), max(1, round(5 * scale)), 2 * scale
    if shape == "box":
        draw.rounded_rectangle(box, radius=8 * scale, outline=theme.ink, width=edge)
        draw.rounded_rectangle(box, radius=8 * scale, outline=theme.accent, width=bright)
        return
    draw.ellipse(
        (x - r - out, y - r - out, x + r + out, y + r + out), outline=theme.ink, width=edge
    )
    draw.ellipse(box, outline=theme.accent, width=bright)


@dataclass(frozen=True)
class Frame:
    """The part of the board picture a turn picture shows (``box``, board pixels) and its zoom."""

    box: Box
    zoom: float

    @property
    def size(self) -> tuple[int, int]:
        """The crop's size on the turn picture."""
        x0, y0, x1, y1 = self.box
        return (max(1, round((x1 - x0) * self.zoom)), max(1, round((y1 - y0) * self.zoom)))

    def point(self, xy: tuple[float, float]) -> tuple[float, float]:
        """A board pixel's place on the crop."""
        return ((xy[0] - self.box[0]) * self.zoom, (xy[1] - self.box[1]) * self.zoom)

    def placed(self, marked: Marked) -> Marked:
        """A mark moved and sized onto the crop."""
        x, y = self.point((marked.x, marked.y))
        half = None if marked.half_height is None else marked.half_height * self.zoom
        return replace(marked, x=x, y=y, radius=marked.radius * self.zoom, half_height=half)


def frame(marks: Sequence[Marked], area: Box, width: int = WIDTH) -> Frame:
    """What ``crop_marked`` would show of ``area`` around the marks, for drawing at size: the
    zoom snapped down to a level of ``ZOOMS`` (at least the whole area's fit rounded down to a
    multiple of 1/GRID), the box widened around the marks to stay as wide on the turn picture
    and started on the GRID grid of the area."""
    x0, y0, x1, y1 = _marked_box(marks, area)
    ideal = min(MAX_ZOOM, width / (x1 - x0), MAX_CROP_HEIGHT / (y1 - y0))
    fit = min(MAX_ZOOM, width / (area[2] - area[0]), MAX_CROP_HEIGHT / (area[3] - area[1]))
    zoom = max(snapped_zoom(ideal), int(fit * GRID) / GRID)
    shown = min(width, (x1 - x0) * ideal) / zoom  # as wide on the turn picture as unrounded
    x0, x1 = _widen(x0, x1, shown, area[0], area[2])
    left = area[0] + int((x0 - area[0]) // GRID) * GRID
    top = area[1] + int((y0 - area[1]) // GRID) * GRID
    right = min(area[2], left + int(shown) + 1, left + int(width / zoom))
    bottom = min(area[3], round(y1), top + int(MAX_CROP_HEIGHT / zoom))
    return Frame((left, top, right, bottom), zoom)


def snapped_zoom(ideal: float) -> float:
    """The highest level of ``ZOOMS`` not above ``ideal`` (under them all: a multiple of 1/GRID)."""
    return max((z for z in ZOOMS if z <= ideal), default=int(ideal * GRID) / GRID)


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes (x0, y0, x1, y1; x1, y1 exclusive) share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _marked_box(marks: Sequence[Marked], area: Box) -> tuple[float, float, float, float]:
    """The marks' box with its padding, at least ``MIN_CROP``, inside ``area`` (else the area)."""
    if not marks:
        return area
    x0 = min(m.x - m.radius for m in marks) - CROP_PAD
    y0 = min(m.y - m.ry for m in marks) - CROP_PAD
    x1 = max(m.x + m.radius for m in marks) + CROP_PAD
    y1 = max(m.y + m.ry for m in marks) + CROP_PAD
    x0, x1 = _widen(x0, x1, MIN_CROP[0], area[0], area[2])
    y0, y1 = _widen(y0, y1, MIN_CROP[1], area[1], area[3])
    return x0, y0, x1, y1


_TILES: OrderedDict[Hashable, Image.Image] = OrderedDict()
_TILE_PIXELS = [0]
_KEPT = threading.Lock()  # the bot may draw in several threads (RENDER_PROCESSES=0)


def scaled_static(
    key: Hashable, static: Callable[[], Image.Image], area: Box, shown: Frame
) -> Image.Image:
    """The static layer (``static()``, cached by the caller under ``key``) under a frame of
    ``area``, scaled to the frame's zoom: cut from tiles of the area scaled once per key, zoom
    and tile (as scaling the frame's box alone at that zoom, within Pillow's rounding of a level
    or two, since the tiles and the box start on the same grid), kept up to ``TILE_BUDGET``
    pixels."""
    zoom, (left, top, right, bottom) = shown.zoom, shown.box
    if zoom == 1:
        return static().crop(shown.box)
    out = Image.new("RGB", shown.size)
    step = round(TILE * zoom)
    for j in range((top - area[1]) // TILE, (bottom - area[1] - 1) // TILE + 1):
        for i in range((left - area[0]) // TILE, (right - area[0] - 1) // TILE + 1):
            tile = _tile(key, static, area, zoom, i, j)
            at = (
                i * step - round((left - area[0]) * zoom),
                j * step - round((top - area[1]) * zoom),
            )
            out.paste(tile, at)
    return out


def _tile(
    key: Hashable, static: Callable[[], Image.Image], area: Box, zoom: float, i: int, j: int
) -> Image.Image:
    """One tile of the area scaled by ``zoom`` (from the whole layer, so its edges match)."""
    name = (key, area, zoom, i, j)
    with _KEPT:
        tile = _TILES.get(name)
        if tile is not None:
            _TILES.move_to_end(name)
            return tile
    x0, y0 = area[0] + i * TILE, area[1] + j * TILE
    layer = static()
    # every tile at exactly ``zoom`` (an area's edge tile reaches a fraction of a pixel past it)
    size = (
        math.ceil((min(area[2], x0 + TILE) - x0) * zoom),
        math.ceil((min(area[3], y0 + TILE) - y0) * zoom),
    )
    box = (x0, y0, min(layer.width, x0 + size[0] / zoom), min(layer.height, y0 + size[1] / zoom))
    tile = layer.resize(size, Image.Resampling.BILINEAR, box=box)
    with _KEPT:
        if name not in _TILES:
            _TILES[name] = tile
            _TILE_PIXELS[0] += tile.width * tile.height
        while _TILE_PIXELS[0] > TILE_BUDGET and len(_TILES) > 1:
            _, old = _TILES.popitem(last=False)
            _TILE_PIXELS[0] -= old.width * old.height
    return tile


class Stage:
    """Pieces placed on a crop drawn at its size: sprites scaled by the frame's zoom (each kept
    per size), put where the frame puts their board position."""

    def __init__(self, shown: Frame) -> None:
        self.frame = shown

    def paste(self, canvas: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
        """A board sprite, scaled, with its centre at the board position ``centre``."""
        zoom = self.frame.zoom
        size = (max(1, round(sprite.width * zoom)), max(1, round(sprite.height * zoom)))
        x, y = self.frame.point(centre)
        left, top = round(x - size[0] / 2), round(y - size[1] / 2)
        if not overlaps((left, top, left + size[0], top + size[1]), (0, 0, *canvas.size)):
            return  # outside the crop (about half a map's pieces): Pillow would clip it all
        scaled = sprite if size == sprite.size else _scaled_sprite(sprite, size)
        # Pillow's core paste, as Image.paste(scaled, (left, top), scaled) does it, without its
        # checks (a hundred pieces a picture: a tenth of the turn picture's time went to them);
        # a scaled sprite is premultiplied ("RGBa"): Pillow blends it in half the time (D137)
        canvas.load()
        core = scaled.im
        canvas.im.paste(core, (left, top, left + size[0], top + size[1]), core)


_SPRITES: OrderedDict[tuple[int, int, int], tuple[Image.Image, Image.Image]] = OrderedDict()


def _scaled_sprite(sprite: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A sprite at another size, its colours premultiplied by its alpha ("RGBa": Pillow pastes
    it fastest; sprites are cached images: kept by identity, with the sprite)."""
    name = (id(sprite), *size)
    with _KEPT:
        kept = _SPRITES.get(name)
        if kept is not None and kept[0] is sprite:
            _SPRITES.move_to_end(name)
            return kept[1]
    # Pillow resizes "RGBA" premultiplied anyway: kept so, without its way back to "RGBA"
    scaled = sprite.convert("RGBa").resize(size, Image.Resampling.BILINEAR)
    with _KEPT:
        _SPRITES[name] = (sprite, scaled)
        if len(_SPRITES) > SPRITES:
            _SPRITES.popitem(last=False)
    return scaled


def mark_changed(canvas: Image.Image, marked: Marked, theme: Theme, scale: float = 1.0) -> None:
    """A place changed since the viewer's last turn: a dashed square in the last turn's colour,
    a little outside the place (the legal targets' bright round rings never read alike)."""
    draw = ImageDraw.Draw(canvas)
    reach = marked.radius + 8 * scale
    x0, y0, x1, y1 = marked.x - reach, marked.y - reach, marked.x + reach, marked.y + reach
    width = max(2, round(4 * scale))
    dash = max(5.0, 11 * scale)
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    for (ax, ay), (bx, by) in itertools.pairwise(corners):
        length = math.hypot(bx - ax, by - ay)
        at = 0.0
        while at < length:
            end = min(length, at + dash)
            start_xy = (ax + (bx - ax) * at / length, ay + (by - ay) * at / length)
            end_xy = (ax + (bx - ax) * end / length, ay + (by - ay) * end / length)
            draw.line([start_xy, end_xy], fill=theme.last_turn_ink, width=width)
            at = end + dash * 0.7


def crop_marked(
    picture: Image.Image,
    marks: Sequence[Marked],
    area: tuple[int, int, int, int],
    *,
    width: int = WIDTH,
    theme: Theme | None = None,
    whole_width: bool = False,
) -> Image.Image:
    """The part of ``picture`` around the marks (else ``area``; ``whole_width``: as wide as the
    area), scaled to ``width`` at most ``MAX_ZOOM`` times, centred on a background as wide as
    ``width``; with a ``theme``, each mark's tag on a badge in the ring's colours, drawn after
    scaling so that it reads on a phone."""
    if marks:
        x0 = min(m.x - m.radius for m in marks) - CROP_PAD
        y0 = min(m.y - m.ry for m in marks) - CROP_PAD
        x1 = max(m.x + m.radius for m in marks) + CROP_PAD
        y1 = max(m.y + m.ry for m in marks) + CROP_PAD
        x0, x1 = _widen(x0, x1, MIN_CROP[0], area[0], area[2])
        y0, y1 = _widen(y0, y1, MIN_CROP[1], area[1], area[3])
    else:
        x0, y0, x1, y1 = area
    if whole_width:
        x0, x1 = area[0], area[2]
    box = (round(x0), round(y0), round(x1), round(y1))
    part = picture.crop(box)
    zoom = min(MAX_ZOOM, width / part.width, MAX_CROP_HEIGHT / part.height)
    size = (max(1, round(part.width * zoom)), max(1, round(part.height * zoom)))
    part = part.resize(size, Image.Resampling.BILINEAR)
    corner = picture.getpixel((0, 0))
    assert isinstance(corner, tuple)
    out = centred(part, (int(corner[0]), int(corner[1]), int(corner[2])), width)
    if theme is not None:
        draw_tags(out, marks, Frame(box, zoom), theme, (width - part.width) // 2)
    return out


def draw_tags(
    canvas: Image.Image, marks: Sequence[Marked], shown: Frame, theme: Theme, left: int
) -> None:
    """Each mark's tag on a badge beside its ring, on a crop ``left`` pixels in the canvas."""
    for mark in marks:
        if mark.tag:
            x, y, reach = mark.tag_anchor or (mark.x, mark.y, mark.radius + 6)
            at = shown.point((x, y))
            _tag(canvas, (left + at[0], at[1]), reach * shown.zoom, mark, theme)


def centred(part: Image.Image, fill: RGB, width: int = WIDTH) -> Image.Image:
    """The part in the middle of a strip ``width`` wide of the colour ``fill``."""
    if part.width == width:
        return part
    out = Image.new("RGB", (width, part.height), fill)
    out.paste(part, ((width - part.width) // 2, 0))
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


WRAPPED = 8192
"""Texts kept wrapped per process (entries): every picture's fixed titles, and a few hundred
games' names, scores and fleets (measuring each candidate line was a tenth of a turn picture)."""


def wrap_text(text: str, size: int, width: float, bold: bool = True) -> list[str]:
    """Words broken into lines no wider than ``width`` pixels (a word never breaks); kept."""
    key = (text, size, width, bold)
    kept = _WRAPPED.get(key)
    if kept is not None:
        return list(kept)
    lines = _wrapped(text, size, width, bold)
    _WRAPPED.put(key, tuple(lines), 1)
    return lines


def _wrapped(text: str, size: int, width: float, bold: bool) -> list[str]:
    """``wrap_text`` measured: a text that fits is one line (its words' lines only grow as
    words are added), else words are added to a line while it fits."""
    style: Style = "bold" if bold else "regular"
    if text_length(text, size, style) <= width:
        return [text]
    lines: list[str] = []
    for word in text.split(" "):
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and text_length(candidate, size, style) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def text_panel(lines: Sequence[Line], theme: Theme, *, fill: RGB | None = None) -> Panel:
    """Lines of text, each wrapped to the picture's width, on the panel colour (or ``fill``)."""
    inner = WIDTH - 2 * MARGIN
    rows = tuple(
        (part, size, colour, bold)
        for text, size, colour, bold in lines
        for part in wrap_text(text, size, inner, bold)
    )
    return Panel(rows, fill or theme.panel)


def for_everyone(view: View, legal: Sequence[str]) -> bool:
    """Whether a turn picture is a spectator's with nothing to choose: the thread's turn card,
    which shows what the turn changed to everyone reading the thread."""
    return view.get("viewer") is None and not legal


def choices_panel(
    view: View, legal: Sequence[str], lines: Callable[[], Sequence[Line]], theme: Theme
) -> list[Panel]:
    """The panel of the step's choices; none on a picture for everyone ("nothing to choose
    for now" would speak to nobody), nor when the lines have nothing to add to the title."""
    if for_everyone(view, legal):
        return []
    rows = lines()
    return [text_panel(rows, theme)] if rows else []


@dataclass(frozen=True)
class Panel:
    """A text panel: wrapped lines on a fill colour, as wide as the picture. Drawn as an RGB
    image (``image``), or straight into a palette picture from each line's kept palette image
    (``paste_mapped``): the same pixels as the RGB panel mapped to that palette."""

    rows: tuple[Line, ...]
    fill: RGB
    width = WIDTH

    @property
    def height(self) -> int:
        """The panel's height in pixels."""
        return MARGIN + sum(round(size * 1.3) for _, size, _, _ in self.rows) + MARGIN // 2

    def middles(self) -> Iterator[tuple[Line, float]]:
        """Each line and the height of its middle (where it is drawn, anchored "lm")."""
        y = MARGIN * 0.75
        for row in self.rows:
            step = round(row[1] * 1.3)
            yield row, y + step / 2
            y += step

    def image(self) -> Image.Image:
        """The panel as an RGB image."""
        panel = Image.new("RGB", (self.width, self.height), self.fill)
        draw = ImageDraw.Draw(panel)
        for (text, size, colour, bold), middle in self.middles():
            draw_text(draw, (MARGIN, middle), text, colour, size, _style(bold), anchor="lm")
        return panel

    def paste_mapped(self, picture: Image.Image, at: tuple[int, int], palette: Image.Image) -> None:
        """The panel laid into a palette ``picture`` (mapped to ``palette``) at ``at``."""
        box = (at[0], at[1], at[0] + self.width, at[1] + self.height)
        placed = []
        for (text, size, colour, bold), middle in self.middles():
            whole = math.floor(middle)
            ink = _mapped_line(text, size, colour, bold, self.fill, middle - whole, palette)
            if ink is not None:
                image, (dx, dy) = ink
                corner = (at[0] + dx, at[1] + whole + dy)
                placed.append((image, (*corner, corner[0] + image.width, corner[1] + image.height)))
        inside = all(_within(where, box) for _, where in placed)
        if not inside or any(overlaps(a[1], b[1]) for a, b in itertools.combinations(placed, 2)):
            picture.paste(to_palette(self.image(), palette), box[:2])  # inks meet: draw it whole
            return
        picture.paste(palette_index(self.fill, palette), box)
        for image, where in placed:
            picture.paste(image, where[:2])


def _style(bold: bool) -> Style:
    return "bold" if bold else "regular"


def _within(inner: Box, outer: Box) -> bool:
    """Whether a box lies inside another."""
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


class Kept:
    """A per-process memo of images, least recently used first out past ``budget`` pixels;
    a value made for an object (a palette image) is read back for that very object only
    (``get_for``, ``put_for``)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._pixels = 0
        self.cache_clear = self.forget  # as functools' memos: tests clear every render memo

    def get(self, key: Hashable) -> Any:
        """The value kept under ``key``, or None."""
        with _KEPT:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any, pixels: int) -> None:
        """Keep ``value`` (``pixels`` large), forgetting the least recently used past the budget."""
        with _KEPT:
            if key in self._items:
                return
            self._items[key] = (value, pixels)
            self._pixels += pixels
            while self._pixels > self.budget and len(self._items) > 1:
                _, (_, gone) = self._items.popitem(last=False)
                self._pixels -= gone

    def get_for(self, owner: object, key: Hashable, missing: Any = None) -> Any:
        """The value kept under ``key`` for ``owner``, compared by identity (``key`` holds its
        ``id``, which another object may take once ``owner`` is gone), else ``missing``."""
        found = self.get(key)
        return found[1] if found is not None and found[0] is owner else missing

    def put_for(self, owner: object, key: Hashable, value: Any, pixels: int) -> None:
        """``put`` a value made for ``owner`` (read back by ``get_for``)."""
        self.put(key, (owner, value), pixels)

    def forget(self) -> None:
        """Forget everything (tests measure texts as they are drawn)."""
        with _KEPT:
            self._items.clear()
            self._pixels = 0


LINE_BUDGET = 4_000_000
"""Pixels of mapped text lines kept per process (4 MB: a few thousand lines)."""
_LINES = Kept(LINE_BUDGET)
_WRAPPED = Kept(WRAPPED)
_RAMPS = Kept(1024)
_INDEXES = Kept(4096)

MappedLine = tuple[Image.Image, tuple[int, int]]
_UNSEEN = object()  # not kept (a line without ink is kept as None)


def palette_index(colour: RGB, palette: Image.Image) -> int:
    """The palette entry a pixel of ``colour`` is mapped to (``render.png.to_palette``)."""
    key = (id(palette), colour)
    kept = _INDEXES.get_for(palette, key)
    if kept is not None:
        return int(kept)
    index = to_palette(Image.new("RGB", (1, 1), colour), palette).getpixel((0, 0))
    assert isinstance(index, int)
    _INDEXES.put_for(palette, key, index, 1)
    return index


def _mapped_line(
    text: str,
    size: int,
    colour: RGB,
    bold: bool,
    fill: RGB,
    below: float,
    palette: Image.Image,
) -> MappedLine | None:
    """A text line drawn anchored "lm" at (MARGIN, ``below``) on ``fill``, cut to its ink and
    mapped to ``palette``, with the ink's offset (None: no ink). Kept per line, colour, fill,
    sub-pixel offset and palette; drawn again while texts are recorded or measured."""
    key = (text, size, colour, bold, fill, below, id(palette))
    if watched():
        return _measured_line(text, size, colour, bold, fill, below, palette)
    kept = _LINES.get_for(palette, key, _UNSEEN)
    if kept is not _UNSEEN:
        return kept  # type: ignore[no-any-return]
    box = ink_box((MARGIN, below), text, size, _style(bold), "lm")
    if box is None:
        line = _measured_line(text, size, colour, bold, fill, below, palette)
    else:  # drawn on its ink alone, moved by whole pixels: the same pixels
        shape = (box[2] - box[0], box[3] - box[1])
        at = (MARGIN - box[0], below - box[1])
        mapped = _ramped_line(at, text, size, colour, bold, fill, shape, palette)
        if mapped is None:
            strip = Image.new("RGB", shape, fill)
            draw_text(ImageDraw.Draw(strip), at, text, colour, size, _style(bold), "lm")
            mapped = to_palette(strip, palette)
        line = (mapped, (box[0], box[1]))
    area = 1 if line is None else line[0].width * line[0].height
    _LINES.put_for(palette, key, line, area)
    return line


def _ramped_line(
    at: tuple[float, float],
    text: str,
    size: int,
    colour: RGB,
    bold: bool,
    fill: RGB,
    shape: tuple[int, int],
    palette: Image.Image,
) -> Image.Image | None:
    """A line of one font whose single mask covers its strip of ``shape`` at ``at``, mapped
    without drawing: each coverage level looked up in the colour's mapped ramp (the strip drawn
    and mapped gives the same indexes, pixel by pixel); None for any other line."""
    laid = one_mask(at, text, size, _style(bold), "lm")
    if laid is None or laid[1] != (0, 0) or tuple(laid[0].size) != shape:
        return None
    coverage = Image.new("L", shape)
    coverage.im.paste(laid[0], (0, 0, *shape))
    mapped = coverage.point(_ramp_indexes(colour, fill, palette))
    mapped.putpalette(palette.getpalette() or [])
    return mapped


def _ramp_indexes(colour: RGB, fill: RGB, palette: Image.Image) -> list[int]:
    """The palette entry of ``colour`` laid on ``fill`` at each coverage level (kept)."""
    key = (id(palette), colour, fill)
    kept = _RAMPS.get_for(palette, key)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    indexes = list(to_palette(ink_ramp(colour, fill), palette).tobytes())
    _RAMPS.put_for(palette, key, indexes, 1)
    return indexes


def _measured_line(
    text: str,
    size: int,
    colour: RGB,
    bold: bool,
    fill: RGB,
    below: float,
    palette: Image.Image,
) -> MappedLine | None:
    """``_mapped_line`` drawn on a strip as wide as the picture (a measured text's box then
    reads in the panel's columns), its ink found by comparing with the fill."""
    lift = 2 * size  # room above and below the middle for any script's ink
    strip = Image.new("RGB", (WIDTH, 2 * lift), fill)
    draw_text(ImageDraw.Draw(strip), (MARGIN, lift + below), text, colour, size, _style(bold), "lm")
    box = ImageChops.difference(strip, Image.new("RGB", strip.size, fill)).getbbox()
    if box is None:
        return None
    return to_palette(strip.crop(box), palette), (box[0], box[1] - lift)


def stack(parts: Sequence[Image.Image | Panel], theme: Theme, gap: int = 6) -> Image.Image:
    """Parts one under the other, separated by thin gaps of the background colour."""
    height = sum(p.height for p in parts) + gap * (len(parts) - 1)
    out = Image.new("RGB", (WIDTH, height), theme.background)
    y = 0
    for part in parts:
        image = part.image() if isinstance(part, Panel) else part
        out.paste(image, ((WIDTH - part.width) // 2, y))
        y += part.height + gap
    return out


def stack_mapped(
    parts: Sequence[Image.Image | Panel], theme: Theme, palette: Image.Image, gap: int = 6
) -> Image.Image:
    """``stack`` as a palette picture mapped to ``palette``: the same pixels as
    ``to_palette(stack(parts, theme), palette)``, with only the RGB parts and the text lines
    not already kept mapped."""
    height = sum(p.height for p in parts) + gap * (len(parts) - 1)
    out = Image.new("P", (WIDTH, height), palette_index(theme.background, palette))
    out.putpalette(palette.getpalette() or [])
    y = 0
    for part in parts:
        at = ((WIDTH - part.width) // 2, y)
        if isinstance(part, Panel):
            part.paste_mapped(out, at, palette)
        else:
            out.paste(to_palette(part, palette), at)
        y += part.height + gap
    return out


def since_lines(
    view: View,
    since: Since,
    look: Theme,
    did: Callable[[str, int, Sequence[Event]], str],
    first_turn: bool = False,
) -> list[Line]:
    """The others' turns since the viewer's last one, each said by ``did(name, seat, events)``,
    and the legend of their marks (instead of the last turn, which may be the viewer's own turn
    just begun); ``first_turn``: the viewer has had none, so they are told since the game
    began."""
    players = view["players"]
    start = "_start" if first_turn else ""
    lines: list[Line] = [(say(f"c.focus.since{start}"), BODY, look.last_turn_ink, True)]
    turns = [(seat, events) for seat, events in since if 0 <= seat < len(players)]
    if not turns:
        return [*lines, (say(f"c.focus.since_nothing{start}"), SMALL, look.ink_soft, False)]
    for seat, events in turns[-SINCE_SHOWN:]:
        who = str(players[seat].get("name", ""))
        lines.append((did(who, seat, events), SMALL, look.ink, False))
    return [*lines, (say(f"c.focus.since_legend{start}"), SMALL, look.ink_soft, False)]
