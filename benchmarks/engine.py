"""Engine speed: a full random 4-player game, legal_actions and legal_moves, a greedy decision.

    .venv/bin/python benchmarks/engine.py [--games 200]
Target (2-core development machine): a full random 4-player game in 50 ms or less.
Wall-clock times: on a shared machine, compare runs made side by side (benchmarks/legal_moves.py
compares Yamatai's generation with python-chess's on CPU time, in the same run).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# This file is named like the package it measures: keep its folder off the import path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import games  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.yamatai.players import greedy_player  # noqa: E402


def random_game(seed: int) -> tuple[float, list[float], int]:
    """Play one random 4-player game; return its time, each legal_actions time, and its length."""
    m = games.new("yamatai", ["Ann", "Bo", "Cy", "Di"], seed=seed)
    rng = Rng(seed)
    legal_times = []
    actions = 0
    start = time.perf_counter()
    while m.current_seat is not None:
        t = time.perf_counter()
        legal = m.legal_actions()
        legal_times.append(time.perf_counter() - t)
        m.play(legal[rng.below(len(legal))])
        actions += 1
    return time.perf_counter() - start, legal_times, actions


def structured_times(seed: int) -> list[float]:
    """Each ``Rules.legal_moves`` time (no text) over the positions of one random game."""
    m = games.new("yamatai", ["Ann", "Bo", "Cy", "Di"], seed=seed)
    rng = Rng(seed)
    times = []
    while m.current_seat is not None:
        t = time.perf_counter()
        m.rules.legal_moves(m.state)
        times.append(time.perf_counter() - t)
        legal = m.legal_actions()
        m.play(legal[rng.below(len(legal))])
    return times


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    game_times, legal_times, lengths = [], [], []
    for seed in range(args.games):
        elapsed, legal, actions = random_game(seed)
        game_times.append(elapsed)
        legal_times += legal
        lengths.append(actions)
    moves_times = [t for seed in range(args.games) for t in structured_times(seed)]
    m = games.new("yamatai", ["Ann", "Bo", "Cy", "Di"], seed=1)
    greedy_times = []
    while m.current_seat is not None:
        seat = m.current_seat
        t = time.perf_counter()
        action = greedy_player(m.view(seat), 1)
        greedy_times.append(time.perf_counter() - t)
        m.play(action, seat=seat)
    q95 = statistics.quantiles(game_times, n=20)[-1]
    print(
        f"random 4-player game: median {statistics.median(game_times) * 1000:.1f} ms, "
        f"p95 {q95 * 1000:.1f} ms, mean {statistics.mean(lengths):.0f} actions "
        f"({args.games} games)"
    )
    print(
        f"legal_actions: median {statistics.median(legal_times) * 1e6:.0f} us, "
        f"max {max(legal_times) * 1e6:.0f} us ({len(legal_times)} calls)"
    )
    print(
        f"legal_moves (structured, no text): median {statistics.median(moves_times) * 1e6:.0f} us"
        f", max {max(moves_times) * 1e6:.0f} us ({len(moves_times)} calls)"
    )
    print(
        "greedy decision (view + lookahead): "
        f"median {statistics.median(greedy_times) * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
