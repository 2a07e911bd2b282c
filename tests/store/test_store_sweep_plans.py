"""The sweeps read indexes, not every game (issue 25 item 5): the query plans on both databases.

SQLite's ``EXPLAIN QUERY PLAN`` and PostgreSQL's ``EXPLAIN`` (with sequential scans priced out,
so a tiny test table does not make a scan look cheaper than the index it would use at scale).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.store import GameRepository, Shards, Target, is_url
from bot.store import queries as q
from bot.store.postgres import placeholders
from tests.backends import blocking, database

from .store_helpers import with_repo

pytestmark = pytest.mark.usefixtures("backend")

SHARDS = (None, Shards(2, frozenset({0})))

#: (statement, its guild column for ``of_shards``, the index its plan must use)
SWEEPS = (
    (q.SELECT_UNANNOUNCED, "guild_id", "games_owing"),
    (q.SELECT_UNANNOUNCED_ABANDONED, "guild_id", "games_owing"),
    (q.SELECT_COMPUTER_DUE, "g.guild_id", "games_active"),
    (q.CLAIM_DUE_REMINDERS, "game:game_id", "reminders_due"),
    (q.SELECT_OWED_PICTURES, "guild_id", "games_picture_owed"),
)


def _plan(db: Target, sql: str) -> str:
    """The plan of ``sql`` (every ``?`` bound to 1), as one text."""
    count = sql.count("?")
    if not is_url(db):
        assert isinstance(db, Path)
        conn = sqlite3.connect(db)
        try:
            rows = conn.execute("EXPLAIN QUERY PLAN " + sql, (1,) * count).fetchall()
        finally:
            conn.close()
        return "\n".join(str(row[3]) for row in rows)

    async def explain() -> str:
        conn = await asyncpg.connect(str(db))
        try:
            await conn.execute("SET enable_seqscan = off")
            rows = await conn.fetch("EXPLAIN " + placeholders(sql), *(1,) * count)
        finally:
            await conn.close()
        return "\n".join(str(row[0]) for row in rows)

    return blocking(explain())


@pytest.mark.parametrize("shards", SHARDS, ids=["all", "sharded"])
@pytest.mark.parametrize(("sql", "column", "index"), SWEEPS, ids=lambda v: str(v)[:24])
def test_each_sweep_reads_its_index_and_never_scans_every_game(
    tmp_path: Path, sql: str, column: str, index: str, shards: Shards | None
) -> None:
    db = database(tmp_path)

    async def migrated(repo: GameRepository) -> None:
        return None

    with_repo(db, migrated)
    statement, _ = q.of_shards(sql, column, shards)
    plan = _plan(db, statement)
    assert index in plan, plan
    assert "Seq Scan on games" not in plan, plan
    assert not any(
        line.startswith(("SCAN games", "SCAN g")) and "USING" not in line
        for line in plan.splitlines()
    ), plan
    assert "games_by_guild_status" not in plan, plan  # the sharded claim scanned every game
