"""Render benchmark: a late-game 4-player board, its PNG size, and Pillow's encode-only floor.

.venv/bin/python benchmarks/render.py [--game yamatai|namiji] [--runs 30] [--seed 7] [--turns 36]
.venv/bin/python benchmarks/render.py --many 200 [--steps 3] [--seed 7]

With --many N, the load's way instead (benchmarks/load.py: many games, each picture drawn once,
so no cache is hot for one position): N two-player Yamatai games, each played --steps times in
turn (one action each, round robin, as the load's /play), the turn picture of the player to move
drawn after each action and the board after each turn ended (after a warm-up picture of
each, as the worker's warm-up); prints ms of process time per turn
picture and per board (the worker's CPU per picture), their totals, and each in units of
the reference workload below (steadier than milliseconds on a shared machine).

With --game namiji (registered here: the shipped registry does not list it yet), the board is a
4-player greedy game after --turns turns (default 90, late in the game: about 100 in all).

Prints the median time of render_board (drawing, mapping to the theme's palette and PNG
encoding; the static layer is already cached, as in a running bot), the PNG size, and the
floor measured side by side: the time Pillow alone takes to encode the same picture in its own
mode (the 256-colour palette picture render_board produced, saved with Pillow's defaults), and
their ratio (target: at most 1); for reference the former way (octree quantize + PNG level 6)
and the plain RGB encode; then the turn ("focus") picture of the player to move in the same
game: its median time and PNG size.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

# This file is named like the package it measures: keep its folder off the import path and
# put the repository root first.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from PIL import Image  # noqa: E402

from engine import games  # noqa: E402
from engine.namiji.view import namiji_view  # noqa: E402
from engine.yamatai.players import greedy_player  # noqa: E402
from engine.yamatai.view import yamatai_view  # noqa: E402
from render import render_focus  # noqa: E402
from render.yamatai.focus import render_focus as yamatai_focus  # noqa: E402
from render.yamatai.highlight import Highlight  # noqa: E402
from render.yamatai.picture import render_board, render_image  # noqa: E402

Figures = tuple[Callable[[], bytes], Callable[[], Any], Callable[[], bytes], str]
"""The board as PNG, the board as an image, the turn picture as PNG, and a description."""


def late_game(seed: int, turns: int) -> tuple[games.Match, Highlight, list[dict[str, Any]]]:
    """A 4-player greedy game after that many turns (or at its end), its last turn and events."""
    match = games.new("yamatai", ["Ann", "Bo", "Cy", "Di"], seed=seed)
    done = 0
    events: list[dict[str, Any]] = []
    last = Highlight()
    last_events: list[dict[str, Any]] = []
    while (seat := match.current_seat) is not None and done < turns:
        new = match.play(greedy_player(match.view(seat), seed * 31 + seat), seat=seat)
        events += new
        if any(e["type"] == "end_turn" for e in new):
            done += 1
            last, last_events, events = Highlight.from_events(events), events, []
    return match, last, last_events


def yamatai_board(seed: int, turns: int) -> Figures:
    """Yamatai's late-game board: render, draw-only, turn picture, and a description."""
    match, highlight, events = late_game(seed, turns)
    view = yamatai_view(match.view(None))
    return (
        lambda: render_board(view, highlight=highlight),
        lambda: render_image(view, highlight=highlight),
        _focus(match, events),
        f"yamatai, 4 players, round {view['round']}",
    )


def namiji_board(seed: int, turns: int) -> Figures:
    """Namiji's board after that many turns of a 4-player greedy game (its last turn ringed)."""
    from render.namiji.picture import render_board as namiji_png
    from render.namiji.picture import render_image as namiji_image

    match = games.new("namiji", ["Ann", "Bo", "Cy", "Di"], seed=seed)
    choose = games.computer_player("namiji")
    done, step = 0, 0
    events: list[dict[str, Any]] = []
    last: list[dict[str, Any]] = []
    while (seat := match.current_seat) is not None and done < turns:
        new = match.play(choose(match.view(seat), seed * 31 + step), seat=seat)
        step += 1
        events += new
        if match.milestones(new).turn_ended:
            done += 1
            last, events = events, []
    view = namiji_view(match.view(None))
    return (
        lambda: namiji_png(view, events=last),
        lambda: namiji_image(view, events=last),
        _focus(match, last),
        f"namiji, 4 players, after {done} turns",
    )


