"""Pictures kept in the package: heavy, deterministic parts drawn once by tools/store_pictures.py.

A built-in theme's fixed palette (an octree of a whole static layer) and a game's map of sea and
islands (Gaussian blurs at twice the size) cost a new process about a second of CPU before its
first picture; read from ``render/assets/stored/`` they cost a few milliseconds. Only a built-in
theme (``render.theme.THEMES``, by identity) is read from here, any other is drawn; a file is
read once per process and never written at run time. tests/render/test_stored_pictures.py draws
each again and compares, so a stale file fails the suite (docs/decisions.md D296).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from PIL import Image

from render.png import COLOURS
from render.theme import THEMES, Theme

STORED = Path(__file__).resolve().parent / "assets" / "stored"
"""Where the stored pictures are (made by tools/store_pictures.py)."""

__all__ = [
    "STORED",
    "map_path",
    "palette_path",
    "palette_stored_or_drawn",
    "stored_map",
    "stored_palette",
]


def palette_path(game: str, theme_name: str) -> Path:
    """The file of a game's fixed palette in a built-in theme: 256 RGB triples, 768 bytes."""
    return STORED / f"{game}-palette-{theme_name}.rgb"


def map_path(game: str, board_name: str, theme_name: str) -> Path:
    """The file of a game's map (sea and islands) for a board in a built-in theme (a PNG)."""
    return STORED / f"{game}-map-{board_name}-{theme_name}.png"


def _built_in(look: Theme) -> bool:
    """Whether ``look`` is a built-in theme (the only ones stored)."""
    return THEMES.get(look.name) is look


def stored_palette(game: str, look: Theme) -> Image.Image | None:
    """A game's stored fixed palette in ``look`` (a 1x1 "P" image, as ``render.png.palette_of``
    makes it), or None when the theme is not built in or nothing is stored for it."""
    if not _built_in(look):
        return None
    colours = _palette_bytes(game, look.name)
    if colours is None:
        return None
    holder = Image.new("P", (1, 1))
    holder.putpalette(colours)
    return holder


def palette_stored_or_drawn(
    game: str, look: Theme, draw: Callable[[Theme], Image.Image]
) -> Image.Image:
    """A game's fixed palette in ``look``: the stored one for a built-in theme, else
    ``draw(look)``."""
    stored = stored_palette(game, look)
    return stored if stored is not None else draw(look)


@cache
def _palette_bytes(game: str, theme_name: str) -> bytes | None:
    """The bytes of a stored palette (checked for size), None when there is no file."""
    path = palette_path(game, theme_name)
    if not path.is_file():
        return None
    colours = path.read_bytes()
    if len(colours) != 3 * COLOURS:
        raise ValueError(f"{path} holds {len(colours)} bytes, not {3 * COLOURS}")
    return colours


def stored_map(
    game: str, board_name: str, look: Theme, size: tuple[int, int]
) -> Image.Image | None:
    """A game's stored map of a board in ``look`` at ``size`` (an RGB image, never drawn on),
    or None when the theme is not built in or no such picture is stored."""
    if not _built_in(look):
        return None
    path = map_path(game, board_name, look.name)
    if not path.is_file():
        return None
    with Image.open(path) as stored:
        if stored.mode != "RGB" or stored.size != size:
            return None
        stored.load()
        return stored.copy()
