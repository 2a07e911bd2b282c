"""The static layer: sea, islands, labels, spots and frames, drawn once per (board, theme, size);
its text-free base (everything but the words) once for every language."""

from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.yamatai.board import Board, load_board
from render.kept import TextFree
from render.stored import stored_map
from render.theme import RGB, Theme
from render.words import say
from render.yamatai.glyphs import draw_text
from render.yamatai.layout import Layout, Rect, layout
from render.yamatai.legend import draw_legend

K = 2  # supersampling of the map
WAVE_SEED = 1603  # the sea texture is the same on every run
CHANNEL = 0.34  # channel width, in hex units

Point = tuple[float, float]

__all__ = [
    "BASES",
    "MAPS",
    "base_layer",
    "drawn_map",
    "island_label_xy",
    "land_edges",
    "panel_box",
    "static_layer",
    "water_edges",
]


BASES: TextFree[Image.Image] = TextFree(8)
"""The text-free bases, by (board, theme, players): about 5 MB each (1600 px RGB)."""

MAPS: TextFree[Image.Image] = TextFree(4)
"""The sea and islands, by board, theme and map geometry (the same for every player count)."""


@lru_cache(maxsize=16)
def static_layer(board_name: str, theme: Theme, players: int, language: str = "en") -> Image.Image:
    """The picture's unchanging parts (cached; copy before drawing on it): the text-free base
    of its board, theme and player count, with the island labels, titles and legend on it."""
    board = load_board(board_name)
    lay = layout(board_name, players)
    canvas = base_layer(board_name, theme, players).copy()
    draw = ImageDraw.Draw(canvas)
    for i, label in enumerate(board.island_labels):
        x, y = island_label_xy(board, lay, i)
        draw_text(
            draw,
            (x, y),
            label,
            theme.island_label,
            theme.island_label_size,
            halo=theme.island_label_halo,
            halo_width=3,
        )
    for rect, title in (
        (lay.fleet, ""),
        (lay.buildings, say("y.area.buildings", language)),
        (lay.specialists, say("y.area.specialists", language)),
    ):
        draw_text(
            draw, (rect.x0 + 12, rect.y0 + 8), title, theme.ink_soft, theme.small_size, anchor="lt"
        )
    if lay.legend is not None:
        draw_legend(canvas, lay.legend, theme, language)
    return canvas


def base_layer(board_name: str, theme: Theme, players: int) -> Image.Image:
    """The static layer without a word: sea, islands, frame and empty boxes (made once per
    board, theme and player count and kept, shared by every language; never drawn on)."""
    return BASES.get((board_name, theme, players), lambda: _base(board_name, theme, players))


def _base(board_name: str, theme: Theme, players: int) -> Image.Image:
    """Draw the text-free base (no box overlaps a text drawn on it later)."""
    lay = layout(board_name, players)
    canvas = Image.new("RGB", (lay.width, lay.height), theme.background)
    canvas.paste(_kept_map(board_name, theme, lay), (lay.map.x0, lay.map.y0))
    _map_frame(canvas, theme, lay.map)
    draw = ImageDraw.Draw(canvas)
    for rect in (lay.fleet, lay.buildings, lay.specialists, *lay.panels):
        panel_box(draw, rect, theme)
    if lay.legend is not None:
        panel_box(draw, lay.legend, theme)
    return canvas


def _kept_map(board_name: str, theme: Theme, lay: Layout) -> Image.Image:
    """The sea and islands of a layout (never drawn on): kept per map geometry, read from the
    package for a built-in theme (render/stored.py), else drawn."""
    move = lay.transform
    size = (lay.map.width, lay.map.height)
    key = (board_name, theme, size, move.scale, move.x0 - lay.map.x0, move.y0 - lay.map.y0)

    def make() -> Image.Image:
        stored = stored_map("yamatai", board_name, theme, size)
        return stored if stored is not None else _map_image(load_board(board_name), theme, lay)

    return MAPS.get(key, make)


