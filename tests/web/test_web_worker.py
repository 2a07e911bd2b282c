"""The web's work stays out of the bot's process (issue 22 item 8, D111): replays, pages and
step pictures are made in the web's own worker; the bot's process reads the store less."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.store import Game, GameRepository
from bot.web import links
from bot.web.config import WebConfig
from bot.web.limits import RateLimit
from bot.web.pictures import web_pool
from bot.web.server import WebServer
from engine.games import Match

from .support import SECRET, played_game, serving, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def test_replays_run_in_the_webs_worker_not_in_the_bots_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the web's pool in a process, no action of a replay is played in this process."""
    played = []
    play = Match.play

    def counted(self: Match, text: str, seat: int | None = None) -> list[dict[str, Any]]:
        played.append(text)
        return play(self, text, seat)

    async def body() -> tuple[int, bytes]:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=3)
            monkeypatch.setattr(Match, "play", counted)
            pool = web_pool(1)
            config = WebConfig(port=0, secret=SECRET)
            server = WebServer(config, repo, pool, limit=RateLimit(burst=1000))
            await pool.start()
            await server.start()
            try:
                async with aiohttp.ClientSession(f"http://127.0.0.1:{server.port}") as client:
                    path = links.game_path(SECRET, game_id)
                    page = await client.get(path)
                    picture = await client.get(f"{path}/v/2.png")
                    return page.status + picture.status, await picture.read()
            finally:
                await server.stop()
                await pool.close()

    statuses, png = asyncio.run(body())
    assert statuses == 400 and png.startswith(b"\x89PNG")
    assert played == []


class CountingStore:
    """A store that counts its reads of a game."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.reads = 0

    async def load_game(self, game_id: int) -> Game:
        """Count, then read."""
        self.reads += 1
        return await self.repo.load_game(game_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.repo, name)


def test_step_pictures_reuse_a_fresh_read_of_the_game(tmp_path: Path) -> None:
    """A reader stepping through the replay costs the store one read, not one per step."""

    async def body() -> int:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=3)
            store = CountingStore(repo)
            async with serving(store) as (_, client):  # type: ignore[arg-type]
                path = links.game_path(SECRET, game_id)
                assert (await client.get(path)).status == 200
                for step in (5, 4, 3, 4, 2):
                    assert (await client.get(f"{path}/v/{step}.png")).status == 200
            return store.reads

    assert asyncio.run(body()) == 1
