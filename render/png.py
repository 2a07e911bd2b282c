"""PNG encoding: a 256-colour palette image (fast to encode, small), or RGB on request.

A picture is mapped to a fixed palette made once per game and theme (``palette_of``): every
colour the theme names exactly, then the colours an octree finds in a reference picture (the
game's static layer). Mapping to a known palette costs a fifth of quantizing each picture, and
zlib level 1 less than half of level 6, for about a quarter more bytes (still under 250 KB).
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image

from render.theme import RGB

COMPRESS_LEVEL = 1
COLOURS = 256

__all__ = ["COLOURS", "COMPRESS_LEVEL", "encode_png", "palette_of", "to_palette"]


def palette_of(exact: Iterable[RGB], reference: Image.Image) -> Image.Image:
    """A fixed palette (a 1x1 "P" image): the ``exact`` colours, then the reference's (octree)."""
    colours = list(dict.fromkeys(exact))[:COLOURS]
    room = COLOURS - len(colours)
    if room > 0:
        found = reference.convert("RGB").quantize(
            room, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        values = found.getpalette() or []
        more = (tuple(values[i : i + 3]) for i in range(0, min(len(values), 3 * room), 3))
        colours += [(c[0], c[1], c[2]) for c in more if not _shadows(c, colours)]
    flat = [v for colour in colours[:COLOURS] for v in colour]
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat + flat[:3] * (COLOURS - len(flat) // 3))  # pad with a known colour
    return holder


def _shadows(colour: tuple[int, ...], exact: list[RGB]) -> bool:
    """Whether ``colour`` would take an exact colour's pixels: Pillow maps a pixel to the entry
    nearest its 6-bit cell's corner (each channel rounded down to a multiple of 4)."""
    for known in exact:
        corner = [v & ~3 for v in known]
        own = sum((a - b) ** 2 for a, b in zip(known, corner, strict=True))
        if sum((a - b) ** 2 for a, b in zip(colour, corner, strict=False)) <= own:
            return True
    return False


def to_palette(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """The image in 256 colours, no dithering (flat art stays crisp): mapped to a fixed
    ``palette`` (see ``palette_of``), or without one quantized by a fast octree."""
    if palette is not None:
        return image.quantize(palette=palette, dither=Image.Dither.NONE)
    return image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_png(
    image: Image.Image,
    *,
    palette: bool | Image.Image = True,
    compress_level: int = COMPRESS_LEVEL,
) -> bytes:
    """The image as PNG bytes (never optimize=True). ``palette``: True quantizes an RGB image
    to 256 colours first, a palette image (``palette_of``) maps it to those, False keeps RGB."""
    out = io.BytesIO()
    picture = image
    if palette is not False and image.mode == "RGB":
        picture = to_palette(image, None if palette is True else palette)
    picture.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()