def _focus(match: games.Match, events: list[dict[str, Any]]) -> Callable[[], bytes]:
    """The turn picture of the player to move (the spectator's when the game is over)."""
    seat = match.current_seat
    view = match.view(seat)
    legal = match.legal_actions() if seat is not None else []
    return lambda: render_focus(view, legal=legal, events=events)


def many_games(count: int, steps: int, seed: int) -> None:
    """Print the CPU per turn picture and per board over many two-player games, each picture
    drawn once (the games started at various points, played one action each in turn)."""
    choose = games.computer_player("yamatai")
    matches = []
    for n in range(count):
        match = games.new("yamatai", [f"Ann{seed + n}", f"Bo{seed + n}"], seed=seed + n)
        for step in range(n % 40 * 2):  # a few of the game's actions, up to 78
            if (seat := match.current_seat) is None:
                break
            match.play(choose(match.view(seat), seed + n + step), seat=seat)
        matches.append(match)
    warm = games.new("yamatai", ["Warm", "Up"], seed=seed)  # the worker's warm-up: static
    render_board(yamatai_view(warm.view(None)))  # layers, palette, fonts (pictures.py warm_up)
    yamatai_focus(yamatai_view(warm.view(0)), legal=warm.legal_actions(), events=[])
    turn_cpu, board_cpu, turns, boards = 0.0, 0.0, 0, 0
    for step in range(steps):
        for n, match in enumerate(matches):
            if (seat := match.current_seat) is None:
                continue
            events = match.play(choose(match.view(seat), seed + n + 97 * step), seat=seat)
            if match.milestones(events).turn_ended:
                view = yamatai_view(match.view(None))
                start = time.process_time()
                render_board(view, highlight=Highlight.from_events(events))
                board_cpu += time.process_time() - start
                boards += 1
            if (seat := match.current_seat) is not None:
                view, legal = yamatai_view(match.view(seat)), match.legal_actions()
                start = time.process_time()
                yamatai_focus(view, legal=legal, events=events)
                turn_cpu += time.process_time() - start
                turns += 1
    unit = statistics.median(_cpu(reference) for _ in range(9))
    print(f"many games: {count} two-player yamatai games, {steps} actions each, in turn")
    print(f"reference (Pillow's Mandelbrot, as without --many): {1000 * unit:.1f} ms CPU")
    for kind, drawn, cpu in (("turn pictures", turns, turn_cpu), ("boards", boards, board_cpu)):
        each = cpu / max(1, drawn)
        print(
            f"{kind}: {drawn}, {1000 * each:.1f} ms CPU each ({cpu:.1f} s),"
            f" {each / unit:.2f} references each"
        )


def _cpu(action: Callable[[], object]) -> float:
    """The process time one call of ``action`` takes, in seconds."""
    start = time.process_time()
    action()
    return time.process_time() - start


def pillow_png(picture: Image.Image) -> bytes:
    """The picture as PNG with Pillow's defaults, in its own mode."""
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()


def median_ms(actions: Sequence[Callable[[], object]], runs: int) -> list[float]:
    """Median wall time of each action in milliseconds, runs interleaved so load hits all alike."""
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for action, spent in zip(actions, times, strict=True):
            start = time.perf_counter()
            action()
            spent.append((time.perf_counter() - start) * 1000)
    return [statistics.median(t) for t in times]


