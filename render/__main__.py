"""Command line: play a game with computer players and write the board after every turn.

python -m render demo [--game KEY] --seed 7 --players 4 --out DIR [--player NAME] [--theme NAME]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine import games
from render import render_board
from render.extras import Extras
from render.theme import THEMES

NAMES = ("Ann", "Bo", "Cy", "Di", "Eve")

__all__ = ["demo", "main"]


def demo(
    seed: int,
    players: int,
    out: Path,
    player: str | None = None,
    theme: str = "default",
    game: str | None = None,
) -> list[Path]:
    """Play one game between computer players; write turn-NNN.png per turn and final.png."""
    out.mkdir(parents=True, exist_ok=True)
    key = game or next(iter(games.GAMES))
    choose = games.computer_player(key, player)
    match = games.new(key, list(NAMES[:players]), seed=seed)
    written: list[Path] = []
    turn_events: list[dict[str, Any]] = []
    while (seat := match.current_seat) is not None:
        events = match.play(choose(match.view(seat), seed * 7919 + seat), seat=seat)
        turn_events += events
        if match.milestones(events).turn_ended:
            view = match.view(None)
            name = "final.png" if match.current_seat is None else f"turn-{len(written) + 1:03d}.png"
            path = out / name
            path.write_bytes(render_board(view, events=turn_events, extras=Extras(theme=theme)))
            written.append(path)
            turn_events = []
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("demo", help="play a game and write one PNG per turn plus the final board")
    run.add_argument("--game", choices=sorted(games.GAMES), default=next(iter(games.GAMES)))
    run.add_argument("--seed", type=int, default=7)
    run.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5))
    run.add_argument("--out", type=Path, required=True)
    run.add_argument("--player", help="a computer player of the game (default: its strongest)")
    run.add_argument("--theme", choices=sorted(THEMES), default="default")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    written = demo(args.seed, args.players, args.out, args.player, args.theme, args.game)
    seconds = time.perf_counter() - start
    print(
        f"wrote {len(written)} boards to {args.out} in {seconds:.1f} s (last: {written[-1].name})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
