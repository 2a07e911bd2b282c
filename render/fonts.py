"""The bundled fonts, loaded once per size, and which characters each one has.

DejaVu (assets/fonts/LICENSE-DejaVu.txt) draws Latin, Greek, Cyrillic, Arabic, Hebrew and more;
Noto fonts (assets/fonts/LICENSE-Noto.txt, made by tools/subset_fonts.py) are the fallbacks:
subsets of Noto Sans CJK JP and Noto Sans Symbols 2 for Chinese, Japanese, Korean and pictographs,
and whole Noto Sans fonts for the scripts of South and South-East Asia and Ethiopic.
"""

from __future__ import annotations

import io
import struct
from functools import cache
from importlib import resources
from typing import Literal

from PIL import ImageFont, features

Style = Literal["regular", "bold", "condensed"]

FONT_FILES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}

#: The fallback fonts (tools/subset_fonts.py makes them from Debian's Noto packages).
CJK_REGULAR = "NotoSansCJKjp-Regular-subset.otf"
CJK_BOLD = "NotoSansCJKjp-Bold-subset.otf"
SYMBOLS = "NotoSansSymbols2-Regular-subset.ttf"
#: Scripts DejaVu lacks, one weight each.
SCRIPT_FILES = tuple(
    f"NotoSans{script}-Regular.ttf"
    for script in (
        "Thai",
        "Lao",
        "Khmer",
        "Myanmar",
        "Devanagari",
        "Bengali",
        "Gurmukhi",
        "Gujarati",
        "Tamil",
        "Telugu",
        "Kannada",
        "Malayalam",
        "Sinhala",
        "Ethiopic",
    )
)

#: The fonts tried, in order, for a character the style's main font does not have.
FALLBACK_FILES: dict[str, tuple[str, ...]] = {
    "regular": (CJK_REGULAR, *SCRIPT_FILES, SYMBOLS),
    "bold": (CJK_BOLD, *SCRIPT_FILES, SYMBOLS),
    "condensed": (CJK_BOLD, *SCRIPT_FILES, SYMBOLS),
}

#: Pillow's text layout: libraqm (shaping, bidi) when this Pillow has it, else the basic one
#: (render.shaping then prepares right-to-left text). Fixed per process.
LAYOUT = ImageFont.Layout.RAQM if features.check_feature("raqm") else ImageFont.Layout.BASIC

#: cmap subtables read, best first: (platform, encoding) of full Unicode, then the BMP.
_CMAP_PREFERENCE = ((3, 10), (0, 4), (3, 1), (0, 3))

__all__ = [
    "CJK_BOLD",
    "CJK_REGULAR",
    "FALLBACK_FILES",
    "FONT_FILES",
    "LAYOUT",
    "SCRIPT_FILES",
    "SYMBOLS",
    "Style",
    "chain",
    "coverage",
    "file_bytes",
    "font",
    "font_bytes",
    "font_file",
]


@cache
def file_bytes(name: str) -> bytes:
    """The bytes of a bundled font file (never a font of the host)."""
    return resources.files("render").joinpath("assets", "fonts", name).read_bytes()


def font_bytes(style: Style) -> bytes:
    """The bytes of a style's main font file."""
    return file_bytes(FONT_FILES[style])


@cache
def font_file(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A bundled font file at a pixel size (cached)."""
    return ImageFont.truetype(io.BytesIO(file_bytes(name)), size, layout_engine=LAYOUT)


def font(style: Style, size: int) -> ImageFont.FreeTypeFont:
    """A style's main font at a pixel size (cached)."""
    return font_file(FONT_FILES[style], size)


@cache
def chain(style: Style) -> tuple[str, ...]:
    """The font files of a style in the order characters look for a glyph: main font first."""
    return (FONT_FILES[style], *FALLBACK_FILES[style])


@cache
def coverage(name: str) -> frozenset[int]:
    """The code points a bundled font file has a glyph for (read from its cmap table)."""
    data = file_bytes(name)
    subtables = _cmap_subtables(data)
    for key in _CMAP_PREFERENCE:
        if key in subtables:
            offset = subtables[key]
            kind = struct.unpack_from(">H", data, offset)[0]
            if kind == 12:
                return _format12(data, offset)
            if kind == 4:
                return _format4(data, offset)
    raise ValueError(f"{name}: no Unicode cmap of format 4 or 12")


def _cmap_subtables(data: bytes) -> dict[tuple[int, int], int]:
    """Offsets of the cmap subtables by (platform, encoding)."""
    (tables,) = struct.unpack_from(">H", data, 4)
    for i in range(tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            (count,) = struct.unpack_from(">H", data, offset + 2)
            entries = (struct.unpack_from(">HHI", data, offset + 4 + 8 * n) for n in range(count))
            return {(p, e): offset + sub for p, e, sub in entries}
    raise ValueError("no cmap table")


def _format12(data: bytes, offset: int) -> frozenset[int]:
    """Code points of a format 12 subtable (segmented coverage, full Unicode)."""
    (groups,) = struct.unpack_from(">I", data, offset + 12)
    points: set[int] = set()
    for n in range(groups):
        start, end, _ = struct.unpack_from(">III", data, offset + 16 + 12 * n)
        points.update(range(start, end + 1))
    return frozenset(points)


def _format4(data: bytes, offset: int) -> frozenset[int]:
    """Code points of a format 4 subtable (BMP segments) that map to a real glyph."""
    (seg2,) = struct.unpack_from(">H", data, offset + 6)
    segs = seg2 // 2
    ends = struct.unpack_from(f">{segs}H", data, offset + 14)
    starts = struct.unpack_from(f">{segs}H", data, offset + 16 + seg2)
    deltas = struct.unpack_from(f">{segs}H", data, offset + 16 + 2 * seg2)
    range_base = offset + 16 + 3 * seg2
    ranges = struct.unpack_from(f">{segs}H", data, range_base)
    points: set[int] = set()
    for i, (start, end, delta, rng) in enumerate(zip(starts, ends, deltas, ranges, strict=True)):
        for code in range(start, min(end, 0xFFFE) + 1):
            if rng == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                at = range_base + 2 * i + rng + 2 * (code - start)
                (glyph,) = struct.unpack_from(">H", data, at)
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                points.add(code)
    return frozenset(points)
