"""The bundled fonts (DejaVu, see assets/fonts/LICENSE-DejaVu.txt), loaded once per size."""

from __future__ import annotations

import io
from functools import cache
from importlib import resources
from typing import Literal

from PIL import ImageFont

Style = Literal["regular", "bold", "condensed"]

FONT_FILES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}

__all__ = ["FONT_FILES", "Style", "font", "font_bytes"]


@cache
def font_bytes(style: Style) -> bytes:
    """The bytes of a bundled font file (never a font of the host)."""
    path = resources.files("render").joinpath("assets", "fonts", FONT_FILES[style])
    return path.read_bytes()


@cache
def font(style: Style, size: int) -> ImageFont.FreeTypeFont:
    """A bundled font at a pixel size (cached)."""
    return ImageFont.truetype(io.BytesIO(font_bytes(style)), size)
