"""The store counts its games per game and status (the metrics' games gauge), per shard."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import GameRepository, Shards
from tests.backends import database
from tests.store.store_helpers import seats, with_repo

pytestmark = pytest.mark.usefixtures("backend")

GUILD_A = (700_000_000 << 22) | 5  # shard 0 of 2
GUILD_B = (700_000_001 << 22) | 5  # shard 1 of 2


async def _game(repo: GameRepository, guild_id: int, thread_id: int, game_key: str) -> int:
    game = await repo.create_game(
        guild_id=guild_id,
        channel_id=20,
        thread_id=thread_id,
        game_key=game_key,
        seed=7,
        options=None,
        seats=seats(2),
        snapshot='{"n":0}',
        current_seat=0,
    )
    return game.id


def test_games_are_counted_by_game_and_status_and_shard(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        assert await repo.game_counts() == {}
        a = await _game(repo, GUILD_A, 31, "yamatai")
        await _game(repo, GUILD_A, 32, "yamatai")
        b = await _game(repo, GUILD_B, 33, "namiji")
        await _game(repo, GUILD_B, 34, "namiji")
        await repo.abandon_game(a)
        await repo.abandon_game(b)
        assert await repo.game_counts() == {
            ("yamatai", "active"): 1,
            ("yamatai", "abandoned"): 1,
            ("namiji", "active"): 1,
            ("namiji", "abandoned"): 1,
        }
        assert await repo.game_counts(Shards(2, frozenset({1}))) == {
            ("namiji", "active"): 1,
            ("namiji", "abandoned"): 1,
        }

    with_repo(database(tmp_path, "counts.sqlite3"), body)
