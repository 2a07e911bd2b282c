"""Backlog benchmark: ``/board`` latency while 300 owed thread messages drain after a start.

    .venv/bin/python benchmarks/backlog.py [--owed 300] [--turns 1] [--slots 2] [--interval 0.25]

An outage left ``--owed`` games owing their latest thread message: each had ``--turns`` turns
played whose message was never posted (``--turns 0``: the opening board is owed), so each needs a
replay, a picture and a post. The bot starts in-process against the Discord double, and its
start-up sweep hands every one to the runner, which works on at most ``--slots`` at once.
Meanwhile a player asks ``/board`` in another game's thread every ``--interval`` seconds until
every owed thread has its message (read from the double, not the database); then the same
``/board`` is timed with no backlog (the floor). Latency is the double's, from the
INTERACTION_CREATE sent to the board's reply there (``reply_latency``). Target: under 1 s while
the backlog drains (the ratio to the floor shows what the backlog costs).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bot.app import create_bot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.store import GameRepository, NewSeat, open_store  # noqa: E402
from engine import games  # noqa: E402
from engine.games import Match, computer_player  # noqa: E402
from tests.discord_double import DiscordDouble, GuildSpec, UserSpec  # noqa: E402

GUILD = 511_000_000_000_000_001
CHANNEL = 511_000_000_000_000_002
HOST = UserSpec(522_000_000_000_000_001, "hana")
GUEST = UserSpec(522_000_000_000_000_002, "kenji")
FLOOR_SAMPLES = 20
TIMEOUT = 30.0


def figures(values: Sequence[float]) -> tuple[float, float, float]:
    """Median, 95th percentile and maximum."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


def played(turns: int) -> tuple[Match, Match]:
    """A new 2-player game and the same game after ``turns`` turns of the greedy player."""
    start = games.new("yamatai", ["Hana", "Kenji"], 1)
    match = games.from_json(start.to_json())
    for _ in range(turns):
        seat = match.current_seat
        assert seat is not None
        while not any(
            e["type"] == "end_turn"
            for e in match.play(computer_player("yamatai")(match.view(seat), 1))
        ):
            pass
    return start, match


async def owe_games(
    repo: GameRepository, double: DiscordDouble, count: int, turns: int
) -> list[int]:
    """``count`` games that owe their latest message, one thread each, then one announced game.

    Each game had ``turns`` turns played (0: it owes its opening) whose message was never posted.
    Returns the threads, the announced game's last.
    """
    start, match = played(turns)
    colours = [str(p["colour"]) for p in start.view(None)["players"]]
    seats = [NewSeat(0, HOST.id, "Hana", colours[0]), NewSeat(1, GUEST.id, "Kenji", colours[1])]
    threads = []
    for index in range(count + 1):
        thread = double.state.create_thread(CHANNEL, {"name": f"g{index}"}, owner_id=double.app_id)
        game = await repo.create_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            thread_id=thread.id,
            game_key="yamatai",
            seed=1,
            options=start.options,
            seats=seats,
            snapshot=start.to_json(),
            current_seat=start.current_seat,
        )
        version = game.version
        if match.log:
            version = await repo.append_actions(
                game.id, version, match.log, match.to_json(), current_seat=match.current_seat
            )
        threads.append(thread.id)
    await repo.mark_announced(game.id, version)  # the last one is where /board is asked
    return threads


async def board(double: DiscordDouble, thread_id: int) -> float:
    """One ``/board``: seconds until its picture is there."""
    rec = await double.slash(HOST, thread_id, "board")
    await rec.reply(TIMEOUT)
    latency = rec.reply_latency
    assert latency is not None
    return latency


async def benchmark(args: argparse.Namespace) -> None:
    """Start the bot on a backlog, time ``/board`` while it drains and after."""
    guild = GuildSpec(GUILD, "Backlog", text_channel_ids=[CHANNEL], members=[HOST, GUEST])
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "himiko.sqlite3"
        async with DiscordDouble(token="backlog", guilds=[guild]) as double:
            repo = await open_store(database)
            *owed, thread_id = await owe_games(repo, double, args.owed, args.turns)
            await repo.close()
            settings = Settings(
                token=double.token,
                database_path=database,
                dev_guild_id=GUILD,
                api_base=double.api_base,
                gateway_url=double.gateway_url,
                computer_pause=0,
            )
            bot = create_bot(settings, guild_ready_timeout=0.05)
            bot.runner.slots = asyncio.Semaphore(args.slots)
            started = time.perf_counter()
            task = asyncio.create_task(bot.start(settings.token))
            try:
                await double.wait_for_commands(GUILD, TIMEOUT)
                await double.wait_ready(TIMEOUT)
                during = []
                while not all(double.messages(t) for t in owed):  # the double's view: no DB
                    during.append(await board(double, thread_id))
                    await asyncio.sleep(args.interval)
                drained = time.perf_counter() - started
                await bot.runner.idle()
                floor = [await board(double, thread_id) for _ in range(FLOOR_SAMPLES)]
            finally:
                await bot.close()
                await asyncio.gather(task, return_exceptions=True)
    report(args, during, floor, drained)


def report(
    args: argparse.Namespace, during: list[float], floor: list[float], drained: float
) -> None:
    """Print the figures."""
    owed = "openings" if args.turns == 0 else f"turn messages (after {args.turns} turn(s))"
    print(f"{args.owed} owed {owed}, {args.slots} runner slots: drained in {drained:.1f} s")
    base = statistics.median(floor)
    for label, values in (("/board during backlog", during), ("/board floor (no backlog)", floor)):
        if not values:
            print(f"{label}: no samples (the backlog drained before the first)")
            continue
        median, p95, most = figures(values)
        print(
            f"{label}: n={len(values)} median={median * 1000:.0f} ms p95={p95 * 1000:.0f} ms "
            f"max={most * 1000:.0f} ms (x{median / base:.2f} / x{p95 / base:.2f} / "
            f"x{most / base:.2f} of the floor median)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--owed", type=int, default=300)
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--turns", type=int, default=1)
    parser.add_argument("--interval", type=float, default=0.25)
    asyncio.run(benchmark(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
