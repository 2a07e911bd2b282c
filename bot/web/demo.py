"""``python -m bot.web.demo`` (``./scripts/run --demo``): Himiko's web pages without Discord.

Computer players play a few games into a local SQLite file (``demo.sqlite3`` by default, never
the bot's own database): some to their end, some still under way. Then their pages are served
on 127.0.0.1 and a link per game is printed. Stop it with Ctrl+C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.service import Rooms, build_rooms, render_picture
from bot.store import GameNotFound, GameRepository, GameSettings, open_store
from bot.workers.render_pool import RenderPool, default_processes
from engine import games
from engine.games import Match

from .config import WebConfig
from .server import WebServer

DEFAULT_DB = Path("demo.sqlite3")
DEFAULT_PORT = 8080
GUILD, CHANNEL = 1, 2


@dataclass(frozen=True)
class DemoGame:
    """One game the demo plays: which, who, in what language, how far (None: to its end)."""

    game_key: str
    players: tuple[str, ...]
    language: str
    turns: int | None


NAMES = ("Iyo", "Nashime", "Tsushima", "Aiko", "Bashō", "Chiyo", "Hana", "Jun", "Kei", "Mio")
LANGUAGES = ("en", "fr", "it", "pl")
TURNS_UNDER_WAY = 8  # turns played in the games left under way


def demo_games() -> tuple[DemoGame, ...]:
    """Per registered game: one played to its end (3 players where the game allows), one under
    way (its fewest players); the languages in turn."""
    found: list[tuple[str, int, int | None]] = []
    for key, rules in games.GAMES.items():
        full = max(rules.min_players, min(3, rules.max_players))
        found.append((key, full, None))
        found.append((key, rules.min_players, TURNS_UNDER_WAY))
    names = iter(NAMES * len(found))
    return tuple(
        DemoGame(key, tuple(next(names) for _ in range(count)), LANGUAGES[n % 4], turns)
        for n, (key, count, turns) in enumerate(found)
    )


DEMO_GAMES = demo_games()


def play_turn(match: Match, seed: int) -> None:
    """Let the normal computer player play the seat to act until its turn ends."""
    while (seat := match.current_seat) is not None:
        player = games.computer_player(match.game_key)
        events = match.play(player(match.view(seat), seed + len(match.log)), seat=seat)
        if match.milestones(events).turn_ended:
            return


async def play_game(repo: GameRepository, rooms: Rooms, demo: DemoGame, number: int) -> int:
    """Create one demo game and play it (each turn saved on its own, as the bot does)."""
    created = await rooms.playing.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=1000 + number,
        players=[(None, name) for name in demo.players],
        game_key=demo.game_key,
        seed=number,
        settings=GameSettings(language=demo.language),
    )
    game_id = created.game_id
    turns = 0
    while demo.turns is None or turns < demo.turns:
        game = await repo.load_game(game_id)
        match = games.from_json(game.snapshot)
        if match.current_seat is None:
            break
        await asyncio.to_thread(play_turn, match, number)
        await repo.append_match(game, match, by_computer=False)
        turns += 1
    return game_id


async def demo(db: Path, host: str, port: int, fresh: bool, processes: int) -> None:
    """Play the demo games (unless the file has them) and serve their pages until stopped."""
    if fresh and db.exists():
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            path.unlink(missing_ok=True)
    repo = await open_store(db)
    pool = RenderPool(processes, render_picture)
    try:
        rooms = build_rooms(repo, pool=pool)
        known = await _game_ids(repo)
        if not known:
            print(f"Playing {len(DEMO_GAMES)} games between computer players into {db} ...")
            known = [await play_game(repo, rooms, d, n) for n, d in enumerate(DEMO_GAMES, 1)]
        await pool.start()
        config = WebConfig(port=port, secret=secrets.token_urlsafe(32), host=host)
        server = WebServer(config, repo, pool)
        await server.start()
        print(f"Himiko's web pages on http://{host}:{server.port} (Ctrl+C stops):")
        for game_id in known:
            game = await repo.load_game(game_id)
            rules = games.rules_for(game.game_key)
            state = "finished" if game.status != "active" else f"{game.action_count} actions"
            print(f"  {rules.display_name} ({', '.join(game.players)}; {state}):")
            print(f"    {server.game_url(game_id)}")
        sys.stdout.flush()
        await _until_stopped()
        await server.stop()
    finally:
        await pool.close()
        await repo.close()


async def _game_ids(repo: GameRepository) -> list[int]:
    """The demo games already in the file (their threads are 1001, 1002, ...)."""
    found = []
    for number in range(1, len(DEMO_GAMES) + 1):
        with contextlib.suppress(GameNotFound):
            found.append((await repo.load_latest_game_by_thread(1000 + number)).id)
    return found


async def _until_stopped() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, stop.set)
    await stop.wait()


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options and run the demo."""
    parser = argparse.ArgumentParser(prog="./scripts/run --demo", description=__doc__)
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help="the demo's SQLite file")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="0: any free port")
    parser.add_argument("--fresh", action="store_true", help="delete the file and play again")
    parser.add_argument(
        "--render-processes", type=int, default=default_processes(), help="0: draw in a thread"
    )
    args = parser.parse_args(argv)
    try:
        asyncio.run(demo(args.db, args.host, args.port, args.fresh, args.render_processes))
    except KeyboardInterrupt:
        pass
    except OSError as error:
        print(f"himiko demo: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
