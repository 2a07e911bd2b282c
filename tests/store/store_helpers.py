"""Shared helpers for the store tests (no pytest-asyncio: coroutines run with asyncio.run)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from bot.store import (
    DEFAULT_SETTINGS,
    Game,
    GameRepository,
    GameSettings,
    NewSeat,
    Target,
    is_url,
    open_store,
)
from bot.store.base import dump_json
from bot.store.postgres import placeholders
from bot.store.rows import format_time
from bot.store.snapshots import without_log
from tests.backends import blocking

T = TypeVar("T")

REPO_ROOT = Path(__file__).resolve().parents[2]
WRITER = Path(__file__).with_name("crash_writer.py")
PLAYERS = ["Ann", "Bo", "Cy"]
COLOURS = ["red", "blue", "green", "yellow"]


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine to completion in a fresh event loop."""
    return asyncio.run(coro)


def with_repo(path: Target, body: Callable[[GameRepository], Awaitable[T]]) -> T:
    """Open the store at ``path``, run ``body(repo)``, always close it."""

    async def main() -> T:
        repo = await open_store(path)
        try:
            return await body(repo)
        finally:
            await repo.close()

    return run(main())


def seats(n: int = 3, first_user: int = 100) -> list[NewSeat]:
    """n seats with users first_user, first_user+1, ... and distinct colours."""
    return [NewSeat(i, first_user + i, PLAYERS[i % 3] + str(i), COLOURS[i]) for i in range(n)]


async def create_plain(
    repo: GameRepository,
    thread_id: int = 30,
    *,
    n: int = 3,
    first_user: int = 100,
    snapshot: str = '{"n":0}',
    settings: GameSettings = DEFAULT_SETTINGS,
) -> Game:
    """A game whose snapshot is a plain string (for tests that do not need the engine)."""
    return await repo.create_game(
        guild_id=10,
        channel_id=20,
        thread_id=thread_id,
        game_key="yamatai",
        seed=7,
        options=None,
        seats=seats(n, first_user),
        snapshot=snapshot,
        current_seat=0,
        settings=settings,
    )


#: A game's row as the store wrote it before migration 0005 added the first of its settings'
#: columns (each added later with a default); ``{deadline}`` names turn_deadline when given.
_GAME_BEFORE_SETTINGS = """
INSERT INTO games (guild_id, channel_id, thread_id, game_key, options, seed, status, version,
                   action_count, current_seat, created_at, updated_at{deadline})
VALUES (?, ?, ?, ?, ?, ?, 'active', 1, 0, ?, ?, ?{value})
RETURNING id
"""


def stored_before(
    db: Target,
    thread_id: int = 30,
    *,
    seat_list: Sequence[NewSeat] | None = None,
    snapshot: str = '{"n":0}',
    current_seat: int | None = 0,
    options: Mapping[str, Any] | None = None,
    turn_deadline: int | None = None,
    guild_id: int = 10,
) -> int:
    """A Yamatai game written in plain SQL on a database migrated only so far, as the store
    wrote it before the settings' columns existed (a game a later migration must keep); its id.

    ``turn_deadline``: written too (a database with migration 0005). The store's own
    ``create_game`` writes every column in one statement, so it cannot write such a game.
    """
    stamp = format_time(datetime.now(UTC))
    sql = _GAME_BEFORE_SETTINGS.format(
        deadline="" if turn_deadline is None else ", turn_deadline",
        value="" if turn_deadline is None else ", ?",
    )
    row = (guild_id, 20, thread_id, "yamatai", dump_json(options), 7, current_seat, stamp, stamp)
    conn = raw(db)
    try:
        added = conn.execute(sql, (*row, *(() if turn_deadline is None else (turn_deadline,))))
        game_id = int(added.fetchall()[0][0])
        for s in seats(3) if seat_list is None else seat_list:
            conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, player, colour) VALUES (?, ?, ?, ?, ?)",
                (game_id, s.seat, s.user_id, s.player, s.colour),
            )
        conn.execute(
            "INSERT INTO snapshots (game_id, state) VALUES (?, ?)", (game_id, without_log(snapshot))
        )
    finally:
        conn.close()
    return game_id


async def create_engine_game(
    repo: GameRepository, thread_id: int, seed: int, *, players: int = 3
) -> tuple[Game, Any]:
    """A real Yamatai game stored with its initial snapshot; returns (game, match)."""
    from engine import games

    names = PLAYERS[:players] if players <= 3 else [*PLAYERS, "Di"][:players]
    match = games.new("yamatai", players=names, seed=seed, options=None)
    game = await repo.create_game(
        guild_id=10,
        channel_id=20,
        thread_id=thread_id,
        game_key="yamatai",
        seed=seed,
        options=None,
        seats=[NewSeat(i, 100 + i, name, COLOURS[i]) for i, name in enumerate(names)],
        snapshot=match.to_json(),
        current_seat=match.current_seat,
    )
    return game, match


async def play_turns(
    repo: GameRepository, game_id: int, rng: random.Random, steps: int | None = None
) -> Game:
    """Play random legal actions through the bot's flow (load, engine, append); latest game."""
    from engine import games

    game = await repo.load_game(game_id)
    done = 0
    while game.status == "active" and (steps is None or done < steps):
        match = games.from_json(game.snapshot)
        if match.current_seat is None:
            break
        match.play(rng.choice(match.legal_actions()), seat=match.current_seat)
        await repo.append_match(game, match)
        game = await repo.load_game(game_id)
        done += 1
    return game


class Rows:
    """The rows a raw statement gave (sqlite3's cursor calls)."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows = rows

    def fetchall(self) -> list[Any]:
        """Every row."""
        return self.rows

    def fetchone(self) -> Any:
        """The first row, if any."""
        return self.rows[0] if self.rows else None

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)


class RawPostgres:
    """Autocommitted statements on a PostgreSQL test database (``?`` parameters)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Rows:
        """Run one statement in its own transaction; its rows."""

        async def go() -> list[tuple[Any, ...]]:
            conn = await asyncpg.connect(self.url)
            try:
                return [tuple(r) for r in await conn.fetch(placeholders(sql), *parameters)]
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise sqlite3.IntegrityError(str(exc)) from exc
            finally:
                await conn.close()

        return Rows(blocking(go()))

    def close(self) -> None:
        """Nothing to close (each statement connects)."""


def raw(db: Target) -> sqlite3.Connection | RawPostgres:
    """A plain connection for poking at the database directly, outside the store."""
    if is_url(db):
        return RawPostgres(str(db))
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def schema_dump(path: Path) -> list[tuple[str, str, str]]:
    """Every schema object (type, name, sql), sorted: equal dumps mean equal schemas."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()
    return [("user_version", str(version), ""), *rows]


def store_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot.store ARGS`` from the repository root; capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "bot.store", *map(str, args)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