def drawn_map(board_name: str, theme: Theme, players: int) -> Image.Image:
    """The sea and islands of a board for a player count, drawn (nothing kept or read)."""
    return _map_image(load_board(board_name), theme, layout(board_name, players))


def panel_box(draw: ImageDraw.ImageDraw, rect: Rect, theme: Theme, fill: RGB | None = None) -> None:
    """A rounded parchment box."""
    draw.rounded_rectangle(
        rect.box, radius=10, fill=fill or theme.panel, outline=theme.panel_edge, width=2
    )


def island_label_xy(board: Board, lay: Layout, island: int) -> Point:
    """Where an island's label is drawn."""
    x, y = lay.transform.point(board.island_xy[island])
    return (x, y - 0.34 * lay.transform.scale)


def _edges(board: Board) -> dict[tuple[Point, Point], list[int]]:
    """Every hex edge (rounded endpoints) with the islands that have it."""
    edges: dict[tuple[Point, Point], list[int]] = {}
    for i, corners in enumerate(board.island_corners):
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            key = tuple(
                sorted(((round(a[0], 2), round(a[1], 2)), (round(b[0], 2), round(b[1], 2))))
            )
            edges.setdefault((key[0], key[1]), []).append(i)
    return edges


def land_edges(board: Board) -> list[tuple[Point, Point]]:
    """Edges shared by two islands with a land border."""
    return [
        e
        for e, isl in _edges(board).items()
        if len(isl) == 2 and isl[1] in board.island_neighbours[isl[0]]
    ]


def water_edges(board: Board) -> list[tuple[Point, Point]]:
    """Edges that are water: channels between islands and the outer coast."""
    return [
        e
        for e, isl in _edges(board).items()
        if len(isl) == 1 or isl[1] not in board.island_neighbours[isl[0]]
    ]


def _colouring(board: Board, tints: int) -> list[int]:
    """A tint per island so that islands joined by land differ (greedy)."""
    colour: list[int] = []
    for i in range(len(board.island_labels)):
        used = {colour[n] for n in board.island_neighbours[i] if n < i}
        colour.append(next((c for c in range(tints) if c not in used), i % tints))
    return colour


