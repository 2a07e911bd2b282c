"""``python -m bot.web.demo`` (``./scripts/run --demo``): Himiko's web pages without Discord.

Computer players play a few games and a league into a local SQLite file (``demo.sqlite3`` by
default, never the bot's own database): some games to their end, some still under way. Then
their pages are served on 127.0.0.1 and a link per game and for the league is printed, signed
with the demo's secret, kept beside the file (``demo.sqlite3.secret``), so the links stay the
same on every start with that file. Stop it with Ctrl+C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import itertools
import os
import secrets
import signal
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.service import Rooms, build_rooms, render_picture
from bot.store import GameNotFound, GameRepository, GameSettings, League, open_store
from bot.web.pictures import web_picture
from bot.workers.render_pool import RenderPool, default_processes
from engine import games
from engine.games import Match

from .config import WebConfig
from .demo_league import LEAGUE_LANGUAGE, LEAGUE_NAME, demo_league
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
#: the languages' names in the demo's own output (English, as its other lines)
LANGUAGE_NAMES = {"en": "English", "fr": "French", "it": "Italian", "pl": "Polish"}
TURNS_UNDER_WAY = 8  # turns played in the games left under way


class DemoError(Exception):
    """A start the demo refuses, with the one line that says what to do."""


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


def secret_path(db: Path) -> Path:
    """Where the demo's secret is kept: beside its database (``demo.sqlite3.secret``)."""
    return db.with_name(db.name + ".secret")


def demo_secret(db: Path) -> str:
    """The secret the demo's links are signed with: made once per database file, then read
    again on every start, so that a link printed once keeps opening its page."""
    path = secret_path(db)
    with contextlib.suppress(FileNotFoundError):
        kept = path.read_text(encoding="ascii").strip()
        if len(kept) >= 16:
            return kept
        path.unlink()  # cut short (written by hand?): a new one, new links
    made = path.with_name(f"{path.name}.{os.getpid()}.new")
    descriptor = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(secrets.token_urlsafe(32) + "\n")
        file.flush()
        os.fsync(file.fileno())
    try:
        os.link(made, path)  # whole or not at all; a demo started at the same moment wins
    except FileExistsError:
        pass
    finally:
        made.unlink()
    return path.read_text(encoding="ascii").strip()


def play_turn(match: Match, seed: int) -> None:
    """Let the normal computer player play the seat to act until its turn ends."""
    while (seat := match.current_seat) is not None:
        player = games.computer_player(match.game_key)
        events = match.play(player(match.view(seat), seed + len(match.log)), seat=seat)
        if match.milestones(events).turn_ended:
            return


async def play_on(repo: GameRepository, game_id: int, turns: int | None) -> None:
    """Play a stored game on, ``turns`` turns (None: to its end), each turn saved on its own
    as the bot does."""
    played = 0
    while turns is None or played < turns:
        game = await repo.load_game(game_id)
        match = games.from_json(game.snapshot)
        if match.current_seat is None:
            return
        await asyncio.to_thread(play_turn, match, game.seed)
        await repo.append_match(game, match, by_computer=False)
        played += 1


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
    await play_on(repo, created.game_id, demo.turns)
    return created.game_id


async def demo(db: Path, host: str, port: int, fresh: bool, processes: int) -> None:
    """Play the demo games (unless the file has them) and serve their pages until stopped."""
    if fresh:
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm"), secret_path(db)):
            path.unlink(missing_ok=True)
    secret = demo_secret(db)
    repo = await open_store(db)
    pool = RenderPool(processes, render_picture)  # the games' own pictures, as the bot's
    pictures = RenderPool(processes, web_picture)  # the pages' pictures, in their language
    try:
        seeds = itertools.count(100)
        rooms = build_rooms(repo, pool=pool, seed_source=lambda: next(seeds))
        config = WebConfig(port=port, secret=secret, host=host)
        server = WebServer(config, repo, pictures, leagues=rooms.leagues)
        await _listen(server)
        try:
            known = await _game_ids(repo)
            league = await repo.load_league(GUILD, LEAGUE_NAME)
            if len(known) < len(DEMO_GAMES) or league is None:
                print(
                    f"Playing {len(DEMO_GAMES)} games and a league between computer players"
                    f" into {db} ...",
                    flush=True,
                )
            for number, game in enumerate(DEMO_GAMES, 1):
                if number not in known:
                    known[number] = await play_game(repo, rooms, game, number)
                elif game.turns is None:  # to its end, if an interrupted start had not
                    await play_on(repo, known[number], None)
            league = await demo_league(
                repo, rooms, lambda game_id, turns: play_on(repo, game_id, turns), TURNS_UNDER_WAY
            )
            await pool.start()
            await pictures.start()
            await _tell(repo, server, [known[n] for n in sorted(known)], league, db)
            await _until_stopped()
        finally:
            await server.stop()
    finally:
        await pictures.close()
        await pool.close()
        await repo.close()


async def _listen(server: WebServer) -> None:
    """Start serving, or say in one line that the address is taken and how to choose another."""
    config = server.config
    try:
        await server.start()
    except OSError as error:
        await server.stop()
        if error.errno == errno.EADDRINUSE:
            why = "is already in use (another demo, or another program)"
        else:
            why = f"cannot be listened on ({error.strerror or error})"
        raise DemoError(
            f"{config.host}:{config.port} {why}; choose another port with"
            f" --port, e.g. ./scripts/run --demo --port {_another(config.port)}"
            " (--port 0: any free port)"
        ) from None


def _another(port: int) -> int:
    return port + 1 if 1024 <= port < 65535 else DEFAULT_PORT


async def _tell(
    repo: GameRepository, server: WebServer, game_ids: Iterable[int], league: League, db: Path
) -> None:
    """Print the links (each game with its language and state, the league) and what next."""
    print(f"Himiko's web pages on http://{server.config.host}:{server.port}:")
    for game_id in game_ids:
        game = await repo.load_game(game_id)
        rules = games.rules_for(game.game_key)
        language = LANGUAGE_NAMES.get(game.language or "en", game.language)
        state = "finished" if game.status != "active" else f"{game.action_count} actions"
        print(f"  {rules.display_name}, in {language} ({', '.join(game.players)}; {state}):")
        print(f"    {server.game_url(game_id)}")
    rules = games.rules_for(league.game_key)
    state = (
        "over"
        if league.status == "finished"
        else f"round {league.current_round} of {league.rounds} under way"
    )
    language = LANGUAGE_NAMES[LEAGUE_LANGUAGE]
    print(f"  League {league.name!r} ({rules.display_name}, in {language}; {state}):")
    print("    standings, every round's tables with their games, each player's rating")
    print(f"    {server.league_url(league.id)}")
    print(
        "What next: open a link in a browser (pinch or +/- to zoom on the board; the slider"
        " replays a game move by move).\n"
        f"  The links stay the same on every start with {db} (its secret is in"
        f" {secret_path(db)});\n"
        "  --fresh plays new games, with new links; --port chooses another port.\n"
        "  To play in Discord: create the bot's application (docs/bot.md), put its token in"
        " .env as DISCORD_TOKEN, then ./scripts/run and /new in a channel."
    )
    print("Ctrl+C stops the demo.", flush=True)


async def _game_ids(repo: GameRepository) -> dict[int, int]:
    """The demo games already in the file, by number (their threads are 1001, 1002, ...)."""
    found = {}
    for number in range(1, len(DEMO_GAMES) + 1):
        with contextlib.suppress(GameNotFound):
            found[number] = (await repo.load_latest_game_by_thread(1000 + number)).id
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
    except DemoError as error:
        print(f"himiko demo: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"himiko demo: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
