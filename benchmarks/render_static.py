"""Static-layer benchmark: what the unchanging parts of Yamatai's board cost per language.

.venv/bin/python benchmarks/render_static.py [--runs 5]

A static layer is the board without pieces in one language. Since D204 it is a text-free base
(sea, islands, blur, frame, empty boxes), made once per board, theme and player count and kept,
with that language's words drawn on a copy of it. This prints, each as a median of --runs cold
draws (a theme no memo has seen, so nothing is cached but fonts and sprites):

- base: the text-free base alone;
- words: one language's layer once its base is kept (what a second language costs now);
- whole: base and words, what every language cost before (each language drew its own base);
- palette: the theme's fixed palette (a 4-player English layer and an octree of it);
- the sixteen layers of four languages by four player counts, before (16 wholes) and now
  (4 bases and 16 words), and the memory the kept bases take;
- a new process's first pictures (CPU, each in its own process, --runs times): a 2-player
  Yamatai board, then its turn picture, and a 2-player Namiji board, in a built-in theme (its
  palette and Yamatai's sea and islands read from the package, render/stored.py) and in a copy
  of that theme (equal colours, not built in: everything drawn, as before D296).

Each figure is also given as a ratio to a floor measured in the same run, side by side:
Pillow copying the layer (the least a static layer costs a picture), and, to compare runs on
different machines, the reference workload of benchmarks/render.py (a Mandelbrot, saved as PNG).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from itertools import count
from pathlib import Path

# Put the repository root first (benchmarks/render.py shadows the package's name).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from PIL import Image  # noqa: E402

from render.theme import THEMES, Theme  # noqa: E402
from render.yamatai.picture import picture_palette  # noqa: E402
from render.yamatai.static import base_layer, static_layer  # noqa: E402

LANGUAGES = ("en", "fr", "it", "pl")
PLAYERS = (2, 3, 4, 5)
BOARD = "default"
_FRESH = count()


def fresh_theme() -> Theme:
    """The default theme as an object no memo has seen (themes key the memos by identity)."""
    return replace(THEMES["default"], name=f"bench-{next(_FRESH)}")


def seconds(action: Callable[[], object]) -> float:
    """The wall time of one call of ``action``."""
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def reference() -> None:
    """benchmarks/render.py's reference: a fixed 600x412 Mandelbrot saved as PNG."""
    import io

    picture = Image.effect_mandelbrot((600, 412), (-2.0, -1.25, 0.75, 1.25), 40)
    picture.save(io.BytesIO(), format="PNG")


def cold_figures(players: int) -> tuple[float, float, float, float]:
    """One cold draw each: the base, the words on a kept base, base and words together, and
    Pillow copying the layer (the floor)."""
    look = fresh_theme()
    base = seconds(lambda: base_layer(BOARD, look, players))
    words = seconds(lambda: static_layer(BOARD, look, players, "fr"))
    other = fresh_theme()
    whole = seconds(lambda: static_layer(BOARD, other, players, "fr"))
    layer = static_layer(BOARD, other, players, "fr")
    floor = seconds(layer.copy)
    return base, words, whole, floor


def medians(rows: Sequence[Sequence[float]]) -> list[float]:
    """The median of each column."""
    return [statistics.median(column) for column in zip(*rows, strict=True)]


def grid() -> tuple[float, float, int]:
    """The sixteen layers (four languages by four player counts) as a bot drawing its first
    picture of each meets them: before (each language draws its own base) and now."""
    before = 0.0
    for players in PLAYERS:
        for language in LANGUAGES:
            # nothing kept for a fresh theme: as before, the language draws its own base
            before += seconds(partial(static_layer, BOARD, fresh_theme(), players, language))
    look = fresh_theme()
    now = sum(
        seconds(partial(static_layer, BOARD, look, players, language))
        for players in PLAYERS
        for language in LANGUAGES
    )
    kept = sum(len(base_layer(BOARD, look, p).tobytes()) for p in PLAYERS)
    return before, now, kept


FIRST_PICTURES = """
import sys, time
from dataclasses import replace
from engine import games
from engine.namiji.view import namiji_view
from engine.yamatai.view import yamatai_view
from render import render_focus
from render.extras import Extras
from render.namiji.picture import render_board as namiji_board
from render.theme import THEMES
from render.yamatai.picture import render_board as yamatai_board
look = THEMES["default"] if sys.argv[1] == "stored" else replace(THEMES["default"])
extras = Extras(theme=look)
match = games.new("yamatai", ["Ann", "Bo"], seed=7)
start = time.process_time()
yamatai_board(yamatai_view(match.view(None)), extras=extras)
seat = match.current_seat
render_focus(match.view(seat), legal=match.legal_actions(), extras=extras)
yamatai = time.process_time() - start
match = games.new("namiji", ["Ann", "Bo"], seed=7)
start = time.process_time()
namiji_board(namiji_view(match.view(None)), extras=extras)
print(yamatai, time.process_time() - start)
"""
"""A child process's first Yamatai board and turn picture, then Namiji board: CPU seconds."""


def first_pictures(kind: str) -> tuple[float, float]:
    """The CPU of a new process's first Yamatai pictures and first Namiji board (``kind``:
    "stored", a built-in theme, or "drawn", a copy of it that nothing stored serves)."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST_PICTURES, kind],
        capture_output=True,
        text=True,
        check=True,
        cwd=_HERE.parent,
    )
    yamatai, namiji = (float(v) for v in done.stdout.split())
    return yamatai, namiji


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    static_layer(BOARD, fresh_theme(), 4, "en")  # warm-up: fonts, sprites, board, layouts
    unit = statistics.median(seconds(reference) for _ in range(max(5, args.runs)))
    print(f"reference (benchmarks/render.py's Mandelbrot): {1000 * unit:.1f} ms")
    print("| players | base | words | whole (before) | floor: copy | words/floor |", end="")
    print(" whole/words | words/reference |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for players in PLAYERS:
        base, words, whole, floor = medians([cold_figures(players) for _ in range(args.runs)])
        print(
            f"| {players} | {1000 * base:.0f} ms | {1000 * words:.0f} ms | {1000 * whole:.0f} ms"
            f" | {1000 * floor:.1f} ms | {words / floor:.1f}x | {whole / words:.1f}x"
            f" | {words / unit:.2f} |"
        )
    palette = statistics.median(
        seconds(lambda: picture_palette(fresh_theme())) for _ in range(args.runs)
    )
    print(
        f"palette (cold, kept once per theme): {1000 * palette:.0f} ms, {palette / unit:.1f} refs"
    )
    before, now, kept = grid()
    print(
        f"16 layers (4 languages x 4 player counts): before {before:.2f} s"
        f" ({before / unit:.0f} refs), now {now:.2f} s ({now / unit:.0f} refs),"
        f" {before / now:.1f}x less; the kept bases: {kept / 2**20:.1f} MB"
    )
    runs = [(first_pictures("drawn"), first_pictures("stored")) for _ in range(args.runs)]
    for n, game in enumerate(("Yamatai board and turn picture", "Namiji board")):
        drawn = statistics.median(run[0][n] for run in runs)
        stored = statistics.median(run[1][n] for run in runs)
        print(
            f"a new process's first {game} (CPU): drawn {1000 * drawn:.0f} ms"
            f" ({drawn / unit:.1f} refs), stored {1000 * stored:.0f} ms ({stored / unit:.1f} refs),"
            f" {drawn / stored:.1f}x less"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