def reference() -> bytes:
    """The reference workload, the same on any code of this repository: Pillow computing a
    fixed 600x412 Mandelbrot picture and saving it as PNG with its defaults."""
    picture = Image.effect_mandelbrot((600, 412), (-2.0, -1.25, 0.75, 1.25), 40)
    return pillow_png(picture)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=("yamatai", "namiji", "both"), default="both")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--turns", type=int, help="turns played (yamatai 36, namiji 90)")
    parser.add_argument("--many", type=int, help="games drawn in turn, each picture once")
    parser.add_argument("--steps", type=int, default=3, help="actions per game with --many")
    args = parser.parse_args(argv)
    if args.many:
        many_games(args.many, args.steps, args.seed)
        return 0
    chosen = ("yamatai", "namiji") if args.game == "both" else (args.game,)
    kinds: list[tuple[str, Callable[[], bytes], Image.Image]] = []
    for game in chosen:
        board = namiji_board if game == "namiji" else yamatai_board
        turns = args.turns if args.turns is not None else (90 if game == "namiji" else 36)
        render_png, draw_image, render_turn, description = board(args.seed, turns)
        _board_figures(render_png, draw_image, description, args.runs)
        for kind, render in (("board", render_png), ("turn picture", render_turn)):
            kinds.append((f"{game} {kind}", render, decoded(render())))
    actions: list[Callable[[], object]] = [reference]
    for _, render, written in kinds:
        actions += [render, partial(pillow_png, written)]
    unit, *times = median_ms(actions, args.runs)
    print(f"reference: Pillow drawing and saving a fixed 600x412 Mandelbrot, {unit:.1f} ms")
    print("| picture | size | PNG | time | floor | time/floor | time/reference |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (kind, render, written), spent, floor in zip(kinds, times[::2], times[1::2], strict=True):
        size = f"{written.width}x{written.height}"
        png = len(render()) / 1024
        print(
            f"| {kind} | {size} | {png:.0f} KB | {spent:.1f} ms | {floor:.1f} ms"
            f" | {spent / floor:.2f}x | {spent / unit:.2f} |"
        )
    print("floor: Pillow saving the same picture in its own mode (P) with its defaults; target 1")
    for (kind, render, written), spent in zip(kinds, times[::2], strict=True):
        if kind.endswith("turn picture"):  # the line printed before the table existed
            print(
                f"render_focus median ({kind.split()[0]}, turn picture,"
                f" {written.width}x{written.height}): {spent:.1f} ms,"
                f" PNG {len(render()) / 1024:.0f} KB"
            )
    return 0


def _board_figures(
    render_png: Callable[[], bytes], draw_image: Callable[[], Any], description: str, runs: int
) -> None:
    """A game's board: its time, drawing alone, size, floor and the former ways, for reference."""
    png = render_png()  # warm-up: static layer, sprites, fonts, palette
    image = draw_image()
    picture = decoded(png)
    total, draw, floor, octree, rgb = median_ms(
        [
            render_png,
            draw_image,
            lambda: pillow_png(picture),
            lambda: octree_png(image),
            lambda: rgb_png(image),
        ],
        runs,
    )
    print(f"board: {description}, {image.width}x{image.height}")
    print(f"render_board median: {total:.1f} ms (drawing alone {draw:.1f} ms)")
    print(f"PNG size: {len(png) / 1024:.0f} KB ({picture.mode} picture of {image.mode} drawing)")
    print(f"floor, Pillow encoding that picture in its own mode ({picture.mode}): {floor:.1f} ms")
    print(f"ratio render/floor: {total / floor:.2f}x (target: at most 1.00x)")
    rgb_size = len(rgb_png(image)) / 1024
    print(f"for reference, octree quantize + PNG level 6 (before issue 16): {octree:.1f} ms")
    print(f"for reference, plain RGB PNG encode: {rgb:.1f} ms, {rgb_size:.0f} KB")


def decoded(png: bytes) -> Image.Image:
    """The palette picture a PNG holds, decoded: Pillow's own mode."""
    with Image.open(io.BytesIO(png)) as picture:
        picture.load()
        return picture.copy()


def octree_png(image: Image.Image) -> bytes:
    """The way before issue 16: an octree of each picture, saved by Pillow at level 6."""
    quantized = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def rgb_png(image: Image.Image) -> bytes:
    """The RGB drawing saved by Pillow at the pictures' level."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


if __name__ == "__main__":
    sys.exit(main())
