"""``repair`` rebuilds damaged snapshots from the action log; verify is clean afterwards."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bot.store import GameRepository, StaleVersion, Target
from tests.backends import database
from tests.store.store_helpers import create_engine_game, raw, store_cli, with_repo
from tests.store.test_store_verify import populate, verify_cli

pytestmark = pytest.mark.usefixtures("backend")


def repair_cli(db: Target, *more: str) -> subprocess.CompletedProcess[str]:
    """Run the repair command."""
    return store_cli("repair", "--db", str(db), *more)


def _row(db: Target, game_id: int) -> tuple[str, int, int | None]:
    """(snapshot, version, current_seat) of a game, read directly from the file."""
    conn = raw(db)
    try:
        state = conn.execute("SELECT state FROM snapshots WHERE game_id = ?", (game_id,))
        version, seat = conn.execute(
            "SELECT version, current_seat FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return str(state.fetchone()[0]), int(version), seat
    finally:
        conn.close()


def _set(db: Target, sql: str, *params: object) -> None:
    conn = raw(db)
    try:
        conn.execute(sql, params)
    finally:
        conn.close()


def test_repair_rebuilds_corrupt_and_wrong_snapshots_and_verify_is_clean(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    ids = populate(db)
    before = {name: _row(db, game_id) for name, game_id in ids.items()}
    _set(db, "UPDATE snapshots SET state = '{\"format\": tru' WHERE game_id = ?", ids["active"])
    wrong = before["finished"][0].replace('"seed":11', '"seed":99')
    _set(db, "UPDATE snapshots SET state = ? WHERE game_id = ?", wrong, ids["finished"])
    seat = before["fresh"][2]
    assert seat is not None
    _set(db, "UPDATE games SET current_seat = ? WHERE id = ?", 1 - seat, ids["fresh"])

    checked = verify_cli(db)
    assert checked.returncode == 1
    assert f"game {ids['active']}: snapshot is not JSON" in checked.stdout
    assert "checked 4 games, 3 differ" in checked.stdout

    repaired = repair_cli(db)
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    for name in ("active", "finished", "fresh"):
        assert f"game {ids[name]}: fixed" in repaired.stdout
    assert "checked 4 games, fixed 3, 0 cannot be repaired" in repaired.stdout
    assert {name: _row(db, game_id) for name, game_id in ids.items()} == before  # same versions

    clean = verify_cli(db)
    assert clean.returncode == 0 and "0 differ" in clean.stdout
    again = repair_cli(db)
    assert again.returncode == 0 and "fixed 0" in again.stdout


def test_a_log_that_does_not_replay_is_reported_and_left_alone(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    ids = populate(db)
    _set(db, "UPDATE snapshots SET state = 'garbage' WHERE game_id = ?", ids["active"])
    _set(db, "UPDATE snapshots SET state = 'garbage' WHERE game_id = ?", ids["abandoned"])
    _set(
        db,
        "UPDATE actions SET notation = 'nonsense' WHERE game_id = ? AND seq = 3",
        ids["abandoned"],
    )
    result = repair_cli(db)
    assert result.returncode == 1
    assert f"game {ids['abandoned']}: not repaired, the log does not replay" in result.stdout
    assert f"game {ids['active']}: fixed" in result.stdout
    assert _row(db, ids["abandoned"])[0] == "garbage"
    assert "1 differ" in verify_cli(db).stdout  # only the game whose log is broken


def test_repair_of_one_game_leaves_the_others(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    ids = populate(db)
    for game_id in (ids["active"], ids["fresh"]):
        _set(db, "UPDATE snapshots SET state = 'garbage' WHERE game_id = ?", game_id)
    result = repair_cli(db, "--game", str(ids["fresh"]))
    assert result.returncode == 0
    assert "checked 1 games, fixed 1" in result.stdout
    assert _row(db, ids["active"])[0] == "garbage"
    missing = repair_cli(db, "--game", "999")
    assert missing.returncode == 2 and "no game 999" in missing.stderr


def test_repair_writes_only_at_the_expected_version(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game, match = await create_engine_game(repo, thread_id=1, seed=3)
        with pytest.raises(StaleVersion):
            await repo.repair_snapshot(game.id, game.version + 1, "x", current_seat=None)
        await repo.repair_snapshot(
            game.id, game.version, match.to_json(), current_seat=match.current_seat
        )
        assert (await repo.load_game(game.id)).version == game.version

    with_repo(database(tmp_path, "db.sqlite3"), body)
