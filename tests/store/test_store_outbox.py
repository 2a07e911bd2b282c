"""Migration 0002 and the outbox of thread messages: announced_version only moves forward."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.store import GameNotFound, GameRepository, open_store
from bot.store.migrate import discover, migrate_database
from tests.backends import database
from tests.store.store_helpers import create_plain, raw, run, stored_before, with_repo

pytestmark = pytest.mark.usefixtures("backend")


@pytest.mark.sqlite_only  # migrates an old SQLite schema
def test_migrating_0001_to_0002_keeps_games_and_counts_them_announced(tmp_path: Path) -> None:
    first = tmp_path / "only0001"
    first.mkdir()
    shutil.copy(discover()[0].path, first / discover()[0].path.name)
    db = tmp_path / "db.sqlite3"
    assert migrate_database(db, first).after == 1
    conn = raw(db)
    conn.execute(
        "INSERT INTO games (id, guild_id, channel_id, thread_id, game_key, seed, status, version,"
        " action_count, created_at, updated_at) VALUES (7, 1, 2, 3, 'yamatai', 5, 'active', 4, 0,"
        " '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')"
    )
    conn.execute(
        "INSERT INTO seats (game_id, seat, user_id, player, colour) VALUES (7,0,9,'A','r')"
    )
    conn.execute("INSERT INTO snapshots (game_id, state) VALUES (7, '{}')")
    conn.close()

    report = migrate_database(db)
    assert (report.before, report.after) == (1, len(discover()))

    async def body() -> None:
        repo = await open_store(db)
        try:
            game = await repo.load_game(7)
            assert (game.version, game.announced_version, game.thread_id) == (4, 4, 3)
            assert [s.player for s in game.seats] == ["A"]
            assert await repo.unannounced_games() == []
        finally:
            await repo.close()

    run(body())


def test_outbox_lists_unannounced_games_and_marks_only_forward(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        assert game.announced_version == 0
        assert await repo.unannounced_games() == [game.id]
        assert await repo.mark_announced(game.id, 1)
        assert await repo.unannounced_games() == []
        assert not await repo.mark_announced(game.id, 1)  # already there
        assert not await repo.mark_announced(game.id, 5)  # beyond the game's version
        # a turn-ending append leaves a message to post; marking it announces it
        v2 = await repo.append_actions(game.id, 1, [(0, "a")], '{"n":1}', current_seat=1)
        assert await repo.unannounced_games() == [game.id]
        assert await repo.mark_announced(game.id, v2)
        assert not await repo.mark_announced(game.id, 1)  # never backwards
        assert (await repo.load_game(game.id)).announced_version == v2

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_silent_changes_carry_the_announcement_only_when_nothing_is_pending(
    tmp_path: Path,
) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        await repo.mark_announced(game.id, 1)
        v2 = await repo.append_actions(
            game.id, 1, [(0, "a")], '{"n":1}', current_seat=0, silent=True
        )
        assert (await repo.load_game(game.id)).announced_version == v2
        v3 = await repo.undo_last(game.id, v2, '{"n":0}', current_seat=0)
        assert (await repo.load_game(game.id)).announced_version == v3
        v4 = await repo.append_actions(game.id, v3, [(0, "a")], '{"n":1}', current_seat=1)
        # the turn message of v4 is pending: a silent change after it must not hide it
        await repo.append_actions(game.id, v4, [(1, "b")], '{"n":2}', current_seat=1, silent=True)
        assert (await repo.load_game(game.id)).announced_version == v3
        assert await repo.unannounced_games() == [game.id]
        other = await create_plain(repo, thread_id=31)
        await repo.abandon_game(other.id)
        assert await repo.unannounced_games() == [game.id]  # abandoned games are not listed
        # ...but they are owed the message that says the game ended
        assert await repo.unannounced_abandoned_games() == [other.id]
        assert await repo.mark_announced(other.id, (await repo.load_game(other.id)).version)
        assert await repo.unannounced_abandoned_games() == []

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_latest_game_by_thread_includes_ended_games(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        old = await create_plain(repo, thread_id=40)
        await repo.abandon_game(old.id)
        with pytest.raises(GameNotFound):
            await repo.load_game_by_thread(40)
        assert (await repo.load_latest_game_by_thread(40)).id == old.id
        new = await create_plain(repo, thread_id=40)
        assert (await repo.load_latest_game_by_thread(40)).id == new.id
        with pytest.raises(GameNotFound):
            await repo.load_latest_game_by_thread(41)

    with_repo(database(tmp_path, "db.sqlite3"), body)


@pytest.mark.sqlite_only  # migrates an old SQLite schema
def test_migration_0004_counts_games_abandoned_before_it_announced(tmp_path: Path) -> None:
    until = tmp_path / "until0002"
    until.mkdir()
    for migration in discover()[:2]:
        shutil.copy(migration.path, until / migration.path.name)
    db = tmp_path / "db.sqlite3"

    async def before() -> None:
        repo = await open_store(db, migrations_dir=until)
        try:
            await repo.abandon_game(stored_before(db, thread_id=50))
            stored_before(db, thread_id=51)  # active, its opening owed
        finally:
            await repo.close()

    run(before())
    assert migrate_database(db).applied[:2] == (
        "0003_yamatai_step_order",
        "0004_announce_abandoned",
    )

    async def after(repo: GameRepository) -> None:
        assert await repo.unannounced_abandoned_games() == []
        assert len(await repo.unannounced_games()) == 1

    with_repo(db, after)
