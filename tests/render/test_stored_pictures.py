"""The pictures kept in the package (render/stored.py, made by tools/store_pictures.py) are the
ones drawing makes, so a stale file fails here, and the pictures drawn from them are the same."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import Image

from render.namiji.picture import drawn_palette as namiji_drawn
from render.namiji.picture import picture_palette as namiji_palette
from render.stored import STORED, map_path, palette_path, stored_map, stored_palette
from render.theme import THEMES
from render.yamatai.layout import layout
from render.yamatai.picture import drawn_palette as yamatai_drawn
from render.yamatai.picture import picture_palette as yamatai_palette
from render.yamatai.static import base_layer, drawn_map

BOARDS = ("default",)
PLAYER_COUNTS = (2, 3, 4, 5)
GAMES = {"yamatai": (yamatai_drawn, yamatai_palette), "namiji": (namiji_drawn, namiji_palette)}
FIX = "stale: run .venv/bin/python tools/store_pictures.py and look at the pictures"


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_stored_palette_is_the_one_made_from_the_static_layer(game: str, theme: str) -> None:
    """Each game's stored palette in a built-in theme is what the octree of its layer gives,
    and it is the palette the game's pictures are mapped to."""
    drawn, used = GAMES[game]
    made = bytes(drawn(THEMES[theme]).getpalette() or [])
    assert palette_path(game, theme).read_bytes() == made, FIX
    assert bytes(used(THEMES[theme]).getpalette() or []) == made


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("board", BOARDS)
def test_a_stored_map_is_the_one_drawn_for_every_player_count(board: str, theme: str) -> None:
    """The stored sea and islands have the drawn pixels, and every player count places the map
    alike (the one stored map serves them all)."""
    look = THEMES[theme]
    drawn = drawn_map(board, look, 4)
    with Image.open(map_path("yamatai", board, theme)) as stored:
        assert (stored.mode, stored.size) == (drawn.mode, drawn.size), FIX
        assert stored.tobytes() == drawn.tobytes(), FIX
    first = layout(board, 4)
    for players in PLAYER_COUNTS:
        lay = layout(board, players)
        assert (lay.map.width, lay.map.height) == (first.map.width, first.map.height)
        assert lay.transform.scale == first.transform.scale
        assert lay.transform.x0 - lay.map.x0 == first.transform.x0 - first.map.x0
        assert lay.transform.y0 - lay.map.y0 == first.transform.y0 - first.map.y0


COPY = replace(THEMES["default"])
"""The default theme made again: equal colours, but not built in, so nothing stored serves it."""


def test_a_base_from_the_stored_map_is_the_drawn_base() -> None:
    """A built-in theme's base (its map read from the package) has the bytes of the same
    theme's base drawn whole."""
    assert stored_map("yamatai", "default", COPY, (1, 1)) is None
    built_in = base_layer("default", THEMES["default"], 4)
    assert built_in.tobytes() == base_layer("default", COPY, 4).tobytes()


def test_only_a_built_in_theme_is_read_from_the_package() -> None:
    """A theme made at run time gets a palette made for it (here equal to the stored one)."""
    assert stored_palette("yamatai", COPY) is None
    assert stored_palette("yamatai", THEMES["default"]) is not None
    made = yamatai_palette(COPY).getpalette()
    assert made == yamatai_palette(THEMES["default"]).getpalette()
    assert yamatai_palette(COPY) is not yamatai_palette(THEMES["default"])


def test_every_stored_file_is_one_the_package_reads() -> None:
    """No stray file: each one is a palette or a map of a built-in theme."""
    expected = {palette_path(game, theme) for game in GAMES for theme in THEMES}
    expected |= {map_path("yamatai", board, theme) for board in BOARDS for theme in THEMES}
    assert set(STORED.iterdir()) == expected
