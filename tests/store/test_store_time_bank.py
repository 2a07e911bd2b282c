"""Time banks (migration 0016): stored with a game, refused when bad, a turn begun once and
ended by the next, games stored before the migration without one; on both databases."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.store import (
    BankTurn,
    GameNotFound,
    GameRepository,
    GameSettings,
    InvalidRequest,
    open_store,
)
from bot.store.migrate import DEFAULT_MIGRATIONS_DIR, POSTGRES_SUBDIR
from tests.backends import database

from .store_helpers import create_plain, run, stored_before, with_repo

pytestmark = pytest.mark.usefixtures("backend")
DAY = 86400


async def _game(repo: GameRepository, thread_id: int, bank: int | None, increment: int) -> int:
    game = await create_plain(
        repo, thread_id, n=2, settings=GameSettings(time_bank=bank, time_increment=increment)
    )
    return game.id


def test_a_game_keeps_its_time_bank_and_its_turns(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game_id = await _game(repo, 30, 3 * DAY, DAY // 2)
        loaded = await repo.load_game(game_id)
        assert (loaded.time_bank, loaded.time_increment) == (3 * DAY, DAY // 2)
        plain = await repo.load_game((await create_plain(repo, 31)).id)
        assert (plain.time_bank, plain.time_increment) == (None, 0)

        first = await repo.begin_bank_turn(game_id, turn="1.0.0", seat=0, available=100, now=10)
        again = await repo.begin_bank_turn(game_id, turn="1.0.0", seat=0, available=5, now=50)
        assert first == again == BankTurn("1.0.0", 0, 10, 100, None)
        assert first.left(70) == 40 and first.left(500) == 0
        await repo.begin_bank_turn(game_id, turn="1.1.4", seat=1, available=200, now=80)
        assert await repo.end_bank_turns(game_id, now=90) == 1
        assert await repo.bank_turns(game_id) == [
            BankTurn("1.0.0", 0, 10, 100, 80),
            BankTurn("1.1.4", 1, 80, 200, 90),
        ]
        # D156: the next turn's message on its way ends every turn but the one it begins
        await repo.begin_bank_turn(game_id, turn="2.0.9", seat=0, available=100, now=95)
        assert await repo.end_bank_turns(game_id, now=99, keep="2.0.9") == 0
        assert await repo.end_bank_turns(game_id, now=99, keep="2.1.12") == 1
        assert (await repo.bank_turns(game_id))[-1] == BankTurn("2.0.9", 0, 95, 100, 99)

    with_repo(database(tmp_path, "db.sqlite3"), body)


@pytest.mark.parametrize(("bank", "increment"), [(0, 0), (-5, 0), (DAY, -1)])
def test_a_bad_time_bank_is_refused_and_nothing_is_stored(
    tmp_path: Path, bank: int, increment: int
) -> None:
    async def body(repo: GameRepository) -> None:
        with pytest.raises(InvalidRequest, match="time bank"):
            await _game(repo, 30, bank, increment)
        with pytest.raises(GameNotFound):
            await repo.load_game_by_thread(30)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_games_stored_before_the_migration_have_no_time_bank(tmp_path: Path) -> None:
    older = tmp_path / "older"
    (older / POSTGRES_SUBDIR).mkdir(parents=True)
    for path in DEFAULT_MIGRATIONS_DIR.glob("*.sql"):
        if int(path.name[:4]) < 16:
            shutil.copy(path, older / path.name)
    for path in (DEFAULT_MIGRATIONS_DIR / POSTGRES_SUBDIR).glob("*.sql"):
        if int(path.name[:4]) < 16:
            shutil.copy(path, older / POSTGRES_SUBDIR / path.name)
    target = database(tmp_path, "db.sqlite3")

    async def before() -> int:
        repo = await open_store(target, migrations_dir=older)
        await repo.close()
        return stored_before(target, 30)

    async def after(repo: GameRepository) -> tuple[int | None, int, list[BankTurn]]:
        game = await repo.load_game(game_id)
        return game.time_bank, game.time_increment, await repo.bank_turns(game_id)

    game_id = run(before())
    assert with_repo(target, after) == (None, 0, [])
