"""``python -m bot`` with the operations settings (issue 40 items 3, 6, 7): systemd's
notifications and watchdog on a real unix datagram socket, the health server of the process,
and a wrong value (a port in use, a bad LOG_FORMAT) as one line and exit code 2."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp

from tests.discord_double import DiscordDouble
from tests.e2e.harness import CHANNEL, GUILD, TIMEOUT, WATCHER, make_double, run
from tests.e2e.test_process import REPO, output, reaped
from tests.waiting import eventually, found


def environment(tmp_path: Path, double: DiscordDouble | None, **extra: str) -> dict[str, str]:
    """The bot's environment: the double's addresses, a SQLite file, and ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DEV_GUILD", "METRICS_", "LOG_", "SENTRY_", "NOTIFY_"))
        and not k.startswith("WATCHDOG_")
    }
    env.update(
        PYTHONPATH=str(REPO),
        DISCORD_TOKEN=double.token if double is not None else "unused-token",
        DATABASE_PATH=str(tmp_path / "himiko.sqlite3"),
        DEV_GUILD_ID=str(GUILD),
        COMPUTER_PAUSE="0",
        LOG_LEVEL="INFO",
    )
    if double is not None:
        env.update(DISCORD_API_BASE=double.api_base, DISCORD_GATEWAY_URL=double.gateway_url)
    env.update(extra)
    return env


async def spawn(tmp_path: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    """``python -m bot`` in ``tmp_path`` (no developer's .env is read)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def datagram(sock: socket.socket) -> str:
    """The next notification on the socket."""
    data = await asyncio.get_running_loop().sock_recv(sock, 4096)
    return data.decode()


async def listen(sock: socket.socket, seen: list[str]) -> None:
    """Read every notification into ``seen`` until cancelled, as systemd reads its socket all
    along: a datagram socket left unread holds only a few (10 on Linux), and the bot's next
    ping then waits for room (a slow stop under load had not ended 30 s after SIGINT)."""
    while True:
        seen.append(await datagram(sock))


def test_systemd_gets_ready_watchdog_pings_and_stopping_and_health_answers(
    tmp_path: Path,
) -> None:
    """Type=notify with WatchdogSec=: READY=1 once connected, WATCHDOG=1 again and again from
    the running loop, STOPPING=1 on SIGINT; /healthz and /readyz of the real process."""

    async def body() -> None:
        path = tmp_path / "notify.sock"
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(str(path))
            sock.setblocking(False)
            port = free_port()
            async with make_double() as double:
                env = environment(
                    tmp_path,
                    double,
                    NOTIFY_SOCKET=str(path),
                    WATCHDOG_USEC="200000",  # 0.2 s: a ping every 0.1 s
                    METRICS_PORT=str(port),
                )
                seen: list[str] = []
                listening = asyncio.create_task(listen(sock, seen))
                try:
                    async with reaped(await spawn(tmp_path, env)) as process:
                        await eventually(
                            lambda: "READY=1" in seen and seen.count("WATCHDOG=1") >= 3,
                            "READY=1 and three watchdog pings",
                            60,  # a bound for a broken test: the process starts, connects, pings
                        )
                        await double.wait_ready(TIMEOUT)
                        async with aiohttp.ClientSession() as session:
                            base = f"http://127.0.0.1:{port}"
                            async with session.get(f"{base}/healthz") as response:
                                assert response.status == 200

                            async def ready() -> bool | None:
                                async with session.get(f"{base}/readyz") as response:
                                    return response.status == 200 or None

                            # ready once the workers answered too
                            await found(ready, "/readyz answering 200", TIMEOUT, step=0.05)
                        rec = await double.slash(WATCHER, CHANNEL, "games")
                        await rec.reply(TIMEOUT)
                        process.send_signal(signal.SIGINT)
                        await eventually(lambda: "STOPPING=1" in seen, "STOPPING=1", TIMEOUT)
                        log = await output(process)
                finally:
                    listening.cancel()
        assert process.returncode == 0, log
        assert set(seen) == {"READY=1", "WATCHDOG=1", "STOPPING=1"}, seen
        assert "Traceback" not in log and "WARNING" not in log, log

    run(body, timeout=90)


def test_a_metrics_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    async def body() -> None:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = int(taken.getsockname()[1])
            async with make_double() as double:
                env = environment(tmp_path, double, METRICS_PORT=str(port))
                process = await spawn(tmp_path, env)
                out, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 2, err.decode()
        lines = err.decode().strip().splitlines()
        assert lines[-1].startswith(f"himiko: METRICS_PORT: cannot listen on 127.0.0.1:{port}")
        assert "Traceback" not in err.decode() + out.decode()

    run(body, timeout=90)


def test_a_bad_log_format_is_one_line_and_exit_2(tmp_path: Path) -> None:
    async def body() -> None:
        process = await spawn(tmp_path, environment(tmp_path, None, LOG_FORMAT="xml"))
        out, err = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 2
        assert err.decode() == "himiko: LOG_FORMAT must be text or json, not 'xml'.\n"
        assert out == b""

    run(body)