def _map_image(board: Board, theme: Theme, lay: Layout) -> Image.Image:
    """The sea and the islands at map size (drawn at K times and reduced)."""
    w, h = lay.map.width * K, lay.map.height * K
    scale = lay.transform.scale * K

    def px(xy: Point) -> Point:
        x, y = lay.transform.point(xy)
        return ((x - lay.map.x0) * K, (y - lay.map.y0) * K)

    gradient = Image.linear_gradient("L").resize((w, h))
    sea = Image.composite(
        Image.new("RGB", (w, h), theme.sea_bottom),
        Image.new("RGB", (w, h), theme.sea_top),
        gradient,
    )
    _waves(sea, theme, scale)

    mask = Image.new("L", (w, h), 0)
    mdraw = ImageDraw.Draw(mask)
    for corners in board.island_corners:
        mdraw.polygon([px(c) for c in corners], fill=255)
    channel = CHANNEL * scale
    for a, b in water_edges(board):
        pa, pb = px(a), px(b)
        mdraw.line([pa, pb], fill=0, width=round(channel))
        for x, y in (pa, pb):
            r = channel / 2
            mdraw.ellipse((x - r, y - r, x + r, y + r), fill=0)
    mask = mask.filter(ImageFilter.GaussianBlur(5 * K)).point(lambda v: 255 if v >= 128 else 0)

    glow = mask.filter(ImageFilter.GaussianBlur(9 * K)).point(lambda v: min(255, v * 2) * 3 // 5)
    sea.paste(theme.shallow, (0, 0, w, h), glow)
    coast = mask.filter(ImageFilter.GaussianBlur(1.5 * K)).point(lambda v: 255 if v > 12 else 0)
    sea.paste(theme.coast, (0, 0, w, h), coast)

    land = Image.new("RGB", (w, h), theme.land[0])
    ldraw = ImageDraw.Draw(land)
    for i, tint in enumerate(_colouring(board, len(theme.land))):
        ldraw.polygon([px(c) for c in board.island_corners[i]], fill=theme.land[tint])
    inner = mask.filter(ImageFilter.GaussianBlur(3 * K)).point(lambda v: 255 if v >= 250 else 0)
    beach = ImageChops.subtract(mask, inner).point(lambda v: v * 4 // 5)
    land.paste(theme.sand, (0, 0, w, h), beach)
    _land_borders(ldraw, board, theme, px, scale)
    sea.paste(land, (0, 0), mask)
    _entry_arrows(ImageDraw.Draw(sea), board, theme, px, scale)
    return sea.resize((lay.map.width, lay.map.height), Image.Resampling.LANCZOS)


def _waves(sea: Image.Image, theme: Theme, scale: float) -> None:
    """A light, deterministic texture of small wave crests."""
    rng = random.Random(WAVE_SEED)
    draw = ImageDraw.Draw(sea)
    w, h = sea.size
    size = scale * 0.22
    for _ in range(int(w * h / (scale * scale) * 1.6)):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        draw.arc(
            (x - size, y - size / 2, x + size, y + size / 2),
            200,
            340,
            fill=theme.sea_wave,
            width=K * 2,
        )


def _land_borders(
    draw: ImageDraw.ImageDraw, board: Board, theme: Theme, px: object, scale: float
) -> None:
    """Dotted lines where two islands meet by land."""
    assert callable(px)
    for a, b in land_edges(board):
        (ax, ay), (bx, by) = px(a), px(b)
        length = math.hypot(bx - ax, by - ay)
        dots = max(2, int(length / (0.11 * scale)))
        for n in range(1, dots):
            t = n / dots
            if 0.12 <= t <= 0.88:
                x, y = ax + (bx - ax) * t, ay + (by - ay) * t
                r = 0.022 * scale
                draw.ellipse((x - r, y - r, x + r, y + r), fill=theme.land_border)


def _entry_arrows(
    draw: ImageDraw.ImageDraw, board: Board, theme: Theme, px: object, scale: float
) -> None:
    """An arrow from the open sea to every entry spot."""
    assert callable(px)
    for s in board.entry_spots:
        sx, sy = px(board.spot_xy[s])
        ix, iy = px(board.island_xy[board.spot_islands[s][0]])
        dx, dy = sx - ix, sy - iy
        norm = math.hypot(dx, dy) or 1.0
        ux, uy = dx / norm, dy / norm
        tip = (sx + ux * 0.3 * scale, sy + uy * 0.3 * scale)
        tail = (sx + ux * 0.62 * scale, sy + uy * 0.62 * scale)
        wing = 0.12 * scale
        head = [
            tip,
            (tip[0] + ux * wing * 1.6 - uy * wing, tip[1] + uy * wing * 1.6 + ux * wing),
            (tip[0] + ux * wing * 1.6 + uy * wing, tip[1] + uy * wing * 1.6 - ux * wing),
        ]
        draw.line(
            [tail, (tip[0] + ux * wing, tip[1] + uy * wing)],
            fill=theme.spot_edge,
            width=round(0.09 * scale),
        )
        draw.line(
            [tail, (tip[0] + ux * wing, tip[1] + uy * wing)],
            fill=theme.entry_mark,
            width=round(0.05 * scale),
        )
        draw.polygon(head, fill=theme.entry_mark, outline=theme.spot_edge, width=K * 2)


def _map_frame(canvas: Image.Image, theme: Theme, rect: Rect) -> None:
    """Round the map's corners and frame it."""
    mask = Image.new("L", (rect.width, rect.height), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, rect.width - 1, rect.height - 1), radius=12, fill=255
    )
    outside = Image.new("RGB", (rect.width, rect.height), theme.background)
    region = canvas.crop(rect.box)
    region = Image.composite(region, outside, mask)
    canvas.paste(region, (rect.x0, rect.y0))
    ImageDraw.Draw(canvas).rounded_rectangle(rect.box, radius=12, outline=theme.panel_edge, width=2)
