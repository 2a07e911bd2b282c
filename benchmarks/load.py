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
message with its picture), of ``/play``'s answer (``/play (its reply)``), of the turn message
(``turn message``: posted, with or without its picture) and of its picture (``picture``: the
message carries it; the picture follows the message, issue 25), and of autocomplete; the
commands completed per second against those asked; the CPU per completed command (``cpu per
command``: the bot process and its render workers, in ms and in units of a reference workload
timed in this process in the same run); each process's memory (RSS now, and its peak). A floor
measured in the same run (an autocomplete round trip with nothing else running) makes the
latencies comparable across machines: each is also printed as a multiple of it. Target: p95 < 1 s
for both at that load.

A command the admission gate refused on arrival (the "busy" answer, D117: nothing was played)
is counted on its own line (``refused (busy): N``, with its answer's p50/p95) and not in ``/play
(its reply)``, which stays the time to a played command's result; its game is free again at once
(the next arrival may pick it). At the end of every run, the bot stopped, ``python -m bot.store
verify`` checks the run's database (``verify: clean`` or its findings) and the thread messages
posted twice are counted (``messages posted twice: N``: a public message of the bot in a game's
thread whose text and buttons, or whose nonce, an earlier one in the same thread already had;
a turn message's button names its game, version and turn, so one turn announced twice counts
once, two turns with the same words do not).

``--sweep`` finds the saturation rate, the highest rate whose ``/play (its reply)`` p95 stays
under 1 s with at most 1% of its commands refused: it tries ``--rate``, then rates ``--step``
higher until one is over (or ``--step`` lower until one is under), ``--sweep-duration`` seconds
each on the same games (at most six), then runs ``--duration`` seconds at twice that rate and
compares it with the saturation run (completed throughput, peak memory). An answer the admission
gate began with "your action is queued" (D115) counts when the result follows. With the defaults
(500 games, from 50/s) it takes about 4-5 min.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bot.catalog import default_catalog  # noqa: E402
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
QUEUED = default_catalog().text("busy.queued", "en-US")
REFUSED = default_catalog().text("busy.refused", "en-US")
MOST_REFUSED = 0.01  # the share of refused commands a saturation rate may have (--sweep)
VISIBLE = ("callback:4", "callback:7", "edit_original", "followup")  # not the deferral
SEARCH_PHASES = 6  # at most this many rates tried before the run at twice the saturation rate


@dataclass
class Results:
    """Latencies in seconds and counts."""

    turn: list[float] = field(default_factory=list)  # /play to the message with its picture
    play: list[float] = field(default_factory=list)  # every /play, to its ephemeral reply
    message: list[float] = field(default_factory=list)  # /play to its turn message, posted
    picture: list[float] = field(default_factory=list)  # /play to the message's picture
    autocomplete: list[float] = field(default_factory=list)
    commands: int = 0
    skipped: int = 0  # arrivals when every game already had a command under way
    queued: int = 0  # answers that began with "your action is queued" (the admission gate)
    refused: list[float] = field(default_factory=list)  # /play to its "busy" refusal (D117)
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
        if reply.content == REFUSED:  # turned away on arrival (D117): nothing was played
            results.refused.append(await refusal_latency(rec))
            return
        if reply.content == QUEUED:  # the gate said it waits (D115): its answer comes next
            results.queued += 1
            reply = await rec.followup(1, TIMEOUT)
        if not reply.content.startswith("Played"):
            raise RuntimeError(f"/play refused: {reply.content[:80]}")
        answered = next(
            (e.at for e in rec.events if e.message_id == reply.id and e.kind in VISIBLE), None
        )
        if answered is not None:
            results.play.append(answered - rec.dispatched_at)
        new = double.messages(thread, include_ephemeral=False)[posted:]
        if new:
            message = new[-1]
            results.message.append(message.created_at - rec.dispatched_at)
            pinged = message.pinged_user_ids()
            table.game.current = pinged[0] if pinged else None
            results.commands += 1
            await double.wait_for_message(
                thread, lambda m: m.id == message.id and bool(m.attachments), TIMEOUT
            )
            pictured = time.perf_counter() - rec.dispatched_at
            results.picture.append(pictured)
            results.turn.append(pictured)
        else:
            results.commands += 1
    except Exception as error:  # counted and shown; the run goes on
        results.failures.append(str(error))
    finally:
        table.busy = False


async def refusal_latency(rec: Any) -> float:
    """Seconds from a refused ``/play`` to its refusal (the interaction's first response)."""
    latency = rec.first_response_latency
    if latency is None:  # the reply was seen, so its response was recorded
        raise RuntimeError("a refusal without a response")
    return float(latency)


def posted_twice(double: DiscordDouble) -> int:
    """The bot's public messages in game threads that repeat an earlier message of the same
    thread: the same text and buttons (a turn message's button names its game, version and
    turn) or the same nonce."""
    twice = 0
    for thread in double.threads():
        seen: set[object] = set()
        for message in double.messages(thread.id, include_ephemeral=False):
            if message.author_id != double.state.app_id:
                continue
            keys: set[object] = {("text", message.text(), tuple(message.custom_ids()))}
            if message.nonce is not None:
                keys.add(("nonce", message.nonce))
            if keys & seen:
                twice += 1
            seen |= keys
    return twice


def verify(database: str) -> list[str]:
    """``python -m bot.store verify`` on the run's database: ``verify: clean`` or its
    findings (one line each), as lines to print."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.store", "verify", "--db", database],
        capture_output=True,
        text=True,
        cwd=_ROOT,
        env={**os.environ, "PYTHONPATH": str(_ROOT)},
        timeout=600,
    )
    said = (done.stdout + done.stderr).strip().splitlines()
    if done.returncode == 0:
        return [f"verify: clean ({said[-1] if said else 'no output'})"]
    return [f"verify: exit {done.returncode}, findings:", *(f"  {line}" for line in said)]


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


def reference_ms(rounds: int = 5) -> float:
    """The CPU time of a fixed workload in this process (deflate and Python work, like a
    picture's), median of ``rounds``: the unit that makes CPU per command comparable."""
    data = bytes((i * 7919 >> 3) & 0xFF for i in range(400_000))
    samples = []
    for _ in range(rounds):
        began = time.process_time()
        zlib.compress(data, 6)
        sorted(str(i) for i in range(60_000))
        samples.append((time.process_time() - began) * 1000)
    return statistics.median(samples)


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU time (user + system) of a process, and of its live children (the render workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    own = children = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        this, parent = int(stat.parent.name), int(fields[1])
        seconds = (int(fields[11]) + int(fields[12])) / tick
        if this == pid:
            own += seconds
        elif parent == pid:
            children += seconds
    return own, children


def figures(label: str, values: Sequence[float], floor: float) -> str:
    """``label: p50 .. p95 .. p99 .. ms (x floor), n``."""
    if not values:
        return f"{label}: no samples"
    cells = []
    for name, fraction in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99)):
        value = bench.percentile(values, fraction)
        cells.append(f"{name} {value * 1000:.0f} ms ({value / floor:.1f}x)")
    return f"{label}: {', '.join(cells)} ({len(values)})"


def refusals(latencies: Sequence[float]) -> str:
    """``refused (busy): N, answer p50 .. ms, p95 .. ms``: the commands turned away."""
    if not latencies:
        return "refused (busy): 0"
    p50, p95 = (bench.percentile(latencies, f) * 1000 for f in (0.5, 0.95))
    return f"refused (busy): {len(latencies)}, answer p50 {p50:.0f} ms, p95 {p95:.0f} ms"


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
                unit = reference_ms()
                print(f"floor (idle autocomplete round trip, median): {floor * 1000:.1f} ms")
                print(f"reference workload: {unit:.1f} ms of CPU in the load generator")
                await run_rates(double, tables, bots, args, floor, unit)
            finally:
                await stop_bots(bots, workdir)
            database = url or str(workdir / "himiko.sqlite3")
            for line in await asyncio.to_thread(verify, database):
                print(line)
            print(f"messages posted twice: {posted_twice(double)}")
    finally:
        await double.stop()
        if server is not None:
            await _with_fresh_database(server, name, create=False)


async def run_at(
    double: DiscordDouble,
    tables: list[Table],
    bots: Sequence[asyncio.subprocess.Process],
    args: argparse.Namespace,
    rate: float,
    floor: float,
    unit: float,
    duration: float | None = None,
) -> tuple[Results, list[tuple[float, float]]]:
    """One load phase at ``rate`` (for ``duration`` s, else ``--duration``), reported; its
    results and each process's memory (RSS, peak) after it."""
    phase = argparse.Namespace(
        **{**vars(args), "rate": rate, "duration": duration or args.duration}
    )
    before = [cpu_seconds(p.pid) for p in bots]
    results = await load(double, tables, phase)
    cpu = [
        tuple(now - then for now, then in zip(cpu_seconds(p.pid), c, strict=True))
        for p, c in zip(bots, before, strict=True)
    ]
    usage = [memory(p.pid) for p in bots]
    report(phase, results, floor, cpu, unit, usage)
    return results, usage


def under_a_second(results: Results) -> bool:
    """Whether the played commands' answers kept p95 under 1 s with at most ``MOST_REFUSED``
    of the commands refused (and every command was answered)."""
    if not results.play or results.failures:
        return False
    asked = results.commands + len(results.refused)
    if len(results.refused) > MOST_REFUSED * asked:
        return False
    return bench.percentile(results.play, 0.95) < 1.0


async def run_rates(
    double: DiscordDouble,
    tables: list[Table],
    bots: Sequence[asyncio.subprocess.Process],
    args: argparse.Namespace,
    floor: float,
    unit: float,
) -> None:
    """``--rate`` once; or, with ``--sweep``, the saturation rate (the highest rate whose
    answers' p95 stays under 1 s with at most 1% of its commands refused: rising by ``--step``
    from ``--rate``, or falling by it if ``--rate`` is already over), each for
    ``--sweep-duration`` s, then twice that rate for ``--duration`` s, compared with the
    saturation run."""
    if not args.sweep:
        await run_at(double, tables, bots, args, args.rate, floor, unit)
        return
    rate, saturation, tried = args.rate, None, 0
    found: dict[float, tuple[Results, list[tuple[float, float]]]] = {}
    while tried < SEARCH_PHASES and rate > 0:
        found[rate] = await run_at(
            double, tables, bots, args, rate, floor, unit, args.sweep_duration
        )
        tried += 1
        if under_a_second(found[rate][0]):
            saturation = rate
            if any(r > rate for r in found):  # came down from an overloaded rate
                break
            rate += args.step
        elif saturation is not None:
            break
        else:
            rate -= args.step
    if saturation is None:
        print(
            "saturation rate: not found (no rate tried kept the answers' p95 under 1 s with "
            "at most 1% refused)"
        )
        return
    print(f"saturation rate: {saturation:g} commands/s (answers' p95 < 1 s, <= 1% refused)")
    print(f"-- twice the saturation rate, {2 * saturation:g} commands/s --")
    results, usage = await run_at(double, tables, bots, args, 2 * saturation, floor, unit)
    base, base_usage = found[saturation]
    done = results.commands / results.elapsed
    was = base.commands / base.elapsed
    print(
        f"completed at twice the saturation rate: {done:.1f}/s = {100 * done / was:.0f}% of "
        f"the saturation run's {was:.1f}/s (target >= 90%)"
    )
    for shard, ((_, peak), (steady, _)) in enumerate(zip(usage, base_usage, strict=True)):
        print(
            f"memory at twice the saturation rate, process {shard}: peak {peak:.0f} MB = "
            f"{peak / steady:.2f}x the saturation run's RSS {steady:.0f} MB (target <= 1.5x)"
        )


def report(
    args: argparse.Namespace,
    results: Results,
    floor: float,
    cpu: Sequence[Sequence[float]],
    unit: float,
    usage: Sequence[tuple[float, float]],
) -> None:
    """Print one run's figures (one rate)."""
    elapsed = results.elapsed
    if args.sweep:
        print(f"-- {args.rate:g} commands/s for {args.duration:g} s --")
    print(figures("completed turn with picture", results.turn, floor))
    print(figures("/play (its reply)", results.play, floor))
    print(figures("turn message", results.message, floor))
    print(figures("picture", results.picture, floor))
    print(figures("autocomplete", results.autocomplete, floor))
    print(
        f"throughput: {results.commands / elapsed:.1f} commands/s completed "
        f"(asked {args.rate:g}/s; each is an autocomplete and a /play)"
    )
    done = max(1, results.commands)
    own, workers = (sum(p[i] for p in cpu) * 1000 / done for i in (0, 1))
    per = own + workers
    print(
        f"cpu per command: {per:.1f} ms ({per / unit:.2f} reference units; bot and render "
        f"workers, {per * done / 1000:.1f} s for {results.commands} commands; "
        f"the bot's process {own:.1f} ms, its workers {workers:.1f} ms)"
    )
    for shard, (rss, peak) in enumerate(usage):
        print(f"memory, process {shard}: RSS {rss:.0f} MB, peak {peak:.0f} MB")
    if results.skipped:
        print(f"{results.skipped} arrivals skipped: every game had a command under way")
    if results.queued:
        print(f'{results.queued} answers began with "your action is queued" (waited > 2 s)')
    print(refusals(results.refused))
    if results.failures:
        print(f"{len(results.failures)} failures, e.g. {results.failures[:3]}")
    for label, values in (
        ("turn", results.turn),
        ("/play (its reply)", results.play),
        ("turn message", results.message),
        ("autocomplete", results.autocomplete),
    ):
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
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="rising rates from --rate until the answers' p95 reaches 1 s or over 1%% of the "
        "commands are refused, then twice the last rate under both (the saturation rate)",
    )
    parser.add_argument("--step", type=float, default=10.0, help="rate step of --sweep")
    parser.add_argument(
        "--sweep-duration",
        type=float,
        default=15.0,
        help="seconds of each rate --sweep tries before the run at twice the saturation rate "
        "(which lasts --duration)",
    )
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
