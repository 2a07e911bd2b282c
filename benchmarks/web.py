"""Web benchmark: viewers stepping through replays while games are played, in one bot process.

    .venv/bin/python benchmarks/web.py [--games 50] [--viewers 20] [--duration 30] [--rate 5]
                                       [--render-processes N] [--quick]

As in the bot's process, one event loop runs the game service and the web server on one
SQLite database; the service draws in the bot's render pool (``--render-processes``, default as
the bot: the CPU count less one, 1 to 4), the web pages in their own low-priority one
(``bot/web/pictures.py``). ``--games`` two-player Yamatai games are made and each played
for a few turns first (so that replays have some depth). Then two phases of ``--duration``
seconds each, the same open-loop load of completed turns (``--rate`` per second, in games that
have none under way; the whole turn is chosen by the normal computer player beforehand and
played with the service's ``play``, its last action alone, timed until its result with the
turn's picture):

1. without viewers;
2. with ``--viewers`` viewers, each opening a random game's page, looking at it, then stepping
   through its replay (5 to 10 pictures, one step back or forward at a time), again and again,
   over HTTP on 127.0.0.1, waiting 0.5 to 1.5 times ``--pause`` after each (0.5 s by default; a
   reader holding an arrow key is about ``--pause 0.2``). The viewers run in a process of their
   own, as browsers are not in the bot's process (they share the machine's processors).

Printed: the p50/p95 of a page, of a step picture, and of a completed turn in each phase, the
turn p95 with viewers as a ratio of the one without (target: at most 1.2), and each figure as a
multiple of a floor measured in the same run (one board drawn here, ``benchmarks/bot.py``), so
figures compare across machines. The turn here is the service's (store + picture), without
Discord: ``benchmarks/bot.py`` and ``load.py`` time it through the Discord double.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import multiprocessing
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from types import ModuleType

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import aiohttp  # noqa: E402

from bot.service import Rooms, build_rooms, render_picture  # noqa: E402
from bot.store import GameRepository, open_store  # noqa: E402
from bot.web.config import WebConfig  # noqa: E402
from bot.web.demo import play_turn  # noqa: E402
from bot.web.limits import RateLimit  # noqa: E402
from bot.web.pictures import web_pool  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from bot.workers.render_pool import RenderPool, default_processes  # noqa: E402
from engine import games  # noqa: E402
from engine.games import Match  # noqa: E402

FIRST_TURNS = 6  # turns each game has before the measures


def _load_bot_benchmark() -> ModuleType:
    """benchmarks/bot.py (its percentile and picture floor are shared)."""
    spec = importlib.util.spec_from_file_location("himiko_bench_bot", _HERE / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load_bot_benchmark()


@dataclass
class Samples:
    """Latencies in seconds."""

    turn: list[float] = field(default_factory=list)
    page: list[float] = field(default_factory=list)
    picture: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    cpu: float = 0.0  # seconds of processor time the bot's process used in the phase


def whole_turn(match: Match, seed: int) -> list[str]:
    """The current player's whole turn, as the normal computer player would play it."""
    before = len(match.log)
    play_turn(match, seed)
    return [text for _, text in match.log[before:]]


async def make_games(repo: GameRepository, rooms: Rooms, count: int) -> list[int]:
    """``count`` two-player games, each played ``FIRST_TURNS`` turns."""
    ids = []
    for number in range(count):
        created = await rooms.playing.create_game(
            guild_id=1,
            channel_id=2,
            thread_id=10_000 + number,
            players=[(1000 + 2 * number, "Ann"), (1001 + 2 * number, "Bo")],
            game_key="yamatai",
            seed=number,
        )
        for _ in range(FIRST_TURNS):
            game = await repo.load_game(created.game_id)
            match = games.from_json(game.snapshot)
            play_turn(match, number)
            await repo.append_match(game, match)
        ids.append(created.game_id)
    return ids


async def play_turns(
    repo: GameRepository, rooms: Rooms, ids: list[int], rate: float, seconds: float
) -> Samples:
    """Open loop: a completed turn every 1/``rate`` s in a game that has none under way."""
    samples = Samples()
    busy: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()

    async def one(game_id: int) -> None:
        try:
            game = await repo.load_game(game_id)
            match = games.from_json(game.snapshot)
            seat = match.current_seat
            if seat is None:
                return
            actions = await asyncio.to_thread(whole_turn, match, game_id)
            user = game.user_of(seat) or 0
            reveals = [match.rules.reveals(match.rules.parse(match.state, t)) for t in actions]
            if actions[:-1] and not any(reveals[:-1]):
                await rooms.playing.play(user, "; ".join(actions[:-1]), game_id=game_id)
            else:  # a revealing action is played alone
                for text in actions[:-1]:
                    await rooms.playing.play(user, text, game_id=game_id)
            start = time.perf_counter()
            result = await rooms.playing.play(user, actions[-1], game_id=game_id)
            assert result.turn is not None and result.turn.picture_order is not None
            # the turn's picture follows its answer (D89): timed until it is drawn, as before
            assert await rooms.reports.draw_picture(result.turn.picture_order)
            samples.turn.append(time.perf_counter() - start)
        except Exception as error:  # reported, the run goes on
            samples.failures.append(f"turn in game {game_id}: {error!r}")
        finally:
            busy.discard(game_id)

    end = time.perf_counter() + seconds
    rng = random.Random(1)
    while time.perf_counter() < end:
        free = [g for g in ids if g not in busy]
        if free:
            game_id = rng.choice(free)
            busy.add(game_id)
            task = asyncio.create_task(one(game_id))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.sleep(1 / rate)
    if tasks:
        await asyncio.gather(*tasks)
    return samples


