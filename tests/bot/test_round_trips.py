"""Round trips to the database per command: /play's step and its autocomplete (issue 25 item 4).

Each round trip costs the bot's process CPU (on SQLite a hop to aiosqlite's thread and back, on
PostgreSQL a message to the server): a transaction's start and end count one each, and so
does every statement. The ceilings are what one mid-turn step needs; more means a regression.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.service import Rooms
from bot.store import GameRepository
from bot.store.connection import Backend, Connection, Result, Row, Script, T
from bot.store.sqlite import SqliteBackend

from .support import ANN, BO, two_player_game, with_service

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: /play of one step in the middle of a turn: the game read, its new version written. On
#: SQLite each transaction is one hop to aiosqlite's thread (D132); on PostgreSQL its start,
#: its statements and its end are one message each.
PLAY_CEILING = {"sqlite": 2, "postgres": 10}
#: An autocomplete of the version just played (what every keystroke asks).
SUGGEST_CEILING = 1


class CountingConnection:
    """A connection inside a transaction that counts its statements."""

    def __init__(self, inner: Connection, counter: Counting) -> None:
        self.inner = inner
        self.counter = counter

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        """Run and count one statement."""
        self.counter.trips += 1
        return await self.inner.execute(sql, parameters)

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        """Run and count one statement."""
        self.counter.trips += 1
        return await self.inner.execute_fetchall(sql, parameters)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> None:
        """Run and count one statement (sent once for all its rows)."""
        self.counter.trips += 1
        await self.inner.executemany(sql, parameters)


class Counting:
    """A backend that counts the round trips of the transactions and statements through it."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.trips = 0
        self.label = inner.label

    @asynccontextmanager
    async def write(self) -> AsyncIterator[CountingConnection]:
        """A counted write transaction (its start and its commit: two trips)."""
        self.trips += 2
        async with self.inner.write() as conn:
            yield CountingConnection(conn, self)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[CountingConnection]:
        """A counted read transaction (its start and its end: two trips)."""
        self.trips += 2
        async with self.inner.read() as conn:
            yield CountingConnection(conn, self)

    async def run_write(self, script: Script[T]) -> T:
        """A counted script in a write transaction."""
        return await self.inner.run_write(self._counted(script))

    async def run_read(self, script: Script[T]) -> T:
        """A counted script in a read transaction."""
        return await self.inner.run_read(self._counted(script))

    def _counted(self, script: Script[T]) -> Script[T]:
        # SQLite runs a whole script in one hop; PostgreSQL sends BEGIN, each statement, END
        hop = isinstance(self.inner, SqliteBackend)
        self.trips += 1 if hop else 2
        try:
            step = next(script)
            while True:
                self.trips += 0 if hop else 1
                try:
                    sent = yield step
                except Exception as error:
                    step = script.throw(error)
                else:
                    step = script.send(sent)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        """One counted statement on its own."""
        self.trips += 1
        return await self.inner.fetch(sql, parameters)

    async def backup(self, dest: Path) -> int:
        """The backend's backup."""
        return await self.inner.backup(dest)

    async def close(self) -> None:
        """Close the backend."""
        await self.inner.close()


def _counted(rooms: Rooms) -> Counting:
    repo = rooms.desk.repo
    assert isinstance(repo, GameRepository)
    counting = Counting(repo._db)
    repo._db = counting
    return counting


def test_a_step_and_its_autocomplete_take_few_round_trips(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        counting = _counted(rooms)
        first = await rooms.playing.suggest(user, "", thread_id=500)
        played = await rooms.playing.play(user, first[0], thread_id=500)
        assert played.turn is None  # a step in the middle of the turn
        counting.trips = 0
        again = await rooms.playing.suggest(user, "", thread_id=500)
        assert again and counting.trips <= SUGGEST_CEILING, counting.trips
        counting.trips = 0
        played = await rooms.playing.play(user, again[0], thread_id=500)
        assert (
            counting.trips
            <= PLAY_CEILING["sqlite" if isinstance(counting.inner, SqliteBackend) else "postgres"]
        ), counting.trips
        # the suggestions answered from memory are those a fresh read gives
        fresh = await rooms.playing.suggest(user, "", thread_id=500)
        rooms.desk.known.clear()
        assert fresh == await rooms.playing.suggest(user, "", thread_id=500)
        assert fresh[0] != again[0] or played.version > 2

    asyncio.run(with_service(tmp_path, body))


def test_autocomplete_follows_the_stored_version(tmp_path: Path) -> None:
    """What another process (or a restart) stored is what autocomplete suggests from: the
    version read is the truth, a match kept in memory is only used for that same version."""

    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        other = BO if user == ANN else ANN
        before = await rooms.playing.suggest(user, "", thread_id=500)
        # the version moves on behind the service's back (another shard, a repair ...)
        game = await rooms.desk.repo.load_game(created.game_id)
        from engine import games

        match = games.from_json(game.snapshot)
        events = match.play(before[0], seat=match.current_seat)
        assert not match.milestones(events).turn_ended
        await rooms.desk.repo.append_match(game, match, silent=True)
        after = await rooms.playing.suggest(user, "", thread_id=500)
        assert after == match.legal_actions()[: len(after)]
        assert after != before
        # a stand-in set without a new version is seen at once
        await rooms.desk.repo.set_stand_in(created.game_id, match.current_seat or 0, "away", now=1)
        refused = await rooms.playing.suggest(user, "", thread_id=500)
        assert refused == [] and refused.refusal is not None
        assert await rooms.playing.suggest(other, "", thread_id=500) == []

    asyncio.run(with_service(tmp_path, body))
