"""Optimistic concurrency with two real connections: exactly one writer wins each race."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import GameRepository, StaleVersion, Target, ThreadBusy, open_store
from tests.backends import database
from tests.store.store_helpers import create_plain, raw, run

pytestmark = pytest.mark.usefixtures("backend")


async def two_stores(db: Target) -> tuple[GameRepository, GameRepository]:
    """Two repositories (two pairs of real connections) on one file."""
    first = await open_store(db)
    second = await open_store(db)
    return first, second


def test_two_writers_on_the_same_version_one_wins(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    rounds = 25

    async def main() -> list[str]:
        a, b = await two_stores(db)
        winners: list[str] = []
        try:
            game = await create_plain(a)
            for i in range(rounds):
                seen_a = await a.load_game(game.id)
                seen_b = await b.load_game(game.id)
                assert seen_a.version == seen_b.version
                results = await asyncio.gather(
                    a.append_actions(
                        game.id, seen_a.version, [(0, f"A{i}")], f'{{"A":{i}}}', current_seat=1
                    ),
                    b.append_actions(
                        game.id, seen_b.version, [(1, f"B{i}")], f'{{"B":{i}}}', current_seat=2
                    ),
                    return_exceptions=True,
                )
                stale = [r for r in results if isinstance(r, StaleVersion)]
                won = [r for r in results if isinstance(r, int)]
                assert len(stale) == 1 and len(won) == 1, results
                assert stale[0].expected == seen_a.version
                assert stale[0].actual == seen_a.version + 1 == won[0]
                winner = "A" if isinstance(results[0], int) else "B"
                winners.append(winner)
                after = await b.load_game(game.id)
                assert after.version == won[0] and after.action_count == i + 1
                assert after.snapshot == f'{{"{winner}":{i}}}'
        finally:
            await a.close()
            await b.close()
        return winners

    winners = run(main())
    conn = raw(db)
    log = conn.execute("SELECT seq, notation FROM actions ORDER BY seq").fetchall()
    conn.close()
    # The log holds exactly the winners' actions, nothing from the losers.
    assert log == [(i + 1, f"{w}{i}") for i, w in enumerate(winners)]


def test_two_undos_race_one_wins(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")

    async def main() -> None:
        a, b = await two_stores(db)
        try:
            game = await create_plain(a)
            v = await a.append_actions(game.id, 1, [(0, "x"), (0, "y")], "{}", current_seat=0)
            results = await asyncio.gather(
                a.undo_last(game.id, v, '{"u":"a"}', current_seat=0),
                b.undo_last(game.id, v, '{"u":"b"}', current_seat=0),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
            assert [x.notation for x in await b.load_actions(game.id)] == ["x"]
        finally:
            await a.close()
            await b.close()

    run(main())


def test_two_lobbies_starting_in_one_thread(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")

    async def main() -> None:
        a, b = await two_stores(db)
        try:
            for thread in range(10):
                results = await asyncio.gather(
                    create_plain(a, thread_id=thread),
                    create_plain(b, thread_id=thread),
                    return_exceptions=True,
                )
                busy = [r for r in results if isinstance(r, ThreadBusy)]
                assert len(busy) == 1, results
        finally:
            await a.close()
            await b.close()

    run(main())
    conn = raw(db)
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 10
    assert conn.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == 30
    conn.close()


def test_many_games_written_concurrently_through_one_store(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")

    async def main() -> None:
        repo = await open_store(db)
        try:
            games = [await create_plain(repo, thread_id=t) for t in range(20)]

            async def writer(game_id: int) -> None:
                version = 1
                for i in range(10):
                    version = await repo.append_actions(
                        game_id, version, [(i % 3, f"m{i}")], f'{{"i":{i}}}', current_seat=0
                    )

            await asyncio.gather(*(writer(g.id) for g in games))
            for g in games:
                loaded = await repo.load_game(g.id)
                assert (loaded.version, loaded.action_count) == (11, 10)
        finally:
            await repo.close()

    run(main())
