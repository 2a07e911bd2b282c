"""Helpers to decode rendered PNGs and compare colours."""

from __future__ import annotations

import io

from PIL import Image

from render.theme import RGB


def decode(png: bytes) -> Image.Image:
    """PNG bytes as an RGB image."""
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def pixel(image: Image.Image, xy: tuple[float, float]) -> RGB:
    """The RGB colour at a (rounded) position."""
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def close(a: RGB, b: RGB, tolerance: int = 40) -> bool:
    """Whether two colours differ by at most tolerance on every channel."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))
