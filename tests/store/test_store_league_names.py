"""Migration 0013: stored league names become text and their keys the normalized form."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.store import LeagueNameTaken, NewLeague, open_store
from bot.store.data_steps import LOOK_ALIKE, rekeyed_leagues
from bot.store.migrate import DEFAULT_MIGRATIONS_DIR, discover
from tests.backends import database
from tests.store.store_helpers import run

pytestmark = pytest.mark.usefixtures("backend")

GUILD = 7
# As issue 15's code stored them: a name with spaces collapsed, its key case-folded only.
OLD_ROWS = [
    ("Cup", "3,2,1,0"),
    ("\uff23\uff35\uff30", "3,2,1,0"),  # full-width: a look-alike the old keys let in
    ("Evil\u202eemaN", "3,2,1,0"),  # a right-to-left override inside
    ("\u200b\u2060", "3,2,1,0"),  # nothing but invisible characters
    ("Odd", "nan,1"),  # points nan, refused since
]

INSERT = """
INSERT INTO leagues (guild_id, channel_id, name, name_key, game_key, rounds, table_size, pairing,
                     points, creator_id, status, created_at)
VALUES (?, 1, ?, ?, 'nim', 3, 2, 'swiss', ?, 1, 'signup', 0)
"""


def _before_0013(tmp_path: Path) -> Path:
    """The project's migrations up to 0012 (with PostgreSQL's own versions of them)."""
    folder = tmp_path / "up_to_0012"
    (folder / "postgres").mkdir(parents=True)
    for migration in discover():
        if migration.version <= 12:
            shutil.copy(migration.path, folder / migration.path.name)
            own = DEFAULT_MIGRATIONS_DIR / "postgres" / migration.path.name
            if own.exists():
                shutil.copy(own, folder / "postgres" / own.name)
    return folder


def test_migration_0013_cleans_names_and_rekeys_look_alikes(tmp_path: Path) -> None:
    """Invisible characters leave stored names; the older look-alike keeps the key; nan points
    become the default; every league is still found by its exact name."""
    target = database(tmp_path, "names.sqlite3")

    async def main() -> None:
        old = await open_store(target, migrations_dir=_before_0013(tmp_path))
        try:
            async with old._write() as conn:
                for name, points in OLD_ROWS:
                    await conn.execute(INSERT, (GUILD, name, name.casefold(), points))
        finally:
            await old.close()
        repo = await open_store(target, migrations_dir=DEFAULT_MIGRATIONS_DIR)
        try:
            leagues = sorted(await repo.list_leagues(GUILD), key=lambda x: x.id)
            assert [x.name for x in leagues] == [
                "Cup",
                "\uff23\uff35\uff30",
                "EvilemaN",
                "League 4",
                "Odd",
            ]
            assert [x.points for x in leagues] == ["3,2,1,0"] * 5
            cup, wide, evil, _, _ = leagues
            assert (await repo.load_league(GUILD, "cup")) == cup
            assert (await repo.load_league(GUILD, "C\u200bUP")) == cup
            assert (await repo.load_league(GUILD, "\uff23\uff35\uff30")) == wide  # exact name
            assert (await repo.load_league(GUILD, "evilemaN")) == evil
            with pytest.raises(LeagueNameTaken):
                await repo.create_league(
                    NewLeague(GUILD, 1, "\U0001d402up", "nim", 3, 2, "swiss", None, "3,0", None, 1),
                    now=0,
                )
        finally:
            await repo.close()

    run(main())


def test_rekeyed_look_alikes_keep_distinct_keys_per_server() -> None:
    """The oldest of look-alikes on a server keeps the key; another server's is its own."""
    got = rekeyed_leagues([(3, 1, "CUP"), (1, 1, "Cup"), (2, 2, "cup"), (4, 1, "\u200b")])
    assert got == [
        ("Cup", "cup", 1),
        ("cup", "cup", 2),
        ("CUP", f"cup{LOOK_ALIKE}3", 3),
        ("League 4", "league 4", 4),
    ]
