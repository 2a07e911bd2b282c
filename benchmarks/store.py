"""Storage figures: load a game with a 1,000-action log, append one action, concurrent appends.

Run: .venv/bin/python benchmarks/store.py [--actions 1000] [--games 50] [--per-game 40]
Prints medians in milliseconds and appends per second. Uses a temporary database file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# benchmarks/engine.py is named like the engine package: keep this folder off the import path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bot.store import GameRepository, NewSeat, open_store  # noqa: E402
from bot.store.sqlite import CONNECTION_PRAGMAS  # noqa: E402

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
COLOURS = ["red", "blue", "green", "yellow"]


def realistic_state(actions: int) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """A real finished 4-player game's JSON, its log stretched to ``actions`` entries."""
    from engine import games

    rng = random.Random(1)
    match = games.new("yamatai", players=PLAYERS, seed=42, options=None)
    while match.current_seat is not None:
        match.play(rng.choice(match.legal_actions()))
    data: dict[str, Any] = json.loads(match.to_json())
    real_log = list(match.log)
    log = [real_log[i % len(real_log)] for i in range(actions)]
    return data, log


def snapshot_with(data: dict[str, Any], log: list[tuple[int, str]], upto: int) -> str:
    """The snapshot text after ``upto`` actions (the engine embeds its log in the snapshot)."""
    data["log"] = [[seat, text] for seat, text in log[:upto]]
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


async def new_game(repo: GameRepository, thread: int, snapshot: str) -> int:
    """Store a 4-player game with the given snapshot; return its id."""
    game = await repo.create_game(
        guild_id=1,
        channel_id=2,
        thread_id=thread,
        game_key="yamatai",
        seed=42,
        options=None,
        seats=[NewSeat(i, 100 + i, p, COLOURS[i]) for i, p in enumerate(PLAYERS)],
        snapshot=snapshot,
        current_seat=0,
    )
    return game.id


def ms(samples: list[float]) -> str:
    """The median of timings in seconds, as milliseconds text."""
    return f"{statistics.median(samples) * 1000:.3f} ms"


async def bench(db: Path, actions: int, games_count: int, per_game: int) -> None:
    """Measure load, single append and concurrent appends; print the figures."""
    from engine import games

    data, log = realistic_state(actions)
    repo = await open_store(db)
    try:
        # 1. One game grows to `actions` actions, one append (with its snapshot) at a time.
        game_id = await new_game(repo, 1, snapshot_with(data, log, 0))
        snapshots = [snapshot_with(data, log, i + 1) for i in range(actions)]
        append_times: list[float] = []
        version = 1
        for i, (seat, text) in enumerate(log):
            start = time.perf_counter()
            version = await repo.append_actions(
                game_id, version, [(seat % 4, text)], snapshots[i], current_seat=(seat + 1) % 4
            )
            append_times.append(time.perf_counter() - start)

        # 2. Loading it: snapshot + row + seats, whatever the log length.
        load_times: list[float] = []
        parse_times: list[float] = []
        for _ in range(500):
            start = time.perf_counter()
            game = await repo.load_game(game_id)
            load_times.append(time.perf_counter() - start)
        assert game.action_count == actions
        for _ in range(100):
            start = time.perf_counter()
            games.from_json(game.snapshot)
            parse_times.append(time.perf_counter() - start)

        # 3. `games_count` games written concurrently through the bot's one repository.
        short = snapshot_with(data, log, 150)
        ids = [await new_game(repo, 1000 + g, short) for g in range(games_count)]

        async def writer(gid: int) -> None:
            v = 1
            for i in range(per_game):
                v = await repo.append_actions(gid, v, [(i % 4, log[i][1])], short, current_seat=0)

        start = time.perf_counter()
        await asyncio.gather(*(writer(gid) for gid in ids))
        elapsed = time.perf_counter() - start
        total = games_count * per_game

        # 4. The same, each step as the bot does it: load, then append.
        async def bot_flow(gid: int) -> None:
            for i in range(per_game):
                g = await repo.load_game(gid)
                await repo.append_actions(
                    gid, g.version, [(i % 4, log[i][1])], short, current_seat=0
                )

        start = time.perf_counter()
        await asyncio.gather(*(bot_flow(gid) for gid in ids))
        flow_elapsed = time.perf_counter() - start
    finally:
        await repo.close()

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"SQLite {sqlite3.sqlite_version}; {', '.join(CONNECTION_PRAGMAS)}; WAL")
    print(f"snapshot size with a {actions}-action log: {len(snapshots[-1]) / 1024:.1f} KiB")
    print(f"load a game with a {actions}-action log (median of 500): {ms(load_times)}")
    print(f"  (engine from_json of that snapshot, median of 100: {ms(parse_times)})")
    print(f"append one action with its snapshot (median of {actions}): {ms(append_times)}")
    print(
        f"append p95: {statistics.quantiles(append_times, n=20)[-1] * 1000:.3f} ms; "
        f"load p95: {statistics.quantiles(load_times, n=20)[-1] * 1000:.3f} ms"
    )
    print(
        f"{games_count} games written concurrently ({total} appends): "
        f"{total / elapsed:,.0f} appends/s"
    )
    print(
        f"{games_count} games, load + append each step ({total} steps): "
        f"{total / flow_elapsed:,.0f} steps/s"
    )


def main() -> None:
    """Parse options, run the benchmark in a temporary directory, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--per-game", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(Path(tmp) / "bench.sqlite3", args.actions, args.games, args.per_game))


if __name__ == "__main__":
    main()