async def viewer(
    client: aiohttp.ClientSession, urls: list[str], samples: Samples, seed: int, pause: float
) -> None:
    """Open a random game's page and step through its replay, again and again."""
    rng = random.Random(seed)
    while True:
        url = rng.choice(urls)
        start = time.perf_counter()
        async with client.get(url) as answer:
            html = await answer.text()
        samples.page.append(time.perf_counter() - start)
        if answer.status != 200:
            samples.failures.append(f"page {url}: {answer.status}")
            continue
        last = int(html.split('id="slider" min="0" max="', 1)[1].split('"', 1)[0])
        step = last
        await asyncio.sleep(rng.uniform(0.5, 1.5) * pause)  # a look at the page
        for _ in range(rng.randint(5, 10)):
            step = max(0, min(last, step + rng.choice((-1, -1, 1))))
            start = time.perf_counter()
            async with client.get(f"{url}/v/{step}.png") as answer:
                await answer.read()
            samples.picture.append(time.perf_counter() - start)
            if answer.status != 200:
                samples.failures.append(f"picture {url}/{step}: {answer.status}")
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pause)


async def watch(urls: list[str], viewers: int, pause: float, seconds: float) -> Samples:
    """``viewers`` viewers of the games at ``urls`` for ``seconds``."""
    samples = Samples()
    async with aiohttp.ClientSession() as client:
        tasks = [
            asyncio.create_task(viewer(client, urls, samples, n, pause)) for n in range(viewers)
        ]
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return samples


def watch_elsewhere(
    urls: list[str], viewers: int, pause: float, seconds: float, pipe: Connection
) -> None:
    """The viewers in a process of their own (browsers are not in the bot's process):
    says "ready", watches for ``seconds``, then sends what it measured."""
    pipe.send("ready")
    samples = asyncio.run(watch(urls, viewers, pause, seconds))
    pipe.send((samples.page, samples.picture, samples.failures))


async def run(args: argparse.Namespace) -> tuple[Samples, Samples]:
    """Both phases; (without viewers, with viewers)."""
    with tempfile.TemporaryDirectory() as folder:
        repo = await open_store(Path(folder) / "web.sqlite3")
        pool = RenderPool(args.render_processes, render_picture)
        await pool.start()
        rooms = build_rooms(repo, pool=pool)
        await rooms.pictures.warm_up()
        web = web_pool(args.render_processes)
        await web.start()
        server = WebServer(
            WebConfig(port=0, secret="benchmark-secret-0123456789"),
            repo,
            web,
            limit=RateLimit(burst=1_000_000),  # every viewer comes from 127.0.0.1 here
        )
        await server.start()
        try:
            print(f"making {args.games} games ({FIRST_TURNS} turns each) ...", flush=True)
            ids = await make_games(repo, rooms, args.games)
            print(f"phase 1: {args.duration:.0f} s of turns, no viewers ...", flush=True)
            busy = time.process_time()
            alone = await play_turns(repo, rooms, ids, args.rate, args.duration)
            alone.cpu = time.process_time() - busy
            print(f"phase 2: the same with {args.viewers} viewers ...", flush=True)
            urls = [server.game_url(game_id) for game_id in ids]
            mine, theirs = multiprocessing.get_context("spawn").Pipe()
            watching = multiprocessing.get_context("spawn").Process(
                target=watch_elsewhere,
                args=(urls, args.viewers, args.pause, args.duration, theirs),
            )
            watching.start()
            assert await asyncio.to_thread(mine.recv) == "ready"
            busy = time.process_time()
            played = await play_turns(repo, rooms, ids, args.rate, args.duration)
            played.cpu = time.process_time() - busy
            pages, pictures, failures = await asyncio.to_thread(mine.recv)
            await asyncio.to_thread(watching.join)
            watched = Samples(played.turn, pages, pictures, failures + played.failures)
            watched.cpu = played.cpu
        finally:
            await server.stop()
            await web.close()
            await pool.close()
            await repo.close()
    return alone, watched


def report(alone: Samples, watched: Samples, floor: float) -> None:
    """Print the figures and their ratios."""
    print(f"floor: one board picture drawn in this process, median {floor * 1000:.0f} ms")
    for label, values in (
        ("page", watched.page),
        ("step picture", watched.picture),
        ("completed turn, no viewers", alone.turn),
        ("completed turn, with viewers", watched.turn),
    ):
        print(bench.line(label, values))
        if values:
            ratio = bench.percentile(values, 0.95) / floor
            print(f"  p95 / floor: {ratio:.1f}x")
    print(
        f"bot's process CPU: {alone.cpu:.1f} s without viewers, {watched.cpu:.1f} s with"
        " (the turns' driver included, the viewers in their own process)"
    )
    if alone.turn and watched.turn:
        ratio = bench.percentile(watched.turn, 0.95) / bench.percentile(alone.turn, 0.95)
        print(f"completed turn p95 with viewers / without: {ratio:.2f} (target: at most 1.20)")
    for failure in (alone.failures + watched.failures)[:10]:
        print(f"failure: {failure}")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, run both phases, print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50, help="active games")
    parser.add_argument("--viewers", type=int, default=20, help="web viewers in phase 2")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds per phase")
    parser.add_argument("--rate", type=float, default=5.0, help="completed turns per second")
    parser.add_argument(
        "--pause", type=float, default=0.5, help="a viewer's mean seconds between two steps"
    )
    parser.add_argument(
        "--render-processes", type=int, default=default_processes(), help="0: a thread"
    )
    parser.add_argument("--quick", action="store_true", help="10 games, 5 viewers, 8 s phases")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.viewers, args.duration = 10, 5, 8.0
    floor = bench.picture_floor()
    alone, watched = asyncio.run(run(args))
    report(alone, watched, floor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
