"""Computer players' strength and decision time: seeded games between levels, win rates.

    .venv/bin/python benchmarks/players.py [--games 100] [--seed 1] [--game yamatai|namiji]
        [--matchup strong-normal ...] [--players 2 ...] [--iterations N] [--quick]

Matchups (each played for each game, seats rotating so every seat gets its share):

- ``strong-normal``: one strong player against normal (greedy) players, at 2 players and at the
  game's largest table (4 for Yamatai, 5 for Namiji) unless ``--players`` lists counts;
- ``easy-normal``: one easy player against one normal player (2 players).

Prints each matchup's win rate with its 95 % Wilson interval (a win shared by k tied seats
counts 1/k: Namiji shares a tied victory, Yamatai's tie-break leaves one winner), the mean
scores, and the strong player's decision time (decisions with more than one legal action) as
median and p95 in seconds and in reference units. The reference unit is measured in the same
run: the median time of one seeded random 4-player Yamatai game (benchmarks/engine.py's figure),
so that runs on machines of different speed or load compare. The strong player searches with
the budget the bot uses (``engine.search.Budget`` in each game's ``search.py``) unless
``--iterations`` changes it.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

# Keep this folder off the import path (benchmarks/engine.py shadows the engine package).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import games  # noqa: E402
from engine.contract import Budget, ComputerPlayer  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.search import search_player  # noqa: E402

MATCHUPS = ("strong-normal", "easy-normal")
LARGEST = {"yamatai": 4, "namiji": 5}


@dataclass
class Tally:
    """One matchup's results: the tested seat's wins (shares of ties), scores and times."""

    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def reference_unit(runs: int = 15) -> float:
    """Median seconds of one seeded random 4-player Yamatai game, measured now."""
    times = []
    for seed in range(runs):
        match = games.new("yamatai", ["Ann", "Bo", "Cy", "Di"], seed=seed)
        rng = Rng(seed)
        start = time.perf_counter()
        while match.current_seat is not None:
            legal = match.legal_actions()
            match.play(legal[rng.below(len(legal))])
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def play(
    game: str, players: int, seed: int, tested: int, player: ComputerPlayer, tally: Tally
) -> None:
    """One game: seat ``tested`` plays ``player``, the others the normal level."""
    normal = games.computer_player(game, "normal")
    match = games.new(game, [f"P{i + 1}" for i in range(players)], seed=seed)
    while (seat := match.current_seat) is not None:
        view = match.view(seat)
        if seat != tested:
            match.play(normal(view, seed * 7919 + seat), seat=seat)
            continue
        start = time.perf_counter()
        action = player(view, seed * 7919 + seat)
        if len(view["legal_actions"]) > 1:
            tally.times.append(time.perf_counter() - start)
        match.play(action, seat=seat)
    outcome = match.outcome
    assert outcome is not None
    tally.games += 1
    if tested in outcome.winners:
        tally.wins += 1 / len(outcome.winners)
    scores = [r.score for r in outcome.results]
    tally.scores.append(scores[tested])
    tally.others.append(statistics.mean(s for i, s in enumerate(scores) if i != tested))


def tested_player(game: str, matchup: str, iterations: int | None) -> ComputerPlayer:
    """The player under test: strong (its budget changed by ``--iterations``) or easy."""
    if matchup == "easy-normal":
        return games.computer_player(game, "easy")
    if iterations is None:
        return games.computer_player(game, "strong")
    search = __import__(f"engine.{game}.search", fromlist=["GAME"])
    budget: Budget = replace(games.search_budget(game), iterations=iterations)
    return search_player(search.GAME, budget)


def line(game: str, players: int, matchup: str, tally: Tally, unit: float) -> str:
    """One row of the table."""
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games
    score = f"{statistics.mean(tally.scores):.1f} / {statistics.mean(tally.others):.1f}"
    timing = "-"
    if matchup == "strong-normal" and tally.times:
        median, p95 = statistics.median(tally.times), percentile(tally.times, 0.95)
        timing = f"{median:.3f} / {p95:.3f} s ({median / unit:.1f} / {p95 / unit:.1f} units)"
    return (
        f"| {game} | {players} | {matchup} | {tally.games} | {rate:.0%} "
        f"({low:.0%}-{high:.0%}) | {score} | {timing} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per matchup and table")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--game", choices=sorted(LARGEST), action="append")
    parser.add_argument("--matchup", choices=MATCHUPS, action="append")
    parser.add_argument("--players", type=int, action="append", help="strong-normal tables")
    parser.add_argument("--iterations", type=int, help="the strong player's samples per decision")
    parser.add_argument("--quick", action="store_true", help="2 games each, 8 iterations")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.iterations = 2, 8
    unit = reference_unit(3 if args.quick else 15)
    print(f"reference unit: a random 4-player Yamatai game, median {unit * 1000:.1f} ms")
    print(
        "| game | players | matchup | games | tested seat wins (95% CI) | score tested / others "
        "| strong decision median / p95 |"
    )
    print("|---|---|---|---|---|---|---|")
    for game in args.game or sorted(LARGEST):
        for matchup in args.matchup or MATCHUPS:
            counts = [2] if matchup == "easy-normal" else args.players or [2, LARGEST[game]]
            player = tested_player(game, matchup, args.iterations)
            for players in counts:
                tally = Tally()
                for g in range(args.games):
                    play(game, players, args.seed + g, g % players, player, tally)
                print(line(game, players, matchup, tally, unit), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
