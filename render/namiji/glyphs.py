"""Namiji's pieces as sprites drawn at 4x and reduced (anti-aliased), cached per piece."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.namiji import palette
from render.text import draw_text
from render.theme import RGB

SCALE = 4
EDGE = (0x17, 0x20, 0x2C)

__all__ = ["boat_sprite", "card_sprite", "fish_sprite", "paste_centred", "ring_sprite"]


def _reduce(image: Image.Image) -> Image.Image:
    """A 4x drawing brought back to size."""
    return image.reduce(SCALE)


@lru_cache(maxsize=64)
def boat_sprite(fill: RGB, ink: RGB, mark: str, radius: int) -> Image.Image:
    """A boat: a hull in the player's colour with their mark, seen from above."""
    w, h = radius * 2 + 4, radius * 2 + 4
    big = Image.new("RGBA", (w * SCALE, h * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    r = radius * SCALE
    cx, cy = w * SCALE / 2, h * SCALE / 2
    hull = [
        (cx - r, cy - r * 0.55),
        (cx + r, cy - r * 0.55),
        (cx + r * 0.7, cy + r * 0.75),
        (cx - r * 0.7, cy + r * 0.75),
    ]
    draw.polygon(hull, fill=fill, outline=EDGE, width=SCALE * 2)
    draw.line([(cx, cy - r * 0.55), (cx, cy - r)], fill=EDGE, width=SCALE * 2)
    draw.polygon([(cx, cy - r), (cx + r * 0.55, cy - r * 0.62), (cx, cy - r * 0.62)], fill=EDGE)
    size = max(14, int(radius * 0.95))
    draw_text(draw, (cx, cy + r * 0.12), mark, ink, size * SCALE, "bold", scale=SCALE)
    return _reduce(big)


_SHAPES = {"t": "tai", "s": "saba", "f": "fugu"}


@lru_cache(maxsize=32)
def fish_sprite(kind: str, size: int) -> Image.Image:
    """A fish token: its colour, its shape's silhouette and its code (``bt``: blue tai)."""
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    s = size * SCALE
    fill = palette.FISH.get(kind[:1], palette.NEUTRAL)
    ink = palette.FISH_INK.get(kind[:1], palette.NEUTRAL_INK)
    draw.rounded_rectangle(
        (SCALE, SCALE, s - SCALE, s - SCALE), s // 6, fill=fill, outline=EDGE, width=SCALE * 2
    )
    shade = tuple(int(c * 0.78) for c in fill)
    shape = kind[1:2]
    cy = s * 0.40
    if shape == "t":  # tai: a deep body with a forked tail
        draw.ellipse((s * 0.22, cy - s * 0.2, s * 0.72, cy + s * 0.2), fill=shade)
        draw.polygon(
            [(s * 0.68, cy), (s * 0.9, cy - s * 0.17), (s * 0.9, cy + s * 0.17)], fill=shade
        )
    elif shape == "s":  # saba: long and thin
        draw.ellipse((s * 0.1, cy - s * 0.1, s * 0.78, cy + s * 0.1), fill=shade)
        draw.polygon(
            [(s * 0.74, cy), (s * 0.92, cy - s * 0.12), (s * 0.92, cy + s * 0.12)], fill=shade
        )
    else:  # fugu: round with spikes
        draw.ellipse((s * 0.3, cy - s * 0.22, s * 0.74, cy + s * 0.22), fill=shade)
        for dx, dy in (
            (-1, 0),
            (1, 0),
            (0, -1),
            (0.7, 0.7),
            (-0.7, 0.7),
            (0.7, -0.7),
            (-0.7, -0.7),
        ):
            x, y = s * 0.52 + dx * s * 0.27, cy + dy * s * 0.27
            draw.ellipse((x - s * 0.03, y - s * 0.03, x + s * 0.03, y + s * 0.03), fill=shade)
    draw_text(
        draw, (s / 2, s * 0.70), kind, ink, max(14, size * 2 // 5) * SCALE, "bold", scale=SCALE
    )
    return _reduce(big)


@lru_cache(maxsize=32)
def card_sprite(face: str | None, width: int, height: int, fill: RGB, ink: RGB) -> Image.Image:
    """A card: face up with its label, or a back (``face`` None) with a wave pattern."""
    big = Image.new("RGBA", (width * SCALE, height * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    w, h = width * SCALE, height * SCALE
    body = palette.CARD_BACK if face is None else fill
    draw.rounded_rectangle((0, 0, w - 1, h - 1), SCALE * 4, fill=body, outline=EDGE, width=SCALE)
    if face is None:
        for k in range(3):
            y = h * (0.3 + 0.2 * k)
            draw.arc(
                (w * 0.15, y - h * 0.12, w * 0.85, y + h * 0.12),
                200,
                340,
                fill=palette.CARD_BACK_MARK,
                width=SCALE * 2,
            )
    else:
        draw_text(draw, (w / 2, h / 2), face, ink, 15 * SCALE, "bold", scale=SCALE)
    return _reduce(big)


@lru_cache(maxsize=32)
def ring_sprite(radius: int, colour: RGB, width: int) -> Image.Image:
    """A ring (the last turn's marks and the boat to act)."""
    d = (radius + width) * 2 + 2
    big = Image.new("RGBA", (d * SCALE, d * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = d * SCALE / 2
    r = radius * SCALE
    draw.ellipse(
        (
            c - r - width * SCALE / 2,
            c - r - width * SCALE / 2,
            c + r + width * SCALE / 2,
            c + r + width * SCALE / 2,
        ),
        outline=colour,
        width=width * SCALE,
    )
    return _reduce(big)


def paste_centred(canvas: Image.Image, sprite: Image.Image, xy: tuple[float, float]) -> None:
    """Paste a sprite with its centre at ``xy``."""
    x = round(xy[0] - sprite.width / 2)
    y = round(xy[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)
