"""Bot benchmark: interaction-to-reply times with many games played at once, through the double.

    .venv/bin/python benchmarks/bot.py [--games 20] [--turns 0] [--think 2.0] [--seed 1]
                                       [--random] [--in-process]

The Discord double (tests/discord_double) serves REST and the gateway on 127.0.0.1. The bot is
started exactly as in production: ``python -m bot`` in a subprocess configured through its
environment (``--in-process``: ``create_bot`` + ``start`` in this process's event loop, which
then also runs the double and the simulated users). Each of ``--games`` games has its own
thread and two human players; each game is driven by its own task that, like a player, waits a
think time (uniform 0..2x ``--think`` seconds), asks ``/play``'s autocomplete for the player to
act and plays its first suggestion (``--random``: a seeded random one) with ``/play``, until
the game ends (or has had ``--turns`` completed turns). Playing the first suggestion, a 2-player
game ends after about 120 actions and 16-20 turns (a boat type runs out), so the default run
takes about 5 minutes; ``--think 1`` doubles the load.

Timing comes from the double (``time.perf_counter()`` just before the INTERACTION_CREATE is
sent on the gateway, then the time the bot's answers arrived):

- single action: a ``/play`` that does not end the turn, until its ephemeral reply with the
  player's board picture is there (``InteractionRecord.reply_latency``);
- completed turn with picture: a ``/play`` that ends the turn, until the thread's turn message
  with the board PNG is posted (the bot posts it before the player's ephemeral reply);
- autocomplete: until the choices are answered (``first_response_latency``).

Targets (issue 16, 2-core development machine, with the bot's default RENDER_PROCESSES): at 50
games at once, 95th percentile at most 250 ms for a completed turn with its picture and at most
50 ms for autocomplete. ``--render-processes N`` sets the bot's RENDER_PROCESSES (0: a thread).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

# This file is named like the package it measures: keep its folder off the import path and
# put the repository root first (``import bot`` must find the package, not this script).
_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from tests.discord_double import (  # noqa: E402
    DiscordDouble,
    GuildSpec,
    MessageRecord,
    UserSpec,
)

GUILD = 411_000_000_000_000_001
CHANNEL = 411_000_000_000_000_002
HOST_BASE = 422_000_000_000_000_000
GUEST_BASE = 433_000_000_000_000_000
TOKEN = "benchmark-token"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TIMEOUT = 120.0


@dataclass
class Samples:
    """Latencies in seconds, by kind."""

    single: list[float] = field(default_factory=list)
    turn: list[float] = field(default_factory=list)
    turn_reply: list[float] = field(default_factory=list)
    autocomplete: list[float] = field(default_factory=list)
    ack: list[float] = field(default_factory=list)


def has_png(message: MessageRecord) -> bool:
    """Whether a message carries a PNG picture."""
    return any(a.data.startswith(PNG_MAGIC) for a in message.attachments)


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (``fraction`` in 0..1)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def line(label: str, values: Sequence[float]) -> str:
    """``label: median X ms, p95 Y ms (N)``."""
    if not values:
        return f"{label}: no samples"
    median = statistics.median(values) * 1000
    p95 = percentile(values, 0.95) * 1000
    worst = max(values) * 1000
    return f"{label}: median {median:.0f} ms, p95 {p95:.0f} ms, max {worst:.0f} ms ({len(values)})"


def make_double(games: int) -> tuple[DiscordDouble, list[tuple[UserSpec, UserSpec]]]:
    """A double with one server, one channel and two members per game."""
    pairs = [
        (UserSpec(HOST_BASE + i, f"host{i}"), UserSpec(GUEST_BASE + i, f"guest{i}"))
        for i in range(games)
    ]
    members = [u for pair in pairs for u in pair]
    guild = GuildSpec(GUILD, "Benchmark", text_channel_ids=[CHANNEL], members=members)
    return DiscordDouble(token=TOKEN, guilds=[guild]), pairs


# -- the bot, in a subprocess (default) or in this process -------------------------------------


@contextlib.asynccontextmanager
async def bot_subprocess(
    double: DiscordDouble, workdir: Path, processes: int | None
) -> AsyncIterator[None]:
    """``python -m bot`` with its settings in the environment; Ctrl-C (SIGINT) at the end."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(
        PYTHONPATH=str(_ROOT),
        DISCORD_TOKEN=double.token,
        DATABASE_PATH=str(workdir / "himiko.sqlite3"),
        DEV_GUILD_ID=str(GUILD),
        DISCORD_API_BASE=double.api_base,
        DISCORD_GATEWAY_URL=double.gateway_url,
        COMPUTER_PAUSE="0",
        LOG_LEVEL="WARNING",
    )
    if processes is not None:
        env["RENDER_PROCESSES"] = str(processes)
    log_path = workdir / "bot.log"
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=workdir, env=env, stdout=log, stderr=log
        )
        try:
            await double.wait_for_commands(GUILD, 60)
            await double.wait_ready(60)
            yield
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
                try:
                    await asyncio.wait_for(process.wait(), 20)
                except TimeoutError:
                    process.kill()
                    await process.wait()
    text = log_path.read_text(errors="replace").strip()
    if process.returncode != 0 or "ERROR" in text or "Traceback" in text:
        print(f"bot exited with {process.returncode}; its log:\n{text}", file=sys.stderr)


