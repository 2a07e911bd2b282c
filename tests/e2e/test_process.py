"""``python -m bot`` itself, as a subprocess configured only through its environment."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import sys
from asyncio.subprocess import Process
from collections.abc import AsyncIterator
from pathlib import Path

from tests.discord_double import DiscordDouble
from tests.e2e.harness import CHANNEL, COMMANDS, GUILD, TIMEOUT, WATCHER, make_double, run

REPO = Path(__file__).resolve().parents[2]


def _environment(double: DiscordDouble, tmp_path: Path, token: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        PYTHONPATH=str(REPO),
        DISCORD_TOKEN=token,
        DATABASE_PATH=str(tmp_path / "himiko.sqlite3"),
        DEV_GUILD_ID=str(GUILD),
        DISCORD_API_BASE=double.api_base,
        DISCORD_GATEWAY_URL=double.gateway_url,
        COMPUTER_PAUSE="0",
        LOG_LEVEL="INFO",
    )
    return env


async def _spawn(
    double: DiscordDouble,
    tmp_path: Path,
    token: str,
    *,
    extra: dict[str, str] | None = None,
    open_files: int | None = None,
) -> Process:
    """``python -m bot`` (``extra`` settings; ``open_files``: its soft limit of open files)."""

    def limit_files() -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files or hard, hard))

    # cwd is tmp_path so that no .env of the developer's is read
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env={**_environment(double, tmp_path, token), **(extra or {})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=limit_files if open_files is not None else None,
    )


@contextlib.asynccontextmanager
async def reaped(process: Process) -> AsyncIterator[Process]:
    """``process``; killed and reaped at the end if it still runs (a test that failed)."""
    try:
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


#: Seconds a stopped process may take to exit: only a bound for a broken test (the bot itself
#: closes within STOP_TIMEOUT, 10 s, then gives its threads 2 s), never what is asserted.
EXIT_BOUND = 30.0


async def output(process: Process, timeout: float = EXIT_BOUND) -> str:
    """What the process wrote (stderr, then stdout) by the time it ended."""
    out, err = await asyncio.wait_for(process.communicate(), timeout)
    return err.decode() + out.decode()


def test_python_m_bot_logs_in_syncs_answers_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    """The real entry point: settings from the environment, sync, a command, exit code 0."""

    async def body() -> None:
        async with make_double() as double:
            async with reaped(await _spawn(double, tmp_path, double.token)) as process:
                synced = await double.wait_for_commands(GUILD, 30)
                assert sorted(c["name"] for c in synced) == sorted(COMMANDS)
                await double.wait_ready(TIMEOUT)
                rec = await double.slash(WATCHER, CHANNEL, "games")
                reply = await rec.reply(TIMEOUT)
                assert reply.ephemeral and "No game is being played here yet." in reply.text()
                process.send_signal(signal.SIGINT)
                log = await output(process)
            assert process.returncode == 0, log
            assert f"synced {len(COMMANDS)} slash commands guild" in log
            assert "event loop: uvloop" in log, log  # D135: installed with the bot (not Windows)
            assert double.token not in log
            assert "Traceback" not in log and " ERROR " not in log, log
            assert "WARNING" not in log and "voice" not in log, log  # a normal start is quiet
            assert double.unexpected_requests == []
            assert (tmp_path / "himiko.sqlite3").is_file()

    run(body)


def test_python_m_bot_with_a_rejected_token_exits_3(tmp_path: Path) -> None:
    """A token the gateway refuses: a one-line message and exit code 3, no traceback."""

    async def body() -> None:
        async with make_double() as double:
            process = await _spawn(double, tmp_path, "not-the-token")
            out, err = await asyncio.wait_for(process.communicate(), 30)
            assert process.returncode == 3, err.decode()
            assert "Discord rejected DISCORD_TOKEN" in err.decode()
            assert "Traceback" not in err.decode() + out.decode()
            assert "not-the-token" not in err.decode() + out.decode()

    run(body)
