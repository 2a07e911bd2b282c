"""Load benchmark: many active games and a steady rate of commands, one or two bot processes.

    .venv/bin/python benchmarks/load.py [--games 500] [--rate 50] [--duration 60] [--quick]
                                        [--processes 1|2] [--database-url postgresql://...]

The bot runs as in production (``python -m bot`` subprocesses) against the Discord double.
``--processes 1`` uses SQLite (or PostgreSQL with ``--database-url``); ``--processes 2`` runs
shard 0 and shard 1 of 2 on one PostgreSQL database (``--database-url``, default
``HIMIKO_TEST_POSTGRES_URL``; a fresh database is created there and dropped at the end), with
half of the games in a guild of each shard.

``--games`` two-player games are opened first (lobby, join, start). Then, for ``--duration``
seconds, a command starts every 1/``--rate`` seconds (open loop: it does not wait for earlier
ones) in a game that has none under way: the player to act asks ``/play``'s autocomplete and
plays its first suggestion. Reported: p50/p95/p99 of a completed turn (``/play`` to the turn
message with its picture) and of autocomplete, the commands completed per second, and each
process's memory (RSS now, and its peak). A floor measured in the same run (an autocomplete
round trip with nothing else running) makes the figures comparable across machines: each is
also printed as a multiple of it. Target: p95 < 1 s for both at that load.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import signal
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from tests.discord_double import DiscordDouble, GuildSpec, UserSpec  # noqa: E402


def _load_bot_benchmark() -> ModuleType:
    """benchmarks/bot.py (the players' moves and percentiles are shared with it)."""
    spec = importlib.util.spec_from_file_location("himiko_bench_bot", _HERE / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load_bot_benchmark()

GUILDS = (411_000_000_000_000_001, 411_000_000_000_000_001 + (1 << 22))  # shards 0 and 1 of 2
CHANNELS = (411_000_000_000_000_002, 411_000_000_000_000_003)
TIMEOUT = 120.0
OPENING_AT_ONCE = 8
FLOOR_SAMPLES = 20


@dataclass
class Results:
    """Latencies in seconds and counts."""

    turn: list[float] = field(default_factory=list)
    play: list[float] = field(default_factory=list)  # every /play, to its ephemeral reply
    autocomplete: list[float] = field(default_factory=list)
    commands: int = 0
    skipped: int = 0  # arrivals when every game already had a command under way
    failures: list[str] = field(default_factory=list)
    elapsed: float = 0.0


@dataclass
class Table:
    """One game: its channel, thread, players and who is to act."""

    channel_id: int
    game: Any  # bench.Game
    busy: bool = False


def make_double(
    games: int, guilds: int
) -> tuple[DiscordDouble, list[tuple[int, UserSpec, UserSpec]]]:
    """A double with ``guilds`` servers (one per shard), two members per game."""
    seats = [
        (
            CHANNELS[i % guilds],
            UserSpec(bench.HOST_BASE + i, f"host{i}"),
            UserSpec(bench.GUEST_BASE + i, f"guest{i}"),
        )
        for i in range(games)
    ]
    specs = [
        GuildSpec(
            GUILDS[g],
            f"Load {g}",
            text_channel_ids=[CHANNELS[g]],
            members=[u for c, h, gu in seats if c == CHANNELS[g] for u in (h, gu)],
        )
        for g in range(guilds)
    ]
    return DiscordDouble(token=bench.TOKEN, guilds=specs), seats


async def start_bots(
    double: DiscordDouble, workdir: Path, processes: int, url: str | None
) -> list[asyncio.subprocess.Process]:
    """``python -m bot`` per shard, configured through its environment; once all are ready."""
    started = []
    for shard in range(processes):
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "DATABASE_", "SHARD_", "DEV_GUILD"))
        }
        env.update(
            PYTHONPATH=str(_ROOT),
            DISCORD_TOKEN=double.token,
            DISCORD_API_BASE=double.api_base,
            DISCORD_GATEWAY_URL=double.gateway_url,
            COMPUTER_PAUSE="0",
            LOG_LEVEL="WARNING",
        )
        if url is None:
            env["DATABASE_PATH"] = str(workdir / "himiko.sqlite3")
        else:
            env["DATABASE_URL"] = url
        if processes > 1:
            env.update(SHARD_COUNT=str(processes), SHARD_IDS=str(shard))
        log = (workdir / f"bot{shard}.log").open("wb")
        started.append(
            await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=workdir, env=env, stdout=log, stderr=log
            )
        )
        if processes > 1:
            await double.wait_shard_ready(shard, processes, 60)
        else:
            await double.wait_ready(60)
    await double.wait_for_commands(None, 60)
    return started


