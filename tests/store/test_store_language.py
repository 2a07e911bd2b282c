"""Languages (migration 0011): a game's language and a server's default, stored and refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import GameNotFound, GameRepository, GameSettings, InvalidRequest
from tests.backends import database

from .store_helpers import create_plain, with_repo

pytestmark = pytest.mark.usefixtures("backend")


async def _game(repo: GameRepository, thread_id: int, language: str | None) -> int:
    game = await create_plain(repo, thread_id, n=2, settings=GameSettings(language=language))
    assert game.language == language
    return game.id


def test_a_game_keeps_its_language_and_older_games_have_none(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        polish = await _game(repo, 30, "pl")
        unset = await _game(repo, 31, None)
        assert (await repo.load_game(polish)).language == "pl"
        assert (await repo.load_game_by_thread(30)).language == "pl"
        assert (await repo.load_latest_game_by_thread(31)).language is None
        assert (await repo.load_game(unset)).language is None

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_an_unknown_language_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        with pytest.raises(InvalidRequest, match="'de'"):
            await _game(repo, 30, "de")
        with pytest.raises(GameNotFound):
            await repo.load_game_by_thread(30)
        with pytest.raises(InvalidRequest):
            await repo.set_guild_language(5, "fr-FR", by=1, now=1)
        assert await repo.guild_language(5) is None

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_a_server_default_is_set_replaced_and_cleared_per_server(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        assert await repo.guild_language(5) is None
        await repo.set_guild_language(5, "fr", by=1, now=1)
        await repo.set_guild_language(6, "it", by=2, now=1)
        await repo.set_guild_language(5, "pl", by=3, now=2)
        assert await repo.guild_language(5) == "pl"
        assert await repo.guild_language(6) == "it"
        await repo.set_guild_language(5, None, by=3, now=3)
        assert await repo.guild_language(5) is None
        assert await repo.guild_language(6) == "it"

    with_repo(database(tmp_path, "db.sqlite3"), body)
