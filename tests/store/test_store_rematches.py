"""A finished game's rematch lobby (migration 0016, issue 35 item 10): the first recorded stays
while it is open; a closed one is replaced once, by the first click that found it closed; on
both databases."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import GameRepository
from tests.backends import database

from .store_helpers import create_plain, with_repo

pytestmark = pytest.mark.usefixtures("backend")


def test_the_first_lobby_stays_and_a_closed_one_is_replaced_once(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        other = await create_plain(repo, thread_id=31)
        assert await repo.rematch_of(game.id) is None
        assert await repo.record_rematch(game.id, 20, 100) == (20, 100)
        assert await repo.record_rematch(game.id, 20, 101) == (20, 100)  # the first stays
        # two clicks found lobby 100 closed at once: the first replacement wins
        found = await asyncio.gather(
            repo.record_rematch(game.id, 21, 102, replacing=100),
            repo.record_rematch(game.id, 21, 103, replacing=100),
        )
        assert found[0] == found[1] and found[0] in ((21, 102), (21, 103))
        assert await repo.rematch_of(game.id) == found[0]
        # a replacement of a lobby no longer recorded changes nothing
        assert await repo.record_rematch(game.id, 22, 104, replacing=100) == found[0]
        assert await repo.rematch_of(other.id) is None  # none recorded: this one is
        assert await repo.record_rematch(other.id, 22, 105, replacing=100) == (22, 105)

    with_repo(database(tmp_path, "db.sqlite3"), body)
