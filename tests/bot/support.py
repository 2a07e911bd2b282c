"""Helpers for the bot tests: a real SQLite store in tmp_path and a service on it."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from bot.service import Created, GameService, render_picture
from bot.store import GameRepository, open_store

T = TypeVar("T")

ANN, BO = 101, 202
GUILD, CHANNEL = 9, 10


async def with_service(
    tmp_path: Path, body: Callable[[GameService], Awaitable[T]], seed: int = 7
) -> T:
    """Open a store in tmp_path, run ``body`` with a service on it, close the store."""
    repo: GameRepository = await open_store(tmp_path / "games.sqlite3")
    try:
        renderer = _fake_picture if os.environ.get("HIMIKO_FAKE_RENDER") else render_picture
        return await body(GameService(repo, renderer=renderer, seed_source=lambda: seed))
    finally:
        await repo.close()


def _fake_picture(view: object, events: object) -> bytes:
    return b"\x89PNG fake"


async def two_player_game(service: GameService, thread_id: int = 500) -> Created:
    """A new game for Ann and Bo in a thread."""
    return await service.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=thread_id,
        players=[(ANN, "Ann"), (BO, "Bo")],
    )
