"""The web pages served by the bot itself: WEB_* settings, started and stopped with the bot, a
game played on the Discord double shown as the engine replays its stored actions."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import socket
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.service import Rooms, build_rooms
from bot.settings import Settings, SettingsError, load_settings
from bot.web import links, work
from bot.web.config import WebConfig
from bot.web.hosting import start_web, stop_web
from engine import games
from tests.e2e.harness import GUEST, HOST, Env, himiko_env, run

from .support import store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

SECRET = "e2e-secret-of-some-length"
ROOT = Path(__file__).resolve().parents[2]


def test_web_settings_from_the_environment() -> None:
    base = {"DISCORD_TOKEN": "t"}
    assert load_settings(base, env_file=None).web is None
    settings = load_settings({**base, "WEB_PORT": "8080", "WEB_SECRET": SECRET}, env_file=None)
    assert settings.web == WebConfig(8080, SECRET)
    with pytest.raises(SettingsError, match="WEB_SECRET is not"):
        load_settings({**base, "WEB_PORT": "8080"}, env_file=None)


def test_web_port_without_a_secret_stops_python_m_bot_with_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "WEB_"))}
    env.update(DISCORD_TOKEN="token", WEB_PORT="8080")
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "WEB_SECRET" in done.stderr
    assert "Traceback" not in done.stderr


def _with_web(env: Env) -> None:
    """The bot's next start reads WEB_PORT (any free port) and WEB_SECRET."""
    plain = env.settings

    def settings() -> Settings:
        return replace(plain(), web=WebConfig(port=0, secret=SECRET))

    env.settings = settings  # type: ignore[method-assign]


def test_a_game_on_the_double_has_its_page_served_by_the_bot(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            assert env.bot.web is None  # no WEB_PORT: no server
            _with_web(env)
            bot = await env.restart()
            assert bot.web is not None and bot.web.port
            table = await env.start_game(HOST, [GUEST])
            for _ in range(3):
                match = await env.match(table.id)
                user = await env.current_user(table.id)
                assert user is not None
                action = match.legal_actions()[0]
                await (await env.play(user, table.id, action)).reply(30)
            game = await env.game(table.id)
            url = bot.web.game_url(game.id)
            async with aiohttp.ClientSession() as client:
                async with client.get(url) as answer:
                    assert answer.status == 200
                    html = await answer.text()
                async with client.get(f"{url}/v/{game.action_count}.png") as answer:
                    assert answer.status == 200
                    assert (await answer.read()).startswith(b"\x89PNG")
            steps = json.loads(re.findall(r'id="steps">(.*?)</script>', html)[0])["steps"]
            assert len(steps) == game.action_count + 1
            stored = [(a.seat, a.notation) for a in await env.bot.repo.load_actions(game.id)]  # type: ignore[union-attr]
            replayed = games.replay(game.game_key, game.players, game.seed, game.options, stored)
            ready = await bot.web.pool.call(work.prepared, game)  # what the page was made of
            assert ready.replay.last.view == replayed.view(None)
            assert url == f"http://127.0.0.1:{bot.web.port}" + links.game_path(SECRET, game.id)
            port = bot.web.port
            await env.stop_bot()
            async with aiohttp.ClientSession() as client:
                with pytest.raises(aiohttp.ClientConnectionError):
                    await client.get(f"http://127.0.0.1:{port}/static/web.css")
            await env.start_bot()  # himiko_env closes a running bot

    run(body, timeout=120)


@dataclass
class _Host:
    """What ``start_web`` reads of the bot."""

    settings: Settings
    repo: Any

    @property
    def rooms(self) -> Rooms:
        """The rooms on the store (a league page's standings)."""
        return build_rooms(self.repo)

    def get_guild(self, id: int, /) -> discord.Guild | None:
        """No server is seen (a league page then reads its ``/server language`` alone)."""
        return None


def test_a_taken_port_is_logged_and_the_bot_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body() -> None:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            async with store_at(tmp_path) as repo:
                web = WebConfig(port=port, secret=SECRET)
                host = _Host(Settings(token="t", web=web), repo)
                assert await start_web(host) is None
                free = _Host(Settings(token="t", web=replace(web, port=0)), repo)
                server = await start_web(free)
                assert server is not None and server.port not in (None, 0, port)
                await stop_web(server)

    with caplog.at_level(logging.ERROR, logger="bot.web.hosting"):
        asyncio.run(body())
    assert "cannot listen on 127.0.0.1:" in caplog.text and "runs without them" in caplog.text
