"""``verify`` replays every stored game from seed and log and compares the snapshot."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from bot.store import GameRepository, GameStatus, Target
from bot.store.verify import first_difference
from tests.backends import database
from tests.store.store_helpers import create_engine_game, play_turns, raw, store_cli, with_repo

pytestmark = pytest.mark.usefixtures("backend")


def verify_cli(db: Target) -> subprocess.CompletedProcess[str]:
    """Run the verify command."""
    return store_cli("verify", "--db", str(db))


def populate(db: Target) -> dict[str, int]:
    """A finished game, an active one with undos, an abandoned one and a fresh one."""

    async def body(repo: GameRepository) -> dict[str, int]:
        from engine import games

        rng = random.Random(5)
        finished, _ = await create_engine_game(repo, thread_id=1, seed=11)
        done = await play_turns(repo, finished.id, rng)
        assert done.status == GameStatus.FINISHED
        assert sorted(s.final_rank for s in done.seats if s.final_rank) == [1, 2, 3]
        assert sum(1 for s in done.seats if s.winner) == 1

        active, _ = await create_engine_game(repo, thread_id=2, seed=12, players=4)
        undone = 0
        for _ in range(40):
            game = await play_turns(repo, active.id, rng, steps=1)
            match = games.from_json(game.snapshot)
            if match.can_undo():
                match.undo()
                await repo.undo_last(
                    game.id, game.version, match.to_json(), current_seat=match.current_seat
                )
                undone += 1
        assert undone > 0

        abandoned, _ = await create_engine_game(repo, thread_id=3, seed=13)
        await play_turns(repo, abandoned.id, rng, steps=7)
        await repo.abandon_game(abandoned.id)
        fresh, _ = await create_engine_game(repo, thread_id=4, seed=14, players=2)
        return {
            "finished": finished.id,
            "active": active.id,
            "abandoned": abandoned.id,
            "fresh": fresh.id,
        }

    return with_repo(db, body)


def test_verify_passes_for_games_played_through_the_store(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    populate(db)
    result = verify_cli(db)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "checked 4 games, 0 differ" in result.stdout


def test_verify_reports_a_snapshot_that_differs(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    ids = populate(db)
    conn = raw(db)
    state = conn.execute("SELECT state FROM snapshots WHERE game_id = ?", (ids["active"],))
    text = state.fetchone()[0]
    conn.execute(
        "UPDATE snapshots SET state = ? WHERE game_id = ?",
        (text.replace('"seed":12', '"seed":99'), ids["active"]),
    )
    conn.close()
    result = verify_cli(db)
    assert result.returncode == 1
    assert (
        f"game {ids['active']}: snapshot differs from replay at $.seed: 99 != 12" in result.stdout
    )
    assert "checked 4 games, 1 differ" in result.stdout


def test_verify_reports_a_log_that_does_not_match(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    ids = populate(db)
    conn = raw(db)
    # Drop the last action of the finished game: the log replays, but not to the snapshot.
    conn.execute(
        "DELETE FROM actions WHERE game_id = ? AND seq = "
        "(SELECT MAX(seq) FROM actions WHERE game_id = ?)",
        (ids["finished"], ids["finished"]),
    )
    conn.execute(
        "UPDATE games SET action_count = action_count - 1 WHERE id = ?", (ids["finished"],)
    )
    # And make the abandoned game's log unplayable.
    conn.execute(
        "UPDATE actions SET notation = 'nonsense' WHERE game_id = ? AND seq = 3",
        (ids["abandoned"],),
    )
    conn.close()
    result = verify_cli(db)
    assert result.returncode == 1
    assert f"game {ids['finished']}: snapshot differs" in result.stdout
    assert f"game {ids['abandoned']}: replay failed at action 3" in result.stdout
    assert "2 differ" in result.stdout


@pytest.mark.sqlite_only  # a missing file; a missing PostgreSQL database: test_store_postgres
def test_verify_on_a_missing_database_is_an_error(tmp_path: Path) -> None:
    result = verify_cli(tmp_path / "nope.sqlite3")
    assert result.returncode == 2
    assert "does not exist" in result.stderr
    assert not (tmp_path / "nope.sqlite3").exists()


def test_first_difference() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) is None
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "$.a[1].b: 2 != 3"
    assert first_difference({"a": 1}, {"a": 1, "c": 2}) == "$.c: only in replay"
    assert first_difference([1], [1, 2]) == "$: length 1 != 2"
    assert first_difference({"a": 1}, {"a": "1"}) == "$.a: int != str"
