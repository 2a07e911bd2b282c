"""Computer levels and the coach (migration 0015): stored with a game, refused, migrated."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.store import GameNotFound, GameRepository, GameSettings, InvalidRequest, open_store
from bot.store.migrate import DEFAULT_MIGRATIONS_DIR, POSTGRES_SUBDIR
from tests.backends import database

from .store_helpers import create_plain, run, stored_before, with_repo

pytestmark = pytest.mark.usefixtures("backend")


async def _game(repo: GameRepository, thread_id: int, level: str, coach: bool) -> int:
    game = await create_plain(
        repo, thread_id, n=2, settings=GameSettings(computer_level=level, coach=coach)
    )
    assert (game.computer_level, game.coach) == (level, coach)
    return game.id


def test_a_game_keeps_its_computer_level_and_coach(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        strong = await _game(repo, 30, "strong", True)
        easy = await _game(repo, 31, "easy", False)
        plain = await create_plain(repo, 32)
        loaded = await repo.load_game(strong)
        assert (loaded.computer_level, loaded.coach) == ("strong", True)
        by_thread = await repo.load_latest_game_by_thread(31)
        assert (by_thread.id, by_thread.computer_level, by_thread.coach) == (easy, "easy", False)
        default = await repo.load_game(plain.id)
        assert (default.computer_level, default.coach) == ("normal", False)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_an_unknown_level_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        with pytest.raises(InvalidRequest, match="'greedy'"):
            await _game(repo, 30, "greedy", False)
        with pytest.raises(GameNotFound):
            await repo.load_game_by_thread(30)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_games_stored_before_the_migration_play_normal_without_coach(tmp_path: Path) -> None:
    older = tmp_path / "older"
    (older / POSTGRES_SUBDIR).mkdir(parents=True)
    for path in DEFAULT_MIGRATIONS_DIR.glob("*.sql"):
        if int(path.name[:4]) < 15:
            shutil.copy(path, older / path.name)
    for path in (DEFAULT_MIGRATIONS_DIR / POSTGRES_SUBDIR).glob("*.sql"):
        if int(path.name[:4]) < 15:
            shutil.copy(path, older / POSTGRES_SUBDIR / path.name)
    target = database(tmp_path, "db.sqlite3")

    async def before() -> int:
        repo = await open_store(target, migrations_dir=older)
        await repo.close()
        return stored_before(target, 30)

    async def after(repo: GameRepository) -> tuple[str, bool]:
        game = await repo.load_game(game_id)
        return game.computer_level, game.coach

    game_id = run(before())
    assert with_repo(target, after) == ("normal", False)
