"""Subprocess for the crash test: plays random games through the store until it is killed.

After every append that returned it prints ``game_id seq seat notation`` and flushes, so the
parent knows exactly which appends the store acknowledged.
Usage: python crash_writer.py DB SEED (DB: a SQLite file or a postgresql:// URL)
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from bot.store import NewSeat, Target, is_url, open_store
from engine import games

COLOURS = ["red", "blue", "green", "yellow"]


async def main(db: Target, seed: int) -> None:
    """Play random games through the store forever, printing each acknowledged append."""
    rng = random.Random(seed)
    repo = await open_store(db)
    thread = seed * 1_000_000
    while True:
        thread += 1
        players = ["Ann", "Bo", "Cy", "Di"][: rng.choice([2, 3, 4])]
        match = games.new("yamatai", players=players, seed=rng.randrange(1 << 32), options=None)
        game = await repo.create_game(
            guild_id=1,
            channel_id=2,
            thread_id=thread,
            game_key="yamatai",
            seed=match.seed,
            options=None,
            seats=[NewSeat(i, 500 + i, p, COLOURS[i]) for i, p in enumerate(players)],
            snapshot=match.to_json(),
            current_seat=match.current_seat,
        )
        while match.current_seat is not None:
            game = await repo.load_game(game.id)
            match = games.from_json(game.snapshot)
            match.play(rng.choice(match.legal_actions()), seat=match.current_seat)
            await repo.append_match(game, match)
            lines = [
                f"{game.id} {seq} {seat} {notation}\n"
                for seq, (seat, notation) in enumerate(match.log, start=1)
                if seq > game.action_count
            ]
            sys.stdout.write("".join(lines))
            sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if is_url(sys.argv[1]) else Path(sys.argv[1]), int(sys.argv[2])))
