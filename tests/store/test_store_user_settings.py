"""Per-user settings (migration 0006): stored, replaced, deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import GameRepository, UserSettings
from tests.backends import database

from .store_helpers import with_repo

pytestmark = pytest.mark.usefixtures("backend")


def test_settings_are_stored_per_user_replaced_and_deleted(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        assert await repo.load_user_settings(5) is None
        await repo.save_user_settings(UserSettings(5, "dm"), now=1)
        await repo.save_user_settings(UserSettings(6, "none", "UTC", 22, 7), now=1)
        await repo.save_user_settings(UserSettings(5, "both", "Europe/Paris", 23, 6), now=2)
        assert await repo.load_user_settings(5) == UserSettings(5, "both", "Europe/Paris", 23, 6)
        assert await repo.delete_user_settings(5)
        assert not await repo.delete_user_settings(5)
        assert await repo.load_user_settings(5) is None
        assert await repo.load_user_settings(6) == UserSettings(6, "none", "UTC", 22, 7)

    with_repo(database(tmp_path, "db.sqlite3"), body)
