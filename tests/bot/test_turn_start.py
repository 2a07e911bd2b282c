"""The current turn's start is kept with the game, so knowing the turn replays nothing (issue 25
item 5): across undos and a restart, on SQLite and on PostgreSQL; older snapshots still work."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import history
from bot.service.tables import current_turn, match_of
from bot.store import GameRepository, GameStatus, NewSeat, Target, open_store
from engine import games
from engine.games import Match
from tests.backends import database
from tests.store.store_helpers import raw, store_cli

pytestmark = pytest.mark.usefixtures("backend")

PLAYERS = {"yamatai": ["Ann", "Bo"], "namiji": ["Ann", "Bo", "Cy"]}


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The games the bot's history module started afresh to replay (by key)."""
    started: list[str] = []
    new = games.new

    def counting(game: str, *args: Any, **kwargs: Any) -> Match:
        started.append(game)
        return new(game, *args, **kwargs)

    monkeypatch.setattr(games, "new", counting)  # the module history replays with
    yield started


def replayed_start(match: Match) -> int:
    """The turn's start found the old way: the actions of every completed turn of a replay."""
    return sum(len(t.actions) for t in history.replay_turns(match) if t.complete)


async def new_game(repo: GameRepository, key: str, seed: int) -> int:
    """A stored game of ``key`` with its opening snapshot; its id."""
    names = PLAYERS[key]
    match = games.new(key, players=names, seed=seed)
    game = await repo.create_game(
        guild_id=10,
        channel_id=20,
        thread_id=seed,
        game_key=key,
        seed=seed,
        options=match.options,
        seats=[NewSeat(i, 100 + i, n, match.colours[i]) for i, n in enumerate(names)],
        snapshot=match.to_json(),
        current_seat=match.current_seat,
    )
    return game.id


async def play(repo: GameRepository, game_id: int, rng: random.Random, steps: int) -> None:
    """Random legal actions saved one by one as the bot saves them, with an undo now and then."""
    for _ in range(steps):
        game = await repo.load_game(game_id)
        if game.status != GameStatus.ACTIVE:
            return
        match = match_of(game)
        if match.can_undo() and rng.random() < 0.15:
            match.undo()
            await repo.undo_last(
                game.id, game.version, match.to_json(), current_seat=match.current_seat
            )
            continue
        match.play(rng.choice(match.legal_actions()), seat=match.current_seat)
        await repo.append_match(game, match)


def stored_state(db: Target, game_id: int) -> dict[str, Any]:
    """The stored snapshot as JSON, read outside the store (no log: D113)."""
    conn = raw(db)
    try:
        row = conn.execute("SELECT state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()
        return dict(json.loads(row[0]))
    finally:
        conn.close()


@pytest.mark.parametrize("key", ["yamatai", "namiji"])
def test_the_turn_is_known_after_a_restart_without_replaying_the_game(
    tmp_path: Path, key: str, replays: list[str]
) -> None:
    db = database(tmp_path, f"{key}.sqlite3")

    async def main() -> None:
        rng = random.Random(4)
        repo = await open_store(db)
        game_id = await new_game(repo, key, seed=4)
        checked = 0
        for _ in range(12):
            await play(repo, game_id, rng, steps=9)
            await repo.close()
            repo = await open_store(db)  # a restart: only what is stored is known
            game = await repo.load_game(game_id)
            match = match_of(game)
            replays.clear()
            turn = await current_turn(match)
            assert replays == []  # nothing replayed
            if turn is None:
                break
            assert turn.start == replayed_start(match)
            assert stored_state(db, game_id)["turn_start"] == turn.start
            checked += 1
        await repo.close()
        assert checked >= 5

    asyncio.run(main())


def test_a_snapshot_without_the_turn_start_is_replayed_until_a_turn_ends(
    tmp_path: Path, replays: list[str]
) -> None:
    db = database(tmp_path, "old.sqlite3")

    async def main() -> None:
        rng = random.Random(9)
        repo = await open_store(db)
        game_id = await new_game(repo, "yamatai", seed=9)
        await play(repo, game_id, rng, steps=30)
        old = stored_state(db, game_id)
        del old["turn_start"]  # as written before the match kept it
        conn = raw(db)
        try:
            text = json.dumps(old, sort_keys=True, separators=(",", ":"))
            conn.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", (text, game_id))
        finally:
            conn.close()
        assert store_cli("verify", "--db", str(db)).returncode == 0

        match = match_of(await repo.load_game(game_id))
        assert match.turn_start is None
        replays.clear()
        turn = await current_turn(match)
        assert replays == ["yamatai"]  # the old way, once
        assert turn is not None and turn.start == replayed_start(match)

        turns = len([t for t in history.replay_turns(match) if t.complete])
        while len([t for t in history.replay_turns(match) if t.complete]) == turns:
            await play(repo, game_id, rng, steps=1)
            match = match_of(await repo.load_game(game_id))
        replays.clear()
        turn = await current_turn(match)
        assert replays == []
        assert turn is not None and turn.start == replayed_start(match)
        await repo.close()
        result = store_cli("verify", "--db", str(db))
        assert result.returncode == 0, result.stdout + result.stderr

    asyncio.run(main())
