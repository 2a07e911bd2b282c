"""1,100 half-sent requests on the web port do not take the Discord side down (issue 35
item 3): ``python -m bot`` itself, with systemd's default soft limit of 1,024 open files."""

from __future__ import annotations

import asyncio
import signal
import socket
from pathlib import Path

from tests.e2e.harness import GUILD, HOST, TIMEOUT, Env, make_double, run
from tests.e2e.test_process import _spawn

IDLE = 1_100  # connections that never finish their request
OPEN_FILES = 1_024  # systemd's default soft limit (LimitNOFILE=1024:524288)
SECRET = "an-unguessable-secret-for-the-test"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _half_sent(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection that sends half a request and waits (None: refused at once)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return None
    writer.write(b"GET /g/1/aaaa HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return reader, writer


def test_idle_web_connections_leave_play_answered_and_are_closed(tmp_path: Path) -> None:
    async def body() -> None:
        port = _free_port()
        async with make_double() as double:
            env = Env(double, tmp_path / "himiko.sqlite3")  # the users' side only: no bot in it
            settings = {"WEB_PORT": str(port), "WEB_SECRET": SECRET}
            process = await _spawn(
                double, tmp_path, double.token, extra=settings, open_files=OPEN_FILES
            )
            held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter] | None] = []
            try:
                await double.wait_for_commands(GUILD, 30)
                await double.wait_ready(TIMEOUT)
                table = await env.start_game(HOST, computers=1)
                held = list(await asyncio.gather(*(_half_sent(port) for _ in range(IDLE))))
                action = (await env.choices(HOST, table.id, ""))[0]
                reply = await (await env.play(HOST, table.id, action)).reply(TIMEOUT)
                assert reply.content and "Something went wrong" not in reply.content
                # the server closes every one of them: none is held for ever
                open_ones = [h for h in held if h is not None]
                ends = await asyncio.wait_for(asyncio.gather(*(r.read() for r, _ in open_ones)), 60)
                assert all(e == b"" or e.startswith(b"HTTP/1.1 503") for e in ends)
                process.send_signal(signal.SIGINT)
                out, err = await asyncio.wait_for(process.communicate(), 30)
            finally:
                for h in held:
                    if h is not None:
                        h[1].close()
                if process.returncode is None:
                    process.kill()
                    await process.wait()
            log = err.decode() + out.decode()
            assert process.returncode == 0, log
            assert "Too many open files" not in log and "Traceback" not in log, log

    run(body, timeout=180)
