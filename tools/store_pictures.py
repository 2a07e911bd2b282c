"""Draw the pictures kept in the package (render/assets/stored/, read by render/stored.py).

    .venv/bin/python tools/store_pictures.py [--check]

Writes, for every built-in theme, Yamatai's sea and islands of each packaged board (a PNG) and
each game's fixed palette (768 bytes). Run it after changing a theme, a board, the map's
drawing, the static layers or their fonts and words (tests/render/test_stored_pictures.py fails
until then). With --check, writes nothing and says which files differ (exit status 1).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path

from PIL import Image

from render.stored import STORED, map_path, palette_path
from render.theme import THEMES, Theme

BOARDS = ("default",)
"""Yamatai's packaged boards (engine/yamatai/data/board.json)."""
MAP_PLAYERS = 4
"""The player count the map is drawn for (the same map for every count, which the test checks)."""


def map_bytes(board_name: str, look: Theme) -> bytes:
    """Yamatai's sea and islands of a board, drawn, as PNG bytes (lossless, compressed hard)."""
    from render.yamatai.static import drawn_map

    out = io.BytesIO()
    drawn_map(board_name, look, MAP_PLAYERS).save(out, format="PNG", optimize=True)
    return out.getvalue()


def palette_bytes(game: str, look: Theme) -> bytes:
    """A game's fixed palette in a theme, made (an octree of its static layer): 768 bytes."""
    from render.namiji.picture import drawn_palette as namiji_palette
    from render.yamatai.picture import drawn_palette as yamatai_palette

    make: Callable[[Theme], Image.Image] = {
        "yamatai": yamatai_palette,
        "namiji": namiji_palette,
    }[game]
    return bytes(make(look).getpalette() or [])


def wanted() -> Iterator[tuple[Path, Callable[[], bytes]]]:
    """Every stored file with how to make its bytes: the maps first (a palette reads them)."""
    for look in THEMES.values():
        for board_name in BOARDS:
            yield map_path("yamatai", board_name, look.name), partial(map_bytes, board_name, look)
    for look in THEMES.values():
        for game in ("yamatai", "namiji"):
            yield palette_path(game, look.name), partial(palette_bytes, game, look)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or check) the stored pictures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing, list stale files")
    args = parser.parse_args(argv)
    STORED.mkdir(parents=True, exist_ok=True)
    stale = 0
    for path, make in wanted():
        data = make()
        if path.is_file() and path.read_bytes() == data:
            continue
        if not path.is_file() or _pixels_differ(path, data):
            stale += 1
            print(f"{'stale' if args.check else 'writing'}: {path.name}")
            if not args.check:
                path.write_bytes(data)
    return 1 if args.check and stale else 0


def _pixels_differ(path: Path, data: bytes) -> bool:
    """Whether a stored file holds other colours or pixels than ``data`` (a PNG may be
    compressed otherwise by another zlib and still hold the same picture)."""
    if path.suffix != ".png":
        return True
    with Image.open(path) as old, Image.open(io.BytesIO(data)) as new:
        return old.mode != new.mode or old.size != new.size or old.tobytes() != new.tobytes()


if __name__ == "__main__":
    sys.exit(main())
