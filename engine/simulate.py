"""Play many games between computer players and print per-game statistics and a summary.

python -m engine.simulate [--game KEY] --players 4 --games 500 --seed 1
    [--level easy|normal|strong | --player NAME]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from typing import TypedDict

from engine import games
from engine.contract import ComputerPlayer
from engine.players import LEVELS


class Played(TypedDict):
    """One simulated game: its seed, length, end, winner, scores and the rules' figures."""

    seed: int
    rounds: int
    actions: int
    end: str  # the termination's reasons joined by "+" ("-": none)
    winner: int
    scores: list[int]
    lines: list[dict[str, int]]  # each seat's score lines
    figures: dict[str, list[float]]  # the rules' statistics, per seat


def play_game(game: str, players: int, seed: int, player: ComputerPlayer) -> Played:
    """One full game; its statistics."""
    match = games.new(game, [f"P{i + 1}" for i in range(players)], seed=seed)
    actions = 0
    while (seat := match.current_seat) is not None:
        match.play(player(match.view(seat), seed * 7919 + seat), seat=seat)
        actions += 1
    outcome = match.outcome
    assert outcome is not None
    return {
        "seed": seed,
        "rounds": outcome.rounds or match.turn_info.round,
        "actions": actions,
        "end": "+".join(outcome.termination) or "-",
        "winner": outcome.winners[0],
        "scores": [r.score for r in outcome.results],
        "lines": [{line.label: line.points for line in r.lines} for r in outcome.results],
        "figures": match.rules.statistics(match.state),
    }


def summarize(results: Sequence[Played], players: int) -> list[str]:
    """Summary lines over many games."""
    n = len(results)
    ends = Counter(r["end"] for r in results)
    wins = Counter(r["winner"] for r in results)
    lines = [
        f"games {n}, players {players}",
        "rounds: mean {:.1f}, min {}, max {}".format(
            statistics.mean(r["rounds"] for r in results),
            min(r["rounds"] for r in results),
            max(r["rounds"] for r in results),
        ),
        "end condition: " + ", ".join(f"{k} {v / n:.0%}" for k, v in ends.most_common()),
        "wins by seat: " + ", ".join(f"P{s + 1} {wins[s] / n:.0%}" for s in range(players)),
        "winning score: mean {:.1f}; all scores: mean {:.1f}".format(
            statistics.mean(max(r["scores"]) for r in results),
            statistics.mean(s for r in results for s in r["scores"]),
        ),
    ]
    for label in results[0]["lines"][0]:
        mean = statistics.mean(ls[label] for r in results for ls in r["lines"])
        lines.append(f"  points from {label}: mean {mean:.2f} per player")
    for name in results[0]["figures"]:
        mean = statistics.mean(float(x) for r in results for x in r["figures"][name])
        lines.append(f"{name} per player: mean {mean:.2f}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__)
    parser.add_argument("--game", choices=sorted(games.GAMES), default=next(iter(games.GAMES)))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", help="a computer player of the game by name")
    parser.add_argument(
        "--level", choices=LEVELS, help="every seat plays this level (default: normal)"
    )
    args = parser.parse_args(argv)
    rules = games.rules_for(args.game)
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(f"--players must be {rules.min_players} to {rules.max_players}")
    if args.player is not None and args.player not in rules.players:
        parser.error(f"--player must be one of {', '.join(rules.players)}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.player is not None and args.level is not None:
        parser.error("give --level or --player, not both")
    player = games.computer_player(args.game, args.level or args.player)
    results = []
    print("seed rounds actions end winner scores")
    for i in range(args.games):
        r = play_game(args.game, args.players, args.seed + i, player)
        results.append(r)
        scores = "/".join(map(str, r["scores"]))
        print(r["seed"], r["rounds"], r["actions"], r["end"], f"P{r['winner'] + 1}", scores)
    print()
    print("\n".join(summarize(results, args.players)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