async def stop_bots(processes: list[asyncio.subprocess.Process], workdir: Path) -> None:
    """SIGTERM each process; show the log of one that failed."""
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for shard, process in enumerate(processes):
        await asyncio.wait_for(process.wait(), 60)
        text = (workdir / f"bot{shard}.log").read_text(errors="replace")
        if process.returncode != 0 or "Traceback" in text or " ERROR " in text:
            print(f"bot {shard} exited with {process.returncode}; its log:\n{text}")


def memory(pid: int) -> tuple[float, float]:
    """(RSS, peak RSS) of a process in MB, from /proc (0 where /proc is missing)."""
    found = {"VmRSS": 0.0, "VmHWM": 0.0}
    try:
        for row in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = row.partition(":")
            if key in found:
                found[key] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return found["VmRSS"], found["VmHWM"]


async def open_tables(
    double: DiscordDouble, seats: Sequence[tuple[int, UserSpec, UserSpec]]
) -> list[Table]:
    """Open every game, a few at a time (lobby, join, start)."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)

    async def one(channel: int, host: UserSpec, guest: UserSpec) -> Table:
        async with gate:
            return Table(channel, await bench.open_game(double, host, guest))

    tables: list[Table] = []
    saved = bench.CHANNEL
    try:
        for channel in sorted({c for c, _, _ in seats}):  # open_game uses the module's channel
            bench.CHANNEL = channel
            tables += await asyncio.gather(*(one(c, h, g) for c, h, g in seats if c == channel))
    finally:
        bench.CHANNEL = saved
    return tables


async def autocomplete(double: DiscordDouble, table: Table) -> tuple[list[str], float]:
    """The player to act's suggestions and how long they took."""
    typed = await double.autocomplete_interaction(
        table.game.current, table.game.thread_id, "play", {"action": ""}, focused="action"
    )
    response = await typed.response(TIMEOUT)
    latency = typed.first_response_latency
    if latency is None:
        raise RuntimeError("autocomplete not answered")
    return [str(c["value"]) for c in response.data.get("choices", [])], latency


async def command(double: DiscordDouble, table: Table, results: Results) -> None:
    """Autocomplete, then ``/play`` its first suggestion; record what it took."""
    table.busy = True
    try:
        choices, latency = await autocomplete(double, table)
        results.autocomplete.append(latency)
        if not choices:
            raise RuntimeError(f"no suggestion in {table.game.thread_id}")
        thread = table.game.thread_id
        posted = len(double.messages(thread, include_ephemeral=False))
        rec = await double.slash(table.game.current, thread, "play", {"action": choices[0]})
        reply = await rec.reply(TIMEOUT)
        if not reply.content.startswith("Played"):
            raise RuntimeError(f"/play refused: {reply.content[:80]}")
        if rec.reply_latency is not None:
            results.play.append(rec.reply_latency)
        new = double.messages(thread, include_ephemeral=False)[posted:]
        if new:
            results.turn.append(new[-1].created_at - rec.dispatched_at)
            pinged = new[-1].pinged_user_ids()
            table.game.current = pinged[0] if pinged else None
        results.commands += 1
    except Exception as error:  # counted and shown; the run goes on
        results.failures.append(str(error))
    finally:
        table.busy = False


async def measure_floor(double: DiscordDouble, tables: list[Table]) -> float:
    """The median autocomplete round trip with nothing else running (the run's floor)."""
    samples = []
    for i in range(FLOOR_SAMPLES):
        _, latency = await autocomplete(double, tables[i % len(tables)])
        samples.append(latency)
    return statistics.median(samples)


