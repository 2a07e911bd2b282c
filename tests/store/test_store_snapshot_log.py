"""The stored snapshot leaves its action log to the ``actions`` table (issue 25 item 5, D113)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.store import GameRepository, Target
from bot.store.snapshots import log_left_out, with_log, without_log
from engine import games
from tests.backends import database
from tests.store.store_helpers import (
    create_engine_game,
    play_turns,
    raw,
    store_cli,
    with_repo,
)

pytestmark = pytest.mark.usefixtures("backend")


def _stored(db: Target, game_id: int) -> str:
    conn = raw(db)
    try:
        row = conn.execute("SELECT state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()
        return str(row[0])
    finally:
        conn.close()


def _set_stored(db: Target, game_id: int, state: str) -> None:
    conn = raw(db)
    try:
        conn.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", (state, game_id))
    finally:
        conn.close()


def test_the_stored_snapshot_holds_no_log_and_loads_with_it(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")

    async def body(repo: GameRepository) -> tuple[int, str, list[tuple[int, str]]]:
        game, _ = await create_engine_game(repo, thread_id=1, seed=3)
        game = await play_turns(repo, game.id, random.Random(3), steps=40)
        log = [(a.seat, a.notation) for a in await repo.load_actions(game.id)]
        return game.id, game.snapshot, log

    game_id, loaded, log = with_repo(db, body)
    assert len(log) == 40
    stored = _stored(db, game_id)
    assert '"log":null' in stored
    assert all(f'"{notation}"' not in stored for _, notation in log if " " in notation)
    assert len(stored) < len(loaded)
    match = games.from_json(loaded)
    assert match.log == log
    again = games.replay("yamatai", match.players, match.seed, match.options, log)
    assert loaded == again.to_json()


def test_an_old_snapshot_with_its_log_inline_is_read_played_on_and_verified(
    tmp_path: Path,
) -> None:
    db = database(tmp_path, "db.sqlite3")

    async def start(repo: GameRepository) -> tuple[int, str]:
        game, _ = await create_engine_game(repo, thread_id=1, seed=5, players=2)
        game = await play_turns(repo, game.id, random.Random(5), steps=25)
        return game.id, game.snapshot

    game_id, full = with_repo(db, start)
    _set_stored(db, game_id, full)  # as every snapshot was written before D113

    async def go_on(repo: GameRepository) -> tuple[str, int]:
        game = await repo.load_game(game_id)
        assert game.snapshot == full
        assert len(games.from_json(game.snapshot).log) == 25
        game = await play_turns(repo, game_id, random.Random(6), steps=10)
        return game.snapshot, len(await repo.load_actions(game_id))

    loaded, count = with_repo(db, go_on)
    assert count == 35
    assert len(games.from_json(loaded).log) == 35
    assert log_left_out(_stored(db, game_id))  # the next write stored it without the log
    result = store_cli("verify", "--db", str(db))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "checked 1 games, 0 differ" in result.stdout


def test_verify_still_finds_a_stored_snapshot_that_differs(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")

    async def start(repo: GameRepository) -> int:
        game, _ = await create_engine_game(repo, thread_id=1, seed=8, players=2)
        await play_turns(repo, game.id, random.Random(8), steps=12)
        return game.id

    game_id = with_repo(db, start)
    stored = _stored(db, game_id)
    assert log_left_out(stored)
    _set_stored(db, game_id, stored.replace('"seed":8', '"seed":9'))
    result = store_cli("verify", "--db", str(db))
    assert result.returncode == 1
    assert "snapshot differs from replay at $.seed: 9 != 8" in result.stdout


@pytest.mark.parametrize("actions", [0, 1, 30])
def test_leaving_out_and_putting_back_the_log_gives_the_engine_text(actions: int) -> None:
    match = games.new("namiji", players=["A", 'B"],"options":{', "C"], seed=2)
    rng = random.Random(actions)
    for _ in range(actions):
        match.play(rng.choice(match.legal_actions()), seat=match.current_seat)
    text = match.to_json()
    stored = without_log(text)
    assert log_left_out(stored) and '"log":null' in stored
    rows = [{"seat": seat, "notation": notation} for seat, notation in match.log]
    assert with_log(stored, rows) == text


@pytest.mark.parametrize("text", ['{"n":0}', "garbage", '{"format":1,"game":"x","log":7}', ""])
def test_other_texts_are_stored_and_read_unchanged(text: str) -> None:
    assert without_log(text) == text
    assert not log_left_out(text)
    assert with_log(text, [{"seat": 0, "notation": "end"}]) == text