@contextlib.asynccontextmanager
async def bot_in_process(
    double: DiscordDouble, workdir: Path, processes: int | None
) -> AsyncIterator[None]:
    """``create_bot`` + ``start`` on this event loop, as the end-to-end tests do."""
    from bot.app import create_bot
    from bot.settings import Settings
    from bot.workers.render_pool import default_processes

    settings = Settings(
        token=double.token,
        database_path=workdir / "himiko.sqlite3",
        dev_guild_id=GUILD,
        api_base=double.api_base,
        gateway_url=double.gateway_url,
        computer_pause=0,
        render_processes=default_processes() if processes is None else processes,
    )
    himiko = create_bot(settings, guild_ready_timeout=0.05)
    task = asyncio.create_task(himiko.start(settings.token))
    try:
        await asyncio.wait_for(himiko.wait_until_ready(), 60)
        await double.wait_ready(60)
        yield
    finally:
        await himiko.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, 20)


# -- simulated players --------------------------------------------------------------------------


@dataclass
class Game:
    """One game being driven: its thread and who is to act."""

    thread_id: int
    current: int | None
    players: tuple[UserSpec, UserSpec]


async def open_game(double: DiscordDouble, host: UserSpec, guest: UserSpec) -> Game:
    """``/new``, Join, Start; return the thread and the player who starts."""
    rec = await double.slash(host, CHANNEL, "new", {"game": "yamatai", "seats": 2})
    lobby = await rec.reply(TIMEOUT)
    join = next(c for c in lobby.custom_ids() if c.startswith("himiko:lobby:join:"))
    await (await double.click(guest, CHANNEL, lobby.id, join)).response(TIMEOUT)
    lobby = double.message(lobby.id)
    start = next(c for c in lobby.custom_ids() if c.startswith("himiko:lobby:start:"))
    click = await double.click(host, CHANNEL, lobby.id, start)
    await click.wait_event("edit_original", TIMEOUT)
    thread = await double.wait_for_thread(CHANNEL, lambda t: t.id == lobby.id, TIMEOUT)
    opening = await double.wait_for_message(thread.id, has_png, TIMEOUT)
    pinged = [u for u in (host.id, guest.id) if f"<@{u}> plays first" in opening.text()]
    return Game(thread.id, pinged[0] if pinged else None, (host, guest))


async def drive(
    double: DiscordDouble,
    game: Game,
    samples: Samples,
    rng: random.Random,
    args: argparse.Namespace,
) -> int:
    """Play the game until it had ``args.turns`` completed turns; return the actions played."""
    completed = actions = 0
    while (args.turns == 0 or completed < args.turns) and game.current is not None:
        if args.think > 0:
            await asyncio.sleep(rng.uniform(0, 2 * args.think))
        user = game.current
        typed = await double.autocomplete_interaction(
            user, game.thread_id, "play", {"action": ""}, focused="action"
        )
        response = await typed.response(TIMEOUT)
        choices = [str(c["value"]) for c in response.data.get("choices", [])]
        if not choices:
            raise RuntimeError(f"no suggestion for the player to act in {game.thread_id}")
        _record(samples.autocomplete, typed.first_response_latency)
        action = rng.choice(choices) if args.random else choices[0]
        posted = len(double.messages(game.thread_id, include_ephemeral=False))
        rec = await double.slash(user, game.thread_id, "play", {"action": action})
        reply = await rec.reply(TIMEOUT)
        actions += 1
        if not reply.content.startswith("Played"):
            raise RuntimeError(f"/play {action!r} was refused: {reply.content}")
        _record(samples.ack, rec.first_response_latency)
        new = double.messages(game.thread_id, include_ephemeral=False)[posted:]
        if not new:  # the turn goes on: the reply's picture follows by an edit (D100)
            if has_png(reply):
                _record(samples.single, rec.reply_latency)
                continue
            edit = await rec.wait_event("edit_original", TIMEOUT)
            shown = rec.original()
            if shown is None or not has_png(shown):
                raise RuntimeError(f"no picture in the reply to {action!r}")
            samples.single.append(edit.at - rec.dispatched_at)
            continue
        [turn] = new
        completed += 1
        if not has_png(turn):  # posted in words; its picture follows by an edit (D89)
            turn = await double.wait_for_message(
                game.thread_id, lambda m, posted=turn.id: m.id == posted and has_png(m), TIMEOUT
            )
            samples.turn.append(time.perf_counter() - rec.dispatched_at)
        else:
            samples.turn.append(turn.created_at - rec.dispatched_at)
        _record(samples.turn_reply, rec.reply_latency)
        # the next player is pinged with "your turn"; the final message pings everyone
        pinged = [u for u in turn.pinged_user_ids() if f"<@{u}>, your turn" in turn.text()]
        game.current = pinged[0] if pinged else None
    return actions


