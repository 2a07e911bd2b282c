"""PNG encoding: a 256-colour palette image (fast to encode, small), or RGB on request."""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 6

__all__ = ["COMPRESS_LEVEL", "encode_png", "to_palette"]


def to_palette(image: Image.Image) -> Image.Image:
    """The image reduced to 256 colours (fast octree, no dithering: flat art stays crisp)."""
    return image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_png(
    image: Image.Image, *, palette: bool = True, compress_level: int = COMPRESS_LEVEL
) -> bytes:
    """The image as PNG bytes (palette: quantized to 256 colours first; never optimize=True)."""
    out = io.BytesIO()
    picture = to_palette(image) if palette and image.mode == "RGB" else image
    picture.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()