async def load(double: DiscordDouble, tables: list[Table], args: argparse.Namespace) -> Results:
    """Start a command every 1/rate seconds for ``duration`` seconds; wait for the last ones."""
    results, rng = Results(), random.Random(args.seed)
    running: set[asyncio.Task[None]] = set()
    loop = asyncio.get_running_loop()
    start = loop.time()
    for n in range(int(args.rate * args.duration)):
        await asyncio.sleep(max(0.0, start + n / args.rate - loop.time()))  # the arrival rate
        idle = [t for t in tables if not t.busy and t.game.current is not None]
        if not idle:
            results.skipped += 1
            continue
        task = asyncio.create_task(command(double, rng.choice(idle), results))
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running)
    results.elapsed = loop.time() - start
    return results


def figures(label: str, values: Sequence[float], floor: float) -> str:
    """``label: p50 .. p95 .. p99 .. ms (x floor), n``."""
    if not values:
        return f"{label}: no samples"
    cells = []
    for name, fraction in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99)):
        value = bench.percentile(values, fraction)
        cells.append(f"{name} {value * 1000:.0f} ms ({value / floor:.1f}x)")
    return f"{label}: {', '.join(cells)} ({len(values)})"


def _database(url: str | None, processes: int) -> str | None:
    if url is None:
        url = os.environ.get("HIMIKO_TEST_POSTGRES_URL") if processes > 1 else None
    if processes > 1 and url is None:
        raise SystemExit("--processes 2 needs PostgreSQL: --database-url postgresql://...")
    return url


async def _with_fresh_database(server: str, name: str, create: bool) -> None:
    import asyncpg

    conn = await asyncpg.connect(server)
    try:
        if create:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        else:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def benchmark(args: argparse.Namespace) -> None:
    """Open the games, measure the floor, run the load, print the figures."""
    server = _database(args.database_url, args.processes)
    name = "load_" + uuid.uuid4().hex[:12]
    url = None
    if server is not None:
        await _with_fresh_database(server, name, create=True)
        url = urlunsplit(urlsplit(server)._replace(path="/" + name))
    double, seats = make_double(args.games, args.processes)
    await double.start()
    try:
        with tempfile.TemporaryDirectory(prefix="himiko-load-") as tmp:
            workdir = Path(tmp)
            bots = await start_bots(double, workdir, args.processes, url)
            try:
                began = time.perf_counter()
                tables = await open_tables(double, seats)
                print(f"opened {len(tables)} games in {time.perf_counter() - began:.1f} s")
                floor = await measure_floor(double, tables)
                results = await load(double, tables, args)
                usage = [memory(p.pid) for p in bots]
            finally:
                await stop_bots(bots, workdir)
    finally:
        await double.stop()
        if server is not None:
            await _with_fresh_database(server, name, create=False)
    elapsed = results.elapsed
    print(f"floor (idle autocomplete round trip, median): {floor * 1000:.1f} ms")
    print(figures("completed turn with picture", results.turn, floor))
    print(figures("/play (its reply)", results.play, floor))
    print(figures("autocomplete", results.autocomplete, floor))
    print(
        f"throughput: {results.commands / elapsed:.1f} commands/s completed "
        f"(asked {args.rate:g}/s; each is an autocomplete and a /play)"
    )
    for shard, (rss, peak) in enumerate(usage):
        print(f"memory, process {shard}: RSS {rss:.0f} MB, peak {peak:.0f} MB")
    if results.skipped:
        print(f"{results.skipped} arrivals skipped: every game had a command under way")
    if results.failures:
        print(f"{len(results.failures)} failures, e.g. {results.failures[:3]}")
    for label, values in (("turn", results.turn), ("autocomplete", results.autocomplete)):
        if values:
            p95 = bench.percentile(values, 0.95)
            verdict = "met" if p95 < 1.0 else "NOT met"
            print(f"target p95 < 1 s ({label}): {verdict} ({p95 * 1000:.0f} ms)")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=500, help="active games")
    parser.add_argument("--rate", type=float, default=50.0, help="commands started per second")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    parser.add_argument("--quick", action="store_true", help="60 games, 10/s for 10 s")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument("--database-url", help="PostgreSQL server (a fresh database is made)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.rate, args.duration = 60, 10.0, 10.0
    backend = "SQLite" if _database(args.database_url, args.processes) is None else "PostgreSQL"
    print(
        f"{args.games} games, {args.rate:g} commands/s for {args.duration:g} s, "
        f"{args.processes} process(es) on {backend}, {os.cpu_count()} CPUs"
    )
    asyncio.run(benchmark(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
