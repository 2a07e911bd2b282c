"""Game pieces as small anti-aliased sprites (drawn 4x and reduced), cached per look.

Every sprite is an RGBA image; ``paste_centred`` puts one on the picture by its centre.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import Style, font
from render.kept import TextFree
from render.text import draw_text, text_length
from render.theme import RGB, Theme
from render.yamatai.signs import tile_label, tile_sign

SS = 4  # supersampling factor of sprites
MIN_TEXT = 14  # no text on the 1600 px picture is smaller (it must read on a phone)
HULL_W = 50  # hull of a boat on the map
HULL_H = 25

Sprite = Image.Image
Painter = Callable[[ImageDraw.ImageDraw, int], None]

__all__ = [
    "HULL_H",
    "HULL_W",
    "MIN_TEXT",
    "boat_sprite",
    "building_sprite",
    "coin_sprite",
    "draw_text",
    "draw_tile_label",
    "halo_sprite",
    "label_sprite",
    "map_boat_sprite",
    "mountain_sprite",
    "paste_centred",
    "pp_sprite",
    "sacred_sprite",
    "spot_sprite",
    "tile_label_width",
    "token_sprite",
]


def _sprite(width: int, height: int, paint: Painter) -> Sprite:
    """Paint at SS times the size with ``paint(draw, SS)`` and reduce to width x height."""
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SS)
    return big.resize((width, height), Image.Resampling.LANCZOS)


KEPT: TextFree[Sprite] = TextFree(1024)
"""Text-free sprites (a sail and hull, a spot's disc) before their words are written on them:
a few KB each, kept once made (docs/decisions.md D204)."""


def _kept(key: Hashable, width: int, height: int, paint: Painter) -> Sprite:
    """``_sprite`` kept under ``key`` (all that ``paint`` depends on), as a copy to write on."""
    return KEPT.get(key, lambda: _sprite(width, height, paint)).copy()


def _scaled(points: Sequence[tuple[float, float]], k: int) -> list[tuple[float, float]]:
    return [(x * k, y * k) for x, y in points]


def paste_centred(canvas: Image.Image, sprite: Sprite, centre: tuple[float, float]) -> None:
    """Composite a sprite onto the canvas with its centre at a pixel position."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)


def _label_on(sprite: Sprite, text: str, fill: RGB, size: int, centre: tuple[float, float]) -> None:
    draw_text(ImageDraw.Draw(sprite), centre, text, fill, size)


@lru_cache(maxsize=64)
def label_sprite(theme: Theme, text: str) -> Sprite:
    """An island's label with its halo, as the static layer writes it, on a clear sprite (to
    write it again over a ring on a picture drawn at another size)."""
    size = theme.island_label_size
    width = round(text_length(text, size)) + 4 * 3 + 4
    sprite = Image.new("RGBA", (width, size + 4 * 3 + 4), (0, 0, 0, 0))
    draw_text(
        ImageDraw.Draw(sprite),
        (sprite.width / 2, sprite.height / 2),
        text,
        theme.island_label,
        size,
        halo=theme.island_label_halo,
        halo_width=3,
    )
    return sprite


# -- boats -----------------------------------------------------------------------------------

HULL = ((0.0, 0.0), (0.12, 0.18), (0.88, 0.18), (1.0, 0.0), (0.86, 1.0), (0.14, 1.0))


def _hull(
    draw: ImageDraw.ImageDraw,
    k: int,
    box: tuple[float, float, float, float],
    fill: RGB,
    edge: RGB,
    halo: RGB,
) -> None:
    x0, y0, x1, y1 = box
    pts = [(x0 + u * (x1 - x0), y0 + v * (y1 - y0)) for u, v in HULL]
    draw.polygon(_scaled(pts, k), fill=halo)
    inner = [(x0 + 1.6 + u * (x1 - x0 - 3.2), y0 + 1.4 + v * (y1 - y0 - 3.0)) for u, v in HULL]
    draw.polygon(_scaled(inner, k), fill=edge)
    core = [(x0 + 3.0 + u * (x1 - x0 - 6.0), y0 + 3.0 + v * (y1 - y0 - 5.6)) for u, v in HULL]
    draw.polygon(_scaled(core, k), fill=fill)


@lru_cache(maxsize=64)
def boat_sprite(theme: Theme, boat: str, letter: str, width: int = 40) -> Sprite:
    """A boat of a type: a hull in its colour with its letter (for panels and tiles)."""
    height = max(MIN_TEXT + 3, round(width * 0.5))

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        _hull(draw, k, (0, 0, width, height), theme.boats[boat], theme.spot_edge, theme.spot_fill)

    sprite = _sprite(width, height, paint)
    _label_on(
        sprite,
        letter,
        theme.boat_ink[boat],
        max(MIN_TEXT, round(height * 0.68)),
        (width / 2, height * 0.56),
    )
    return sprite


@lru_cache(maxsize=512)
def map_boat_sprite(theme: Theme, boat: str, letter: str, label: str) -> Sprite:
    """A boat at a spot: its hull, colour and letter, under a sail showing the spot label."""
    size = theme.spot_label_size
    text_w = font("bold", size).getlength(label)
    sail_w = max(26, round(text_w) + 10)
    hull_w, hull_h = HULL_W, HULL_H
    sail_h = size + 6
    width, height = max(hull_w, sail_w) + 2, sail_h + hull_h + 2
    hx = (width - hull_w) / 2
    sx = (width - sail_w) / 2

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        mast_x = width / 2
        draw.rectangle(
            _box(mast_x - 1.2, sail_h - 2, mast_x + 1.2, sail_h + 6, k), fill=theme.spot_edge
        )
        draw.rounded_rectangle(
            _box(sx, 1, sx + sail_w, 1 + sail_h - 2, k),
            radius=6 * k,
            fill=theme.spot_fill,
            outline=theme.spot_edge,
            width=2 * k,
        )
        _hull(
            draw,
            k,
            (hx, sail_h + 1, hx + hull_w, sail_h + 1 + hull_h),
            theme.boats[boat],
            theme.spot_edge,
            theme.spot_fill,
        )

    sprite = _kept(("map_boat", theme, boat, sail_w), width, height, paint)
    _label_on(sprite, label, theme.spot_ink, size, (width / 2, sail_h / 2 + 0.5))
    _label_on(
        sprite,
        letter,
        theme.boat_ink[boat],
        theme.boat_letter_size,
        (width / 2, sail_h + 1 + hull_h * 0.56),
    )
    return sprite


def _box(x0: float, y0: float, x1: float, y1: float, k: int) -> tuple[float, float, float, float]:
    return (x0 * k, y0 * k, x1 * k, y1 * k)


# -- tokens and island features --------------------------------------------------------------


@lru_cache(maxsize=64)
def token_sprite(
    theme: Theme, culture: str, letter: str, radius: int = 22, ghost: bool = False
) -> Sprite:
    """A culture token: a disc in the culture's colour with its letter (ghost: just taken)."""
    size = 2 * radius + 4

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size / 2
        if ghost:
            draw.ellipse(
                _box(c - radius, c - radius, c + radius, c + radius, k),
                fill=(255, 255, 255, 90),
                outline=theme.last_turn,
                width=3 * k,
            )
            return
        draw.ellipse(
            _box(c - radius - 1, c - radius - 1, c + radius + 1, c + radius + 1, k),
            fill=theme.spot_fill,
        )
        draw.ellipse(
            _box(c - radius + 1, c - radius + 1, c + radius - 1, c + radius - 1, k), fill=theme.ink
        )
        draw.ellipse(
            _box(c - radius + 3.5, c - radius + 3.5, c + radius - 3.5, c + radius - 3.5, k),
            fill=theme.cultures[culture],
        )

    sprite = _sprite(size, size, paint)
    ink = theme.last_turn if ghost else theme.culture_ink[culture]
    letter_size = max(MIN_TEXT, round(theme.token_letter_size * radius / 22))
    _label_on(sprite, letter, ink, letter_size, (size / 2, size / 2 + 0.5))
    return sprite


@lru_cache(maxsize=8)
def mountain_sprite(theme: Theme, width: int = 90) -> Sprite:
    """A mountain tile: a range of three snow-capped peaks (a token may stand on the middle one)."""
    height = round(width * 0.44)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        w, h = width, height
        peaks = (
            (0.24, 0.34, 0.3, theme.mountain_shade),
            (0.76, 0.3, 0.3, theme.mountain_shade),
            (0.5, 0.02, 0.34, theme.mountain),
        )
        for px, top, half, colour in peaks:
            pts = [((px - half) * w, h - 1), (px * w, top * h), ((px + half) * w, h - 1)]
            draw.polygon(_scaled(pts, k), fill=colour, outline=theme.coast, width=2 * k)
            cap_h = (h - top * h) * 0.3
            cap_w = half * w * 0.3
            cap = [
                (px * w - cap_w, top * h + cap_h),
                (px * w, top * h + 2),
                (px * w + cap_w, top * h + cap_h),
                (px * w, top * h + cap_h * 0.7),
            ]
            draw.polygon(_scaled(cap, k), fill=theme.snow)

    return _sprite(width, height, paint)


@lru_cache(maxsize=8)
def sacred_sprite(theme: Theme, radius: int = 25) -> Sprite:
    """A sacred ground: a roped circle around a sacred tree (nobody may build here)."""
    size = 2 * radius + 4

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size / 2
        r = radius
        draw.ellipse(
            _box(c - r, c - r, c + r, c + r, k),
            fill=theme.sacred_fill,
            outline=theme.sacred,
            width=4 * k,
        )
        draw.ellipse(
            _box(c - r + 6, c - r + 6, c + r - 6, c + r - 6, k), outline=theme.sacred, width=1 * k
        )
        trunk = _box(c - 2.5, c + 2, c + 2.5, c + r - 8, k)
        draw.rectangle(trunk, fill=theme.coast)
        crown = [(c, c - r + 8), (c + r * 0.48, c + 6), (c - r * 0.48, c + 6)]
        draw.polygon(_scaled(crown, k), fill=theme.tree)
        draw.line(
            _scaled([(c - r * 0.42, c - 2), (c + r * 0.42, c - 2)], k),
            fill=theme.sacred,
            width=3 * k,
        )

    return _sprite(size, size, paint)


# -- buildings -------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def building_sprite(theme: Theme, kind: str, colour: str, mark: str, width: int = 58) -> Sprite:
    """A building in its owner's colour: a house (standard), a gate (torii) or a pagoda (palace)."""
    height = round(width * 0.9)
    fill = theme.players[colour]
    edge = theme.ink
    halo = theme.spot_fill

    def house(draw: ImageDraw.ImageDraw, k: int) -> None:
        w, h = width, height
        body = [(0.14 * w, 0.42 * h), (0.86 * w, 0.42 * h), (0.86 * w, h - 2), (0.14 * w, h - 2)]
        roof = [(0.02 * w, 0.48 * h), (0.5 * w, 0.04 * h), (0.98 * w, 0.48 * h)]
        for pts in (roof, body):
            draw.polygon(_scaled(pts, k), fill=halo)
        inset_roof = [(0.1 * w, 0.45 * h), (0.5 * w, 0.1 * h), (0.9 * w, 0.45 * h)]
        inset_body = [
            (0.18 * w, 0.42 * h),
            (0.82 * w, 0.42 * h),
            (0.82 * w, h - 5),
            (0.18 * w, h - 5),
        ]
        draw.polygon(_scaled(inset_body, k), fill=fill, outline=edge, width=2 * k)
        draw.polygon(_scaled(inset_roof, k), fill=_shade(fill, 0.72), outline=edge, width=2 * k)
        if kind == "trading_post":
            draw.rectangle(
                _box(0.18 * w, h - 11, 0.82 * w, h - 5, k), fill=theme.coin, outline=edge, width=k
            )

    def torii(draw: ImageDraw.ImageDraw, k: int) -> None:
        w, h = width, height
        draw.rounded_rectangle(
            _box(0.04 * w, 0.64 * h, 0.96 * w, h - 1, k),
            radius=5 * k,
            fill=fill,
            outline=edge,
            width=2 * k,
        )
        red = theme.torii
        for x in (0.26, 0.74):
            draw.rectangle(
                _box(x * w - 4, 0.18 * h, x * w + 4, 0.66 * h, k), fill=red, outline=edge, width=k
            )
        top = [(0.0, 0.08 * h), (w, 0.08 * h), (0.92 * w, 0.22 * h), (0.08 * w, 0.22 * h)]
        draw.polygon(_scaled(top, k), fill=red, outline=edge, width=k * 2)
        draw.rectangle(
            _box(0.14 * w, 0.32 * h, 0.86 * w, 0.4 * h, k), fill=red, outline=edge, width=k
        )

    def palace(draw: ImageDraw.ImageDraw, k: int) -> None:
        w, h = width, height
        draw.rectangle(
            _box(0.2 * w, 0.58 * h, 0.8 * w, h - 2, k), fill=fill, outline=edge, width=2 * k
        )
        roofs = ((0.66, 0.0, 1.0), (0.38, 0.12, 0.86), (0.12, 0.26, 0.7))
        for y, x0, x1 in roofs:
            pts = [
                (x0 * w, (y + 0.06) * h),
                (x1 * w, (y + 0.06) * h),
                ((x1 - 0.08) * w, (y - 0.08) * h),
                ((x0 + 0.08) * w, (y - 0.08) * h),
            ]
            draw.polygon(_scaled(pts, k), fill=theme.torii, outline=edge, width=2 * k)
            draw.rectangle(
                _box((x0 + 0.14) * w, (y + 0.06) * h, (x1 - 0.14) * w, (y + 0.2) * h, k),
                fill=fill,
                outline=edge,
                width=k,
            )
        draw.ellipse(
            _box(0.45 * w, 0.0, 0.55 * w, 0.1 * w, k), fill=theme.coin, outline=edge, width=k
        )

    painter = {"torii": torii, "palace": palace}.get(kind, house)
    sprite = _sprite(width, height, painter)
    ink = theme.player_ink[colour]
    if kind == "torii":
        _label_on(sprite, mark, ink, max(MIN_TEXT, round(width * 0.26)), (width / 2, height * 0.82))
    elif kind == "palace":
        _label_on(sprite, mark, ink, max(MIN_TEXT, round(width * 0.26)), (width / 2, height * 0.8))
    else:
        _label_on(
            sprite,
            mark,
            ink,
            max(MIN_TEXT, round(width * 0.34)),
            (width / 2, height * 0.7 - (3 if kind == "trading_post" else 0)),
        )
    return sprite


def _sign(theme: Theme, tile_id: str, size: int) -> Sprite | None:
    """The key's grey torii or palace that stands before a torii's or palace's number."""
    kind = tile_sign(tile_id)
    return building_sprite(theme, kind, "grey", "", round(size * 1.5)) if kind else None


def tile_label_width(theme: Theme, tile_id: str, size: int, style: Style = "bold") -> float:
    """How wide ``draw_tile_label`` draws a tile's label with text of ``size``."""
    sign = _sign(theme, tile_id, size)
    return text_length(tile_label(tile_id), size, style) + (sign.width + 2 if sign else 0)


def draw_tile_label(
    canvas: Image.Image,
    xy: tuple[float, float],
    tile_id: str,
    fill: RGB,
    size: int,
    theme: Theme,
    style: Style = "bold",
    centred: bool = False,
) -> float:
    """A tile as the picture names it, its middle left (or centre) at ``xy``: ``#07``, or the
    key's torii or palace sign and the number ("torii 1" in the texts, never ``T1``);
    returns its width."""
    sign = _sign(theme, tile_id, size)
    width = tile_label_width(theme, tile_id, size, style)
    x, y = (xy[0] - width / 2 if centred else xy[0]), xy[1]
    if sign:
        paste_centred(canvas, sign, (x + sign.width / 2, y))
        x += sign.width + 2
    draw_text(ImageDraw.Draw(canvas), (x, y), tile_label(tile_id), fill, size, style, anchor="lm")
    return width


def _shade(colour: RGB, factor: float) -> RGB:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


# -- small icons -----------------------------------------------------------------------------


@lru_cache(maxsize=16)
def coin_sprite(theme: Theme, radius: int = 11) -> Sprite:
    """A coin."""
    size = 2 * radius + 2

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size / 2
        draw.ellipse(
            _box(c - radius, c - radius, c + radius, c + radius, k),
            fill=theme.coin,
            outline=theme.coin_edge,
            width=2 * k,
        )
        draw.ellipse(
            _box(c - radius * 0.55, c - radius * 0.55, c + radius * 0.55, c + radius * 0.55, k),
            outline=theme.coin_edge,
            width=k,
        )

    return _sprite(size, size, paint)


@lru_cache(maxsize=16)
def pp_sprite(theme: Theme, radius: int = 11) -> Sprite:
    """A prestige point token: a dark red disc with a star."""
    size = 2 * radius + 2

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size / 2
        draw.ellipse(
            _box(c - radius, c - radius, c + radius, c + radius, k),
            fill=theme.pp,
            outline=theme.ink,
            width=k,
        )

    sprite = _sprite(size, size, paint)
    _label_on(sprite, "★", theme.coin, round(radius * 1.25), (size / 2, size / 2 + 0.5))
    return sprite


@lru_cache(maxsize=32)
def halo_sprite(colour: RGB, radius: int, width: int = 5) -> Sprite:
    """A bright ring used to highlight the last turn's changes."""
    size = 2 * radius + 2 * width + 4

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size / 2
        r = radius + width / 2
        draw.ellipse(
            _box(c - r - 2, c - r - 2, c + r + 2, c + r + 2, k),
            outline=(255, 255, 255, 230),
            width=(width + 4) * k,
        )
        draw.ellipse(_box(c - r, c - r, c + r, c + r, k), outline=colour, width=width * k)

    return _sprite(size, size, paint)


@lru_cache(maxsize=256)
def spot_sprite(theme: Theme, label: str, entry: bool) -> Sprite:
    """An empty boat spot: a disc with its label (entry spots in the entry colour)."""
    size = theme.spot_label_size
    text_w = font("bold", size).getlength(label)
    radius = max(15, round(text_w / 2) + 5)
    box = 2 * radius + 4

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = box / 2
        fill = theme.entry_fill if entry else theme.spot_fill
        draw.ellipse(
            _box(c - radius, c - radius, c + radius, c + radius, k),
            fill=fill,
            outline=theme.spot_edge,
            width=2 * k,
        )
        if entry:
            draw.ellipse(
                _box(c - radius + 3, c - radius + 3, c + radius - 3, c + radius - 3, k),
                outline=theme.spot_edge,
                width=k,
            )

    sprite = _kept(("spot", theme, radius, entry), box, box, paint)
    _label_on(sprite, label, theme.spot_ink, size, (box / 2, box / 2 + 0.5))
    return sprite
