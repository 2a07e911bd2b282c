"""``python -m bot`` stops cleanly on SIGINT and SIGTERM while games and computers are playing."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.e2e.harness import CHANNEL, GUILD, HOST, TIMEOUT, Env, make_double, run
from tests.e2e.test_process import _spawn, output, reaped

GAMES = 3


async def _load(env: Env) -> list[asyncio.Task[object]]:
    """Games with computer seats under way, and commands in flight in each thread."""
    tables = [await env.start_game(HOST, computers=2) for _ in range(GAMES)]
    commands: list[asyncio.Task[object]] = []
    for table in tables:
        for typed in ("", "f", "buy"):
            commands.append(asyncio.create_task(env.choices(HOST, table.id, typed)))
        commands.append(asyncio.create_task(env.play(HOST, table.id, "end")))
    return commands


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_python_m_bot_stops_under_load_with_exit_code_0(
    tmp_path: Path, number: signal.Signals
) -> None:
    """The signal arrives while computer turns run and commands are in flight: exit code 0."""

    async def body() -> None:
        async with make_double() as double:
            env = Env(double, tmp_path / "himiko.sqlite3")  # the users' side only: no bot in it
            async with reaped(await _spawn(double, tmp_path, double.token)) as process:
                await double.wait_for_commands(GUILD, 30)
                await double.wait_ready(TIMEOUT)
                commands = await _load(env)
                process.send_signal(number)
                log = await output(process)
            for command in commands:  # answered or not: the bot went away under them
                command.cancel()
            await asyncio.gather(*commands, return_exceptions=True)
            assert process.returncode == 0, log
            assert "stopping: a stop signal arrived" in log
            assert "Traceback" not in log and " ERROR " not in log, log
            assert double.token not in log
            assert any(t.parent_id == CHANNEL for t in double.threads())

    run(body, timeout=120)
