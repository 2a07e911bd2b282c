"""The web server's connections are bounded and its parser's refusals are plain (issue 35
items 3 and 12): each aiohttp seam ``bot/web/protocol.py`` relies on is exercised here over a
real socket on 127.0.0.1."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.store import GameRepository
from bot.web import links
from bot.web.config import WebConfig
from bot.web.limits import RateLimit
from bot.web.protocol import SERVER_NAME
from bot.web.server import SECURITY_HEADERS, WebServer
from bot.workers.render_pool import RenderPool

from .support import SECRET, Drawer, played_game, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

BOUND = 10.0  # seconds: only a timeout, never what is asserted
HUGE_PATH = b"GET /g/1/" + b"a" * 9_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
HUGE_HEADER = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 20_000 + b"\r\n\r\n"
NUL_PATH = b"GET /g/\x00evil HTTP/1.1\r\nHost: x\r\n\r\n"


@asynccontextmanager
async def server_on(
    repo: GameRepository, *, cap: int = 256, timeout: float = 10.0
) -> AsyncIterator[WebServer]:
    """The web server with the given connection cap and request time limit."""
    config = WebConfig(port=0, secret=SECRET, max_connections=cap, request_timeout=timeout)
    server = WebServer(config, repo, RenderPool(0, Drawer()), limit=RateLimit(burst=1_000))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def exchange(port: int, request: bytes) -> bytes:
    """Send raw bytes and read the whole answer (the server closes the connection)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), BOUND)
    writer.close()
    return answer


def headers_of(answer: bytes) -> dict[str, str]:
    """An HTTP answer's header fields by lower-case name."""
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in head)}


@pytest.mark.parametrize("request_bytes", [HUGE_PATH, HUGE_HEADER, NUL_PATH])
def test_the_parsers_refusals_are_plain_with_our_headers(
    tmp_path: Path, request_bytes: bytes
) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo, server_on(repo) as server:
            assert server.port is not None
            answer = await exchange(server.port, request_bytes)
        assert answer.split(b" ")[1].startswith(b"4"), answer[:100]
        headers = headers_of(answer)
        for name, value in SECURITY_HEADERS.items():
            assert headers[name.lower()] == value
        assert headers["server"] == SERVER_NAME
        payload = answer.split(b"\r\n\r\n", 1)[1]
        assert b"aaaa" not in payload and b"bbbb" not in payload and b"evil" not in payload
        assert b"aiohttp" not in answer and b"Python" not in answer

    asyncio.run(body())


def test_no_answer_names_the_servers_software(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=1)
            async with server_on(repo) as server:
                assert server.port is not None
                path = links.game_path(SECRET, game_id).encode()
                for address in (path, b"/nothing/here", path + b"/v/0.png"):
                    request = (
                        b"GET " + address + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    )
                    answer = await exchange(server.port, request)
                    assert headers_of(answer)["server"] == SERVER_NAME, answer[:200]

    asyncio.run(body())


def test_a_half_sent_request_and_an_idle_keep_alive_are_closed(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo, server_on(repo, timeout=0.3) as server:
            assert server.port is not None
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /static/web.css HTTP/1.1\r\nHost: x\r\n")  # never finished
            assert await asyncio.wait_for(reader.read(), BOUND) == b""  # closed by the server
            writer.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /static/web.css HTTP/1.1\r\nHost: x\r\n\r\n")  # keep-alive
            answered = await asyncio.wait_for(reader.read(), BOUND)  # then idle: closed
            assert answered.startswith(b"HTTP/1.1 200")
            writer.close()
            assert server.connections.open == 0

    asyncio.run(body())


def test_connections_past_the_cap_are_refused_and_the_others_served(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo, server_on(repo, cap=3) as server:
            assert server.port is not None
            held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(3)]
            for _, writer in held:
                writer.write(b"GET / HTTP/1.1\r\n")  # half-sent: each holds its place
            refused = await exchange(server.port, b"GET /static/web.css HTTP/1.1\r\n\r\n")
            assert refused.startswith(b"HTTP/1.1 503")
            assert server.connections.refused == 1
            held[0][1].close()
            await asyncio.wait_for(held[0][0].read(), BOUND)
            while server.connections.open > 2:
                await asyncio.sleep(0.01)  # the server sees the close
            served = await exchange(
                server.port, b"GET /static/web.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            assert served.startswith(b"HTTP/1.1 200")
            for _, writer in held[1:]:
                writer.close()

    asyncio.run(body())
