"""A game whose stored snapshot is damaged: the player is told so, and repair brings it back."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.present import error_text
from bot.service import Rooms, ServiceError
from bot.store.repair import Repair, repair_database
from bot.store.verify import verify_database

from .support import two_player_game, with_service

DAMAGED = ('{"format": 1, "game": "yamatai"', "null", '{"format": "nope"}')


def _damage(db: Path, game_id: int, state: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", (state, game_id))
    finally:
        conn.close()


@pytest.mark.parametrize("state", DAMAGED)
def test_a_damaged_snapshot_is_reported_as_such_and_repair_fixes_it(
    tmp_path: Path, state: str
) -> None:
    db = tmp_path / "games.sqlite3"

    async def damaged(rooms: Rooms) -> int:
        created = await two_player_game(rooms)
        _damage(db, created.game_id, state)
        with pytest.raises(ServiceError) as refused:
            await rooms.playing.play(
                created.first.user_id or 0, "fleet 3", thread_id=created.thread_id
            )
        assert refused.value.key == "error.damaged_game"
        text = error_text(default_catalog(), refused.value, "en")
        assert "damaged" in text and "python -m bot.store repair" in text
        assert f"--game {created.game_id}" in text
        assert "nothing was changed" not in text
        with pytest.raises(ServiceError, match=r"error\.damaged_game"):
            await rooms.reading.board(None, thread_id=created.thread_id)
        return created.game_id

    game_id = asyncio.run(with_service(tmp_path, damaged, fast=True))
    assert not asyncio.run(verify_database(db)).ok
    results = asyncio.run(repair_database(db))
    assert [(r.game_id, r.outcome) for r in results] == [(game_id, Repair.FIXED)]
    assert asyncio.run(verify_database(db)).ok

    async def repaired(rooms: Rooms) -> None:
        board = await rooms.reading.board(None, thread_id=500)
        assert board.game_id == game_id

    asyncio.run(with_service(tmp_path, repaired, fast=True))
