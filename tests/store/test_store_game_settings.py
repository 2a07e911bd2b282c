"""A new game's settings (``GameSettings``): stored with the game's row, read back, refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import (
    DEFAULT_SETTINGS,
    GameRepository,
    GameSettings,
    InvalidRequest,
    Target,
    is_url,
)
from tests.backends import database

from .store_helpers import create_plain, raw, with_repo

pytestmark = pytest.mark.usefixtures("backend")
DAY = 86400


async def _stored(repo: GameRepository, thread_id: int, settings: GameSettings) -> GameSettings:
    """Create a game with ``settings``; the settings of the game as loaded again."""
    created = await create_plain(repo, thread_id, n=2, settings=settings)
    game = await repo.load_game(created.id)
    assert created == game
    return GameSettings(
        turn_deadline=game.turn_deadline,
        computer_takeover=game.computer_takeover,
        language=game.language,
        computer_level=game.computer_level,
        coach=game.coach,
        time_bank=game.time_bank,
        time_increment=game.time_increment,
    )


def test_every_setting_is_stored_with_the_game(tmp_path: Path) -> None:
    deadline = GameSettings(
        turn_deadline=2 * DAY, computer_takeover=True, language="it", computer_level="strong"
    )
    bank = GameSettings(language="pl", computer_level="easy", coach=True, time_bank=3 * DAY)
    banked = GameSettings(time_bank=DAY, time_increment=DAY // 4)

    async def body(repo: GameRepository) -> None:
        assert await _stored(repo, 30, deadline) == deadline
        assert await _stored(repo, 31, bank) == bank
        assert await _stored(repo, 32, banked) == banked
        assert await _stored(repo, 33, DEFAULT_SETTINGS) == GameSettings()

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_the_default_settings_are_the_columns_defaults(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await repo.load_game((await create_plain(repo, 40)).id)
        assert (game.turn_deadline, game.computer_takeover, game.language) == (None, False, None)
        assert (game.computer_level, game.coach) == ("normal", False)
        assert (game.time_bank, game.time_increment) == (None, 0)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_an_increment_without_a_bank_is_not_stored(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        stored = await _stored(repo, 30, GameSettings(time_increment=600))
        assert (stored.time_bank, stored.time_increment) == (None, 0)

    with_repo(database(tmp_path, "db.sqlite3"), body)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"computer_level": "hard"}, "level 'hard' is not one of"),
        ({"turn_deadline": 0}, "a turn deadline must be positive, not 0"),
        ({"time_bank": -5}, "a time bank must be positive, not -5"),
        ({"time_bank": DAY, "time_increment": -1}, "a time bank must be positive"),
        ({"time_bank": 1 << 63}, "does not fit in a signed 64-bit integer"),
        ({"language": "de"}, "language 'de' is not one of en, fr, it, pl"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRequest, match=message):
        GameSettings(**settings)  # type: ignore[arg-type]


def _count_updates_of_games(db: Target) -> None:
    """A trigger on the test database that counts every UPDATE of a game's row."""
    conn = raw(db)
    try:
        conn.execute("CREATE TABLE game_updates (game_id BIGINT NOT NULL)")
        if is_url(db):
            conn.execute(
                "CREATE FUNCTION count_update() RETURNS trigger AS $$ BEGIN "
                "INSERT INTO game_updates VALUES (NEW.id); RETURN NEW; END $$ LANGUAGE plpgsql"
            )
            conn.execute(
                "CREATE TRIGGER counted AFTER UPDATE ON games "
                "FOR EACH ROW EXECUTE FUNCTION count_update()"
            )
        else:
            conn.execute(
                "CREATE TRIGGER counted AFTER UPDATE ON games "
                "BEGIN INSERT INTO game_updates VALUES (NEW.id); END"
            )
    finally:
        conn.close()


def _updates(db: Target) -> int:
    """How many times a game's row was updated since ``_count_updates_of_games``."""
    conn = raw(db)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM game_updates").fetchall()[0][0])
    finally:
        conn.close()


def test_a_game_and_its_settings_are_written_in_one_insert(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    settings = GameSettings(
        computer_takeover=True, language="fr", computer_level="strong", coach=True, time_bank=DAY
    )

    async def body(repo: GameRepository) -> None:
        _count_updates_of_games(db)
        assert await _stored(repo, 30, settings) == settings
        assert _updates(db) == 0
        await repo.abandon_game((await repo.load_game_by_thread(30)).id)
        assert _updates(db) == 1  # the trigger counts what the store updates

    with_repo(db, body)
