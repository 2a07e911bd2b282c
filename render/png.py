"""PNG encoding: a 256-colour palette image (fast to encode, small), or RGB on request.

A picture is mapped to a fixed palette made once per game and theme (``palette_of``): every
colour the theme names exactly, then the colours an octree finds in a reference picture (the
game's static layer). Mapping to a known palette costs a fifth of quantizing each picture.

A palette picture is written here, not by Pillow (``write_png``): Pillow's wheel deflates with
the system's zlib, where ISA-L (``isal``) deflates the same rows about three times faster and a
little smaller (docs/decisions.md D65). The rows are written unfiltered, as Pillow writes a
palette picture; without ``isal`` the standard library's zlib deflates them.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Iterable

from PIL import Image

from render.theme import RGB

isal_compress: Callable[[bytes, int], bytes] | None
try:
    from isal.isal_zlib import compress as isal_compress
except ImportError:  # pragma: no cover - a platform without ISA-L's wheels
    isal_compress = None

COMPRESS_LEVEL = 1
"""ISA-L's level 1 (of 0-3); the standard library's zlib level 1 without ``isal``."""
ISAL_LEVELS = 3
COLOURS = 256
SIGNATURE = b"\x89PNG\r\n\x1a\n"

Deflate = Callable[[bytes, int], bytes]
"""Compresses bytes into a zlib stream at a level."""

__all__ = [
    "COLOURS",
    "COMPRESS_LEVEL",
    "deflater",
    "encode_png",
    "palette_of",
    "to_palette",
    "write_png",
]


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
    r, g, b = colour[0], colour[1], colour[2]
    for known in exact:
        cr, cg, cb = known[0] & ~3, known[1] & ~3, known[2] & ~3
        own = (known[0] - cr) ** 2 + (known[1] - cg) ** 2 + (known[2] - cb) ** 2
        if (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2 <= own:
            return True
    return False


def to_palette(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """The image in 256 colours, no dithering (flat art stays crisp): mapped to a fixed
    ``palette`` (see ``palette_of``), or without one quantized by a fast octree."""
    if palette is not None:
        return image.quantize(palette=palette, dither=Image.Dither.NONE)
    return image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def deflater(fast: bool = True) -> Deflate:
    """The deflate used for pictures: ISA-L's when installed and ``fast``, else zlib's; a level
    past ISA-L's last (3) always goes to zlib."""
    if fast and isal_compress is not None:
        isal = isal_compress

        def deflate(data: bytes, level: int) -> bytes:
            if level > ISAL_LEVELS:
                return zlib.compress(data, level)
            return isal(data, level)

        return deflate
    return zlib.compress


def write_png(
    picture: Image.Image, compress_level: int = COMPRESS_LEVEL, *, fast: bool = True
) -> bytes:
    """A palette ("P") picture as PNG bytes: 8-bit indices, unfiltered rows, its palette."""
    if picture.mode != "P":
        raise ValueError(f"write_png writes palette pictures, not {picture.mode!r}")
    width, height = picture.size
    framed = Image.new("P", (width + 1, height), 0)  # each row after its filter byte, 0: none
    framed.paste(picture, (1, 0))
    rows = framed.tobytes()
    colours = bytes((picture.getpalette() or [0, 0, 0])[: 3 * COLOURS])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", deflater(fast)(rows, compress_level)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(
    image: Image.Image,
    *,
    palette: bool | Image.Image = True,
    compress_level: int = COMPRESS_LEVEL,
) -> bytes:
    """The image as PNG bytes. ``palette``: True quantizes an RGB image to 256 colours first, a
    palette image (``palette_of``) maps it to those (both written by ``write_png``), False keeps
    RGB (Pillow writes it, never optimize=True)."""
    picture = image
    if palette is not False and image.mode == "RGB":
        picture = to_palette(image, None if palette is True else palette)
    if picture.mode == "P":
        return write_png(picture, compress_level)
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()
