"""Helpers for the web tests: a store with games played by computers, a server on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.service import GameSettings, build_rooms
from bot.store import GameRepository, open_store
from bot.web.config import WebConfig
from bot.web.demo import play_turn
from bot.web.limits import RateLimit
from bot.web.server import WebServer
from bot.web.sources import StandingsSource
from bot.workers.render_pool import RenderPool
from engine import games
from tests.backends import database

SECRET = "a-test-secret-of-enough-length"
PNG = b"\x89PNG\r\n\x1a\nfake"


@dataclass
class Drawer:
    """A picture drawer that records what it was asked to draw (view, events, more)."""

    calls: list[tuple[dict[str, Any], Any, tuple[Any, ...]]] = field(default_factory=list)

    def __call__(self, view: dict[str, Any], events: Any, *more: Any) -> bytes:
        """Record the call; a tiny fake PNG."""
        self.calls.append((view, events, more))
        return PNG


@asynccontextmanager
async def store_at(tmp_path: Path) -> AsyncIterator[GameRepository]:
    """The running test's database (SQLite or PostgreSQL), opened and closed."""
    repo = await open_store(database(tmp_path, "web.sqlite3"))
    try:
        yield repo
    finally:
        await repo.close()


async def played_game(
    repo: GameRepository,
    game_key: str,
    players: Sequence[str],
    *,
    turns: int | None,
    thread_id: int = 700,
    seed: int = 3,
    language: str = "en",
    turn_deadline: int | None = None,
    users: Sequence[int | None] | None = None,
) -> int:
    """A game of computer seats, played ``turns`` turns (None: to its end), each saved alone."""
    rooms = build_rooms(repo, renderer=Drawer(), seed_source=lambda: seed)
    created = await rooms.playing.create_game(
        guild_id=9,
        channel_id=10,
        thread_id=thread_id,
        players=list(zip(users or [None] * len(players), players, strict=True)),
        game_key=game_key,
        settings=GameSettings(language=language, turn_deadline=turn_deadline),
    )
    await play_turns(repo, created.game_id, turns)
    return created.game_id


async def play_turns(repo: GameRepository, game_id: int, turns: int | None) -> None:
    """Play (and save) more turns of a stored game with the computer players."""
    played = 0
    while turns is None or played < turns:
        game = await repo.load_game(game_id)
        match = games.from_json(game.snapshot)
        if match.current_seat is None:
            return
        play_turn(match, game.seed)
        await repo.append_match(game, match)
        played += 1


@asynccontextmanager
async def serving(
    repo: GameRepository,
    drawer: Drawer | None = None,
    limit: RateLimit | None = None,
    leagues: StandingsSource | None = None,
) -> AsyncIterator[tuple[WebServer, aiohttp.ClientSession]]:
    """A web server on a free port of 127.0.0.1 and an HTTP client for it."""
    pool = RenderPool(0, drawer or Drawer())
    limit = limit or RateLimit(burst=1_000_000)  # tests ask for many pictures at once
    config = WebConfig(port=0, secret=SECRET)
    server = WebServer(config, repo, pool, limit=limit, leagues=leagues)
    await server.start()
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{server.port}") as client:
            yield server, client
    finally:
        await server.stop()
