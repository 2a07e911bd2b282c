"""What a migration's SQL cannot rewrite (Unicode normalization): Python run right after a
migration file, in its transaction, on SQLite and on PostgreSQL (``migrate.py``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

import asyncpg

from bot.league.names import cleaned, name_key

from . import sqlite

#: Ends the key of a look-alike league kept from before keys were normalized: no typed name's
#: key holds it (it is a control character), so such a league is found by its exact name only.
LOOK_ALIKE = "\x1f"


@dataclass(frozen=True)
class DataStep:
    """One migration's Python part, for each database."""

    sqlite: Callable[[sqlite3.Connection], None]
    postgres: Callable[[asyncpg.Connection], Awaitable[None]]


def rekeyed_leagues(rows: Iterable[tuple[int, int, str]]) -> list[tuple[str, str, int]]:
    """(name, key, id) for leagues given as (id, guild, name): names without the characters a
    name may not hold, keys normalized; of look-alikes on one server the oldest keeps the key."""
    taken: set[tuple[int, str]] = set()
    found = []
    for league_id, guild_id, name in sorted(rows):
        name = cleaned(name) or f"League {league_id}"
        key = name_key(name)
        if not key or (guild_id, key) in taken:
            key = f"{key}{LOOK_ALIKE}{league_id}"
        taken.add((guild_id, key))
        found.append((name, key, league_id))
    return found


def _placeholders(rekeyed: list[tuple[str, str, int]]) -> list[tuple[str, int]]:
    """Unique keys no league has, set first so no new key meets an old one on its way."""
    return [(f"{LOOK_ALIKE}{league_id}", league_id) for _, _, league_id in rekeyed]


def _league_names_sqlite(conn: sqlite3.Connection) -> None:
    rows = sqlite.named_rows(conn.execute("SELECT id, guild_id, name FROM leagues"))
    rekeyed = rekeyed_leagues((int(r["id"]), int(r["guild_id"]), str(r["name"])) for r in rows)
    conn.executemany("UPDATE leagues SET name_key = ? WHERE id = ?", _placeholders(rekeyed))
    conn.executemany("UPDATE leagues SET name = ?, name_key = ? WHERE id = ?", rekeyed)


async def _league_names_postgres(conn: asyncpg.Connection) -> None:
    rows = await conn.fetch("SELECT id, guild_id, name FROM leagues")
    rekeyed = rekeyed_leagues((int(r["id"]), int(r["guild_id"]), str(r["name"])) for r in rows)
    await conn.executemany("UPDATE leagues SET name_key = $1 WHERE id = $2", _placeholders(rekeyed))
    await conn.executemany("UPDATE leagues SET name = $1, name_key = $2 WHERE id = $3", rekeyed)


#: By migration label (file name without ``.sql``): another set of files with the same number
#: (a test's) runs no step.
DATA_STEPS = {
    "0013_league_names": DataStep(_league_names_sqlite, _league_names_postgres),
}