def _record(into: list[float], value: float | None) -> None:
    if value is None:
        raise RuntimeError("an interaction was not answered")
    into.append(value)


async def benchmark(args: argparse.Namespace) -> Samples:
    """Start the double and the bot, open the games, drive them all at once."""
    double, pairs = make_double(args.games)
    samples = Samples()
    await double.start()
    try:
        with tempfile.TemporaryDirectory(prefix="himiko-bench-") as tmp:
            runner = bot_in_process if args.in_process else bot_subprocess
            async with runner(double, Path(tmp), args.render_processes):
                started = time.perf_counter()
                tables = [await open_game(double, host, guest) for host, guest in pairs]
                opened = time.perf_counter() - started
                print(f"opened {len(tables)} games in {opened:.1f} s (lobby, join, start)")
                rngs = [random.Random(args.seed * 1000 + i) for i in range(len(tables))]
                started = time.perf_counter()
                counts = await asyncio.gather(
                    *(drive(double, t, samples, r, args) for t, r in zip(tables, rngs, strict=True))
                )
                spent = time.perf_counter() - started
                played = sum(counts)
                print(
                    f"played {played} actions ({len(samples.turn)} completed turns) in "
                    f"{spent:.1f} s: {played / spent:.1f} /play per second, plus as many "
                    "autocompletes"
                )
            unexpected = double.unexpected_requests
            if unexpected:
                print(f"unexpected requests: {[(r.method, r.path) for r in unexpected]}")
    finally:
        await double.stop()
    return samples


def picture_floor(runs: int = 15) -> float:
    """Median seconds to draw a mid-game 2-player board here: no completed turn is faster."""
    from bot.service.pictures import render_picture
    from engine import games

    match = games.new("yamatai", ["Ann", "Bo"], seed=1)
    choose = games.computer_player("yamatai")
    for step in range(60):
        seat = match.current_seat
        if seat is None:
            break
        match.play(choose(match.view(seat), step), seat=seat)
    view = match.view(None)
    render_picture(view, None)  # warm: fonts, static layer, palette
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        render_picture(view, None)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="games played at once")
    parser.add_argument(
        "--turns", type=int, default=0, help="completed turns per game (0: play to the end)"
    )
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean think time in seconds before each action"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random", action="store_true", help="a random suggestion, not the first")
    parser.add_argument("--in-process", action="store_true", help="run the bot in this process")
    parser.add_argument(
        "--render-processes", type=int, help="the bot's RENDER_PROCESSES (default: its own)"
    )
    args = parser.parse_args(argv)
    mode = "in this process" if args.in_process else "python -m bot subprocess"
    turns = f"{args.turns} completed turns" if args.turns else "to the end"
    print(
        f"{args.games} games at once, 2 players each, played {turns}, "
        f"think time 0-{2 * args.think:g} s, bot: {mode}, {os.cpu_count()} CPUs"
    )
    floor = picture_floor()
    samples = asyncio.run(benchmark(args))
    print(line("single action", samples.single))
    print(line("completed turn with picture", samples.turn))
    print(line("  (its ephemeral reply)", samples.turn_reply))
    print(line("autocomplete", samples.autocomplete))
    print(line("first response (defer) of /play", samples.ack))
    print(f"floor: one board picture drawn in this process, median {floor * 1000:.0f} ms")
    if samples.turn:
        ratio = percentile(samples.turn, 0.95) / floor
        print(f"completed turn with picture p95 / floor: {ratio:.1f}x")
    for label, values, target in (
        ("a completed turn with picture", samples.turn, 250),
        ("autocomplete", samples.autocomplete, 50),
    ):
        if values:
            p95 = percentile(values, 0.95) * 1000
            verdict = "met" if p95 <= target else "NOT met"
            print(f"target p95 <= {target} ms for {label}: {verdict} ({p95:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
