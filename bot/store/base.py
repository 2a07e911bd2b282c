"""What every part of the repository shares: the backend, the clock, transactions and checks."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any

from . import queries as q
from .connection import Backend, Connection, Script, Step, drive, run_step
from .errors import (
    GameNotActive,
    GameNotFound,
    InvalidRequest,
    NothingToUndo,
    StaleVersion,
    StoreError,
)
from .models import GameStatus, StoredOutcome

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def dump_json(value: Mapping[str, Any] | None) -> str | None:
    """A mapping as compact, sorted JSON text (None stays None)."""
    return None if value is None else json.dumps(value, sort_keys=True, separators=(",", ":"))


def validate_outcome(outcome: StoredOutcome) -> None:
    """InvalidRequest for an outcome that lists a seat twice or ranks below 1."""
    seats = [r.seat for r in outcome.results]
    if len(set(seats)) != len(seats):
        raise InvalidRequest(f"the outcome lists a seat twice: {seats}")
    if any(r.rank < 1 for r in outcome.results):
        raise InvalidRequest("ranks start at 1")


def _check_outcome(outcome: StoredOutcome, seats: Iterable[int]) -> None:
    expected = sorted(seats)
    given = sorted(r.seat for r in outcome.results)
    if given != expected:
        raise InvalidRequest(f"the outcome must give one result per seat {expected}, got {given}")


class StoreBase:
    """The backend and the clock, with the transaction helpers every part uses."""

    def __init__(self, backend: Backend, clock: Clock = utc_now) -> None:
        self._db = backend
        self._clock = clock

    @property
    def label(self) -> str:
        """The database for messages: a file path, or a URL without its password."""
        return self._db.label

    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction: commits if the block succeeds, rolls back on any exception."""
        return self._db.write()

    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """A read transaction: every SELECT in the block sees the same committed state."""
        return self._db.read()

    async def _raise_for(
        self,
        conn: Connection,
        game_id: int,
        expected_version: int | None,
        *,
        undo: bool = False,
    ) -> None:
        """Explain why a guarded UPDATE matched no row, as a typed error."""
        await drive(conn, self._raise_for_steps(game_id, expected_version, undo=undo))

    @staticmethod
    def _raise_for_steps(
        game_id: int, expected_version: int | None, *, undo: bool = False
    ) -> Script[None]:
        """``_raise_for`` as a script."""
        rows = yield Step(q.SELECT_GAME_STATE, (game_id,))
        if not rows:
            raise GameNotFound(f"no game {game_id}", game_id=game_id)
        state = rows[0]
        version = int(state["version"])
        if expected_version is not None and version != expected_version:
            raise StaleVersion(game_id, expected_version, version)
        if state["status"] != GameStatus.ACTIVE:
            raise GameNotActive(game_id, str(state["status"]))
        if undo and state["action_count"] == 0:
            raise NothingToUndo(game_id)
        raise StoreError(f"game {game_id}: update matched no row for an unknown reason")

    @staticmethod
    async def _action_count(conn: Connection, game_id: int) -> int:
        rows = await conn.execute_fetchall(q.SELECT_ACTION_COUNT, (game_id,))
        return int(rows[0]["action_count"])

    async def _store_outcome(self, conn: Connection, game_id: int, outcome: StoredOutcome) -> None:
        await drive(conn, self._store_outcome_steps(game_id, outcome))

    @staticmethod
    def _store_outcome_steps(game_id: int, outcome: StoredOutcome) -> Script[None]:
        """``_store_outcome`` as a script."""
        seats = yield Step(q.SELECT_SEATS, (game_id,))
        _check_outcome(outcome, (int(s["seat"]) for s in seats))
        yield Step(
            q.SET_SEAT_RESULT,
            [
                (
                    r.score,
                    r.rank,
                    1 if r.winner else 0,
                    json.dumps(dict(r.lines), sort_keys=True, separators=(",", ":")),
                    game_id,
                    r.seat,
                )
                for r in outcome.results
            ],
            many=True,
        )

    @staticmethod
    def _carry_announced_step(game_id: int, old: int) -> Step:
        """A silent change's announced version carried from ``old`` to the new one, if every
        change before it was announced."""
        return Step(q.CARRY_ANNOUNCED, (old + 1, game_id, old), fetch=False)

    @staticmethod
    async def _carry_announced(conn: Connection, game_id: int, old: int) -> None:
        await run_step(conn, StoreBase._carry_announced_step(game_id, old))
