"""Play many games between computer players and print per-game statistics and a summary.

python -m engine.simulate --players 4 --games 500 --seed 1 [--player greedy|random]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine import games
from engine.players import PLAYERS

Player = Callable[[dict[str, Any], int], str]


def play_game(players: int, seed: int, player: Player) -> dict[str, Any]:
    """One full game; its statistics as a dict."""
    match = games.new("yamatai", [f"P{i + 1}" for i in range(players)], seed=seed)
    actions = 0
    while (seat := match.current_seat) is not None:
        match.play(player(match.view(seat), seed * 7919 + seat), seat=seat)
        actions += 1
    outcome = match.outcome
    assert outcome is not None
    state = match.state
    return {
        "seed": seed,
        "rounds": outcome["rounds"],
        "actions": actions,
        "end": "+".join(outcome["end_reasons"]),
        "winner": outcome["winner"],
        "scores": [s["total"] for s in outcome["scores"]],
        "lines": [s["lines"] for s in outcome["scores"]],
        "buildings": [len(p.tiles) for p in state.players],
        "specialists": [len(p.specialists) for p in state.players],
        "set_aside": [sum(p.set_aside) for p in state.players],
        "exhausted": [name for name, n in outcome_reserve(match) if n == 0],
    }


def outcome_reserve(match: games.Match) -> list[tuple[str, int]]:
    """Boats left in the reserve at the end, by type."""
    view = match.view(None)
    return list(view["reserve"].items())


def summarize(results: Sequence[dict[str, Any]], players: int) -> list[str]:
    """Summary lines over many games."""
    n = len(results)
    ends = Counter(r["end"] for r in results)
    exhausted = Counter(name for r in results for name in r["exhausted"])
    wins = Counter(r["winner"] for r in results)
    lines = [
        f"games {n}, players {players}",
        "rounds: mean {:.1f}, min {}, max {}".format(
            statistics.mean(r["rounds"] for r in results),
            min(r["rounds"] for r in results),
            max(r["rounds"] for r in results),
        ),
        "end condition: " + ", ".join(f"{k} {v / n:.0%}" for k, v in ends.most_common()),
        "boat types exhausted at the end: "
        + (", ".join(f"{k} {v / n:.0%}" for k, v in exhausted.most_common()) or "none"),
        "wins by seat: " + ", ".join(f"P{s + 1} {wins[s] / n:.0%}" for s in range(players)),
        "winning score: mean {:.1f}; all scores: mean {:.1f}".format(
            statistics.mean(max(r["scores"]) for r in results),
            statistics.mean(s for r in results for s in r["scores"]),
        ),
    ]
    for line in ("coins", "pp_tokens", "buildings", "specialists", "reserved", "set_aside"):
        mean = statistics.mean(ls[line] for r in results for ls in r["lines"])
        lines.append(f"  PP from {line}: mean {mean:.2f} per player")
    for key in ("buildings", "specialists", "set_aside"):
        mean = statistics.mean(x for r in results for x in r[key])
        lines.append(f"{key} per player: mean {mean:.2f}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", choices=sorted(PLAYERS), default="greedy")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    results = []
    print("seed rounds actions end winner scores buildings specialists set_aside exhausted")
    for i in range(args.games):
        r = play_game(args.players, args.seed + i, PLAYERS[args.player])
        results.append(r)
        print(
            r["seed"],
            r["rounds"],
            r["actions"],
            r["end"],
            f"P{r['winner'] + 1}",
            "/".join(map(str, r["scores"])),
            "/".join(map(str, r["buildings"])),
            "/".join(map(str, r["specialists"])),
            "/".join(map(str, r["set_aside"])),
            ",".join(r["exhausted"]) or "-",
        )
    print()
    print("\n".join(summarize(results, args.players)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
