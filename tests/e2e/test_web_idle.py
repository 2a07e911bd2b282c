"""1,100 half-sent requests on the web port do not take the Discord side down (issue 35
item 3): ``python -m bot`` itself, with systemd's default soft limit of 1,024 open files.

Before the bound (D146) the process' files ran out: a player's turn-ending ``/play`` was saved
but its answer failed ("something went wrong while showing it"), the turn message needing
sockets the process could no longer open; and the half-sent requests were kept for an hour.
"""

from __future__ import annotations

import asyncio
import resource
import signal
import socket
import sys
from pathlib import Path

import pytest

from bot.store import is_url
from tests.backends import database
from tests.discord_double import DiscordDouble
from tests.e2e.harness import GUEST, GUILD, HOST, TIMEOUT, Env, make_double, run
from tests.e2e.test_kill_pictures import match_of, player_of, stored
from tests.e2e.test_play import rest_of_turn
from tests.e2e.test_process import _environment, output, reaped

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

IDLE = 1_100  # connections that never finish their request
OPEN_FILES = 1_024  # systemd's default soft limit (LimitNOFILE=1024:524288)
SECRET = "an-unguessable-secret-for-the-test"
#: The server's time for a request to arrive whole (WEB_REQUEST_TIMEOUT_S; 10 s by default):
#: half the default, still ten times what the whole turn played meanwhile takes (about 0.5 s on a
#: loaded two-core machine), so that the half-sent requests are held throughout the turn; the
#: test then waits this long for them to be closed (D236).
REQUEST_TIMEOUT = 5.0
#: Beyond the server's REQUEST_TIMEOUT, time for a loaded machine to get round to closing them.
LEEWAY = 15.0

Held = tuple[asyncio.StreamReader, asyncio.StreamWriter]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _half_sent(port: int) -> Held | None:
    """A connection that sends half a request and waits (None: refused at once)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return None
    writer.write(b"GET /g/1/aaaa HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return reader, writer


async def _end(reader: asyncio.StreamReader) -> bytes:
    """What the server sent before it closed the connection (b"" if it reset it: a connection
    closed with its half request unread is reset by the kernel)."""
    try:
        return await reader.read()
    except ConnectionResetError:
        return b""


def _limit_files() -> None:
    """In the child: systemd's default soft limit of open files."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, hard))


async def _spawn(double: DiscordDouble, tmp_path: Path, port: int) -> asyncio.subprocess.Process:
    """``python -m bot`` on the test's database, its web pages on ``port``."""
    env = _environment(double, tmp_path, double.token)
    target = database(tmp_path, "himiko.sqlite3")
    if is_url(target):
        del env["DATABASE_PATH"]
        env["DATABASE_URL"] = str(target)
    env.update(WEB_PORT=str(port), WEB_SECRET=SECRET, WEB_REQUEST_TIMEOUT_S=str(REQUEST_TIMEOUT))
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,  # no .env of the developer's is read
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=_limit_files,
    )


def test_idle_web_connections_leave_play_answered_and_are_closed(tmp_path: Path) -> None:
    async def body() -> None:
        port = _free_port()
        target = database(tmp_path, "himiko.sqlite3")
        async with make_double() as double:
            env = Env(double, target)  # the users' side only: the bot is the process
            held: list[Held | None] = []
            async with reaped(await _spawn(double, tmp_path, port)) as process:
                try:
                    await double.wait_for_commands(GUILD, 30)
                    await double.wait_ready(TIMEOUT)
                    table = await env.start_game(HOST, [GUEST])
                    player = await player_of(target, table)
                    actions = rest_of_turn(match_of(await stored(target, table.id)))
                    loop = asyncio.get_running_loop()
                    held = list(await asyncio.gather(*(_half_sent(port) for _ in range(IDLE))))
                    opened = loop.time()
                    # a whole turn: its last action posts the turn message, which needs sockets
                    for action in actions:
                        reply = await (await env.play(player, table.id, action)).reply(TIMEOUT)
                        assert f"`{action}`" in reply.content, reply.content
                    assert (await stored(target, table.id)).current_user_id != player.id
                    # the server closes every one of them, within its time for a request
                    open_ones = [h for h in held if h is not None]
                    left = opened + REQUEST_TIMEOUT + LEEWAY - loop.time()
                    ends = await asyncio.wait_for(
                        asyncio.gather(*(_end(r) for r, _ in open_ones)), max(left, 0.1)
                    )
                    assert all(e == b"" or e.startswith(b"HTTP/1.1 503") for e in ends)
                    process.send_signal(signal.SIGINT)
                    log = await output(process)
                finally:
                    for h in held:
                        if h is not None:
                            h[1].close()
            assert process.returncode == 0, log
            assert "Too many open files" not in log and "Traceback" not in log, log

    run(body, timeout=180)
