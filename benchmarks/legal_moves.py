"""Legal action generation, side by side: Yamatai's against python-chess's, per generated action.

    .venv/bin/python benchmarks/legal_moves.py [--games 40] [--runs 5] [--seed 1]

python-chess is a benchmark-only dependency (the ``bench`` extra, pinned in constraints.txt):

    .venv/bin/pip install -c constraints.txt -e '.[bench]'

Positions come from seeded random games: every position of ``--games`` random 4-player Yamatai
games, and every position of as many random chess games (at most 200 plies each). Each side's
positions are copied first, then their legal actions are generated ``--runs`` times over:
Yamatai's as structured actions (``Rules.legal_moves``, the game's own ``Action`` values, as the
computer players use them), chess's as ``list(board.legal_moves)`` (``Move`` objects, SAN never
made). For reference Yamatai's text list (``Rules.legal_actions``, what views and the bot read)
is timed too. Each figure is the time per generated action in nanoseconds and in reference
units: one unit is one step of a fixed pure-Python loop timed in the same run, so that runs on
machines of different speed or load compare. Target: Yamatai at or under python-chess
(ratio <= 1.00).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# Keep this folder off the import path (benchmarks/engine.py shadows the engine package).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import games  # noqa: E402
from engine.rng import Rng  # noqa: E402

REFERENCE_STEPS = 100_000
MAX_PLIES = 200
INSTALL = "pip install -c constraints.txt -e '.[bench]'"


def reference_pass() -> float:
    """Seconds of CPU of one step of a fixed pure-Python loop (one pass of it)."""
    start = time.process_time()
    table: dict[int, int] = {}
    total = 0
    for i in range(REFERENCE_STEPS):
        key = (i * 7919) % 1009
        table[key] = table.get(key, 0) + 1
        total += len((key, i))
    return (time.process_time() - start) / REFERENCE_STEPS


def yamatai_positions(games_count: int, seed: int) -> list[Any]:
    """Every position (a copy of the state) of seeded random 4-player Yamatai games."""
    found = []
    for g in range(games_count):
        match = games.new("yamatai", ["Ann", "Bo", "Cy", "Di"], seed=seed + g)
        rng = Rng(seed + g)
        while match.current_seat is not None:
            found.append(match.rules.clone(match.state))
            legal = match.legal_actions()
            match.play(legal[rng.below(len(legal))])
    return found


def chess_positions(chess: Any, games_count: int, seed: int) -> list[Any]:
    """Every position (a copy of the board) of seeded random chess games, ``MAX_PLIES`` at most."""
    found = []
    for g in range(games_count):
        board = chess.Board()
        rng = Rng(seed + g)
        for _ in range(MAX_PLIES):
            moves = list(board.legal_moves)
            if not moves:
                break
            found.append(board.copy(stack=False))
            board.push(moves[rng.below(len(moves))])
    return found


Side = tuple[Callable[[Any], Sequence[Any]], list[Any]]


def passes(sides: dict[str, Side], runs: int) -> dict[str, float]:
    """Seconds of CPU per generated action for each side: the best of ``runs`` passes over its
    positions, the sides' passes (and the reference unit's, ``unit``) taken in turn so that they
    share the machine's load alike (the garbage collector paused during a pass)."""
    best = dict.fromkeys(sides, float("inf"))
    counts = dict.fromkeys(sides, 0)
    unit = float("inf")
    for _ in range(runs):
        unit = min(unit, reference_pass())
        for name, (generate, positions) in sides.items():
            count = 0
            gc.collect()
            gc.disable()
            start = time.process_time()
            for position in positions:
                count += len(generate(position))
            best[name] = min(best[name], time.process_time() - start)
            gc.enable()
            counts[name] = count
    return {"unit": unit} | {name: best[name] / max(1, counts[name]) for name in sides}


def chess_module() -> Any:
    """python-chess, or None if it is not installed."""
    try:
        import chess
    except ImportError:
        return None
    return chess


def line(label: str, seconds: float, unit: float, actions: str) -> str:
    """One printed figure: nanoseconds and reference units per action."""
    return f"{label}: {seconds * 1e9:.0f} ns per action ({seconds / unit:.1f} units), {actions}"


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="random games per side")
    parser.add_argument("--runs", type=int, default=5, help="passes over the positions")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    args = parser.parse_args(argv)
    rules = games.rules_for("yamatai")
    states = yamatai_positions(args.games, args.seed)
    chess = chess_module()
    sides: dict[str, Side] = {"moves": (rules.legal_moves, states)}
    sides["texts"] = (rules.legal_actions, states)
    boards: list[Any] = []
    if chess is not None:
        boards = chess_positions(chess, args.games, args.seed)
        sides["chess"] = (lambda board: list(board.legal_moves), boards)
    figures = passes(sides, args.runs)
    unit = figures["unit"]
    print(f"reference unit: one step of a fixed Python loop, {unit * 1e9:.1f} ns")
    size = sum(len(rules.legal_moves(s)) for s in states) / len(states)
    per = f"{size:.1f} per position ({len(states)})"
    print(line("yamatai legal_moves", figures["moves"], unit, per))
    print(line("yamatai legal_actions (text)", figures["texts"], unit, "the same formatted"))
    if chess is None:
        print(f"python-chess: not installed, skipped (install it with: {INSTALL})")
        return 0
    size = sum(b.legal_moves.count() for b in boards) / len(boards)
    label = f"python-chess {chess.__version__} board.legal_moves"
    print(line(label, figures["chess"], unit, f"{size:.1f} per position ({len(boards)})"))
    ratio = figures["moves"] / figures["chess"]
    print(f"ratio yamatai / python-chess per action: {ratio:.2f} (target <= 1.00)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
