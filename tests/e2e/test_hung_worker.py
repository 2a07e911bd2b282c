"""Issue 35 item 2 against ``python -m bot`` itself: the think worker stops answering (SIGSTOP)
while a computer seat is to play. The pool counts it as dead once it has been silent for
THINK_PATIENCE_S (here 1 s, D150, D294): its workers are killed, the computer's turn is decided once
more, played and posted exactly once, and the next computer turn goes to a new worker.

The process runs one think worker (``THINK_PROCESSES=1``) and draws its pictures in a thread
(``RENDER_PROCESSES=0``), so its only worker processes are the think pool's: its children
started by ``multiprocessing``'s spawn.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.service.results import COMPUTER_USER_ID
from bot.service.thinking import computer_moves
from bot.store import Game
from bot.store.verify import verify_database
from engine import games
from tests.backends import database
from tests.discord_double import DiscordDouble
from tests.e2e.harness import HOST, TIMEOUT, Env, Table, make_double, run
from tests.e2e.test_kill_pictures import Bot, answered, match_of, stored
from tests.e2e.test_play import rest_of_turn
from tests.waiting import eventually, found

pytestmark = [
    pytest.mark.usefixtures("backend"),
    pytest.mark.sqlite_only,  # the think pool's behaviour, not the store's
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGSTOP, /proc"),
]

#: THINK_PATIENCE_S of the process under test (the default is 15 s): the computer here plays at
#: the normal level, a greedy choice of a few milliseconds followed by a sign of life, so the
#: new worker is never silent for a second while it plays
PATIENCE = "1"
HUNG = "think pool: a worker gave no sign of life"


class ThinkingBot(Bot):
    """``python -m bot`` with one think worker, silent for 1 s at most."""

    def environment(self) -> dict[str, str]:
        """The test's settings, one think worker and its patience."""
        env = super().environment()
        env.update(THINK_PROCESSES="1", THINK_PATIENCE_S=PATIENCE)
        return env


def workers_of(parent: int) -> set[int]:
    """The spawned worker processes of ``parent`` still running (not the resource tracker)."""
    found: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
            if int(fields[1]) == parent and fields[0] not in "ZX" and b"spawn_main" in command:
                found.add(int(entry))
    return found


def state_of(pid: int) -> str | None:
    """A process's state letter ("T": stopped), None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return None


def computer_batch(game: Game, since: int) -> list[tuple[int, str]]:
    """The moves the computer seats make from the ``since``-th action of the stored game on,
    decided again here (the lobby's normal level decides by the seed alone)."""
    final = match_of(game)
    match = games.new(final.game_key, final.players, final.seed, final.options)
    for seat, action in final.log[:since]:
        match.play(action, seat=seat)
    levels = {s.seat: game.computer_level for s in game.seats if s.user_id == COMPUTER_USER_ID}
    return computer_moves(match.to_json(), levels, game.seed)


def turn_messages(bot: Bot, table: Table) -> list[int]:
    """The bot's public messages in the thread (the opening and one per turn), oldest first."""
    double = bot.double
    public = double.messages(table.id, include_ephemeral=False)
    return [m.id for m in public if m.author_id == double.app_id]


async def human_turn(bot: Bot, table: Table) -> int:
    """The host plays a whole turn; how many actions the log held after it."""
    game = await stored(bot.target, table.id)
    actions = rest_of_turn(match_of(game))
    for action in actions:
        await answered(await Env(bot.double, bot.target).play(HOST, table.id, action), action)
    return game.action_count + len(actions)


async def computer_turn_over(bot: Bot, table: Table) -> Game:
    """Wait until the computer has played, the host is to play and the turn is posted."""

    async def over() -> Game | None:
        game = await stored(bot.target, table.id)
        posted = game.current_user_id == HOST.id and game.announced_version == game.version
        return game if posted else None

    # a bound, not a speed: the turn comes 1 s after the silence
    return await found(over, "the computer's turn played and posted", 30, step=0.05)


@asynccontextmanager
async def thinking_bot(tmp_path: Path) -> AsyncIterator[tuple[DiscordDouble, Bot]]:
    """The double and a ``ThinkingBot``; whatever happens, no process is left running."""
    async with make_double() as double:
        bot = ThinkingBot(double, tmp_path, database(tmp_path, "himiko.sqlite3"))
        try:
            await bot.start("first")
            yield double, bot
        finally:
            await bot.kill()


def test_a_stopped_think_worker_costs_one_retry_and_the_computer_plays_each_turn_once(
    tmp_path: Path,
) -> None:
    """The think worker is stopped before the host and the computer sit down. The computer's
    first turn is played once (the moves its level makes, once, one turn message) after the
    worker's 1 s of silence; the stopped worker is killed and a new one started; the
    computer's next turn is played once too, by the new worker, without another hang."""

    async def body() -> None:
        stopped: set[int] = set()
        try:
            async with thinking_bot(tmp_path) as (double, bot):
                process = bot.process
                assert process is not None
                [worker] = workers_of(process.pid)
                assert f"think pool: 1 workers ready (pids [{worker}])" in bot.log("first")
                os.kill(worker, signal.SIGSTOP)
                stopped.add(worker)
                await eventually(lambda: state_of(worker) == "T", "the worker stopped")

                table = await Env(double, bot.target).start_game(HOST, computers=1)
                first = await stored(bot.target, table.id)
                posted = len(turn_messages(bot, table))  # the opening
                since, turns = 0, 1  # the computer's turn, posted once
                if first.current_user_id == HOST.id:  # the host begins: their turn first
                    since, turns = await human_turn(bot, table), 2
                game = await computer_turn_over(bot, table)
                moves = match_of(game).log[since:]
                assert moves and moves == computer_batch(game, since)  # decided once, played once
                assert game.action_count == since + len(moves)
                assert len(turn_messages(bot, table)) == posted + turns  # posted, recorded, once
                assert bot.log("first").count(HUNG) == 1
                await eventually(lambda: state_of(worker) is None, "the stopped worker killed")
                await eventually(lambda: len(workers_of(process.pid)) == 1, "a new worker", TIMEOUT)
                [fresh] = workers_of(process.pid)
                assert fresh != worker

                posted = len(turn_messages(bot, table))
                since = await human_turn(bot, table)  # and a later computer turn
                game = await computer_turn_over(bot, table)
                moves = match_of(game).log[since:]
                assert moves and moves == computer_batch(game, since)
                assert game.action_count == since + len(moves)
                assert len(turn_messages(bot, table)) == posted + 2  # the host's, the computer's
                assert workers_of(process.pid) == {fresh}  # the new worker played it
                assert bot.log("first").count(HUNG) == 1  # without another hang
                assert "a worker died" not in bot.log("first")
                await bot.kill()
        finally:
            for pid in stopped:  # whatever happened, no stopped process is left behind
                for sig in (signal.SIGCONT, signal.SIGKILL):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, sig)
        log = bot.log("first")
        assert "Traceback" not in log and " ERROR " not in log, log
        report = await verify_database(bot.target)
        assert report.ok and report.checked == 1, report.problems

    run(body, timeout=120)
