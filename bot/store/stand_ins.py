"""The stand-ins part of the repository: absent players, resignations, vacations."""

from __future__ import annotations

from collections.abc import Sequence

from . import queries as q
from .base import StoreBase, validate_outcome
from .errors import InvalidRequest
from .models import AwaySeat, Shards, StoredOutcome
from .rows import away_seat_from_row, format_time, ints


class StandInsPart(StoreBase):
    """Seats the computer plays for their player: away, resigned, on vacation."""

    # -- stand-ins: absent players and resignations ------------------------------------------

    async def set_stand_in(self, game_id: int, seat: int, stand_in: str, *, now: int) -> bool:
        """Let the computer play a human seat of an active game ("away" or "resigned").

        A resigned seat stays resigned; False if nothing changed (not active, not human).
        """
        if stand_in not in ("away", "resigned"):
            raise InvalidRequest(f"unknown stand-in {stand_in!r}")
        async with self._write() as conn:
            cursor = await conn.execute(q.SET_STAND_IN, (stand_in, now, game_id, seat))
            return cursor.rowcount == 1

    async def hand_over(self, game_id: int, seat: int, *, now: int) -> bool:
        """Hand a human seat the computer does not play yet to it ("away"), atomically: True
        only for the call that changed it (of simultaneous ones, exactly one)."""
        async with self._write() as conn:
            cursor = await conn.execute(q.HAND_OVER, (now, game_id, seat))
            return cursor.rowcount == 1

    async def resign_and_finish(
        self, game_id: int, seat: int, expected_version: int, outcome: StoredOutcome, *, now: int
    ) -> int:
        """Mark a seat resigned and finish the game with ``outcome``, in one transaction."""
        validate_outcome(outcome)
        stamp = format_time(self._clock())
        async with self._write() as conn:
            cursor = await conn.execute(q.SET_STAND_IN, ("resigned", now, game_id, seat))
            if cursor.rowcount != 1:
                await self._raise_for(conn, game_id, expected_version)
            cursor = await conn.execute(
                q.FINISH_GAME, (outcome.end_reason, stamp, stamp, game_id, expected_version)
            )
            if cursor.rowcount != 1:
                await self._raise_for(conn, game_id, expected_version)
            await self._store_outcome(conn, game_id, outcome)
        return expected_version + 1

    async def away_seats(self, user_id: int) -> list[AwaySeat]:
        """The user's seats the computer plays until they come back, in active games."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_AWAY_SEATS, (user_id,))
        return [away_seat_from_row(r) for r in rows]

    async def clear_away(self, seats: Sequence[AwaySeat], *, now: int) -> list[AwaySeat]:
        """Give away seats back to their players (one transaction); those that were away."""
        back = []
        async with self._write() as conn:
            for away in seats:
                cursor = await conn.execute(q.CLEAR_AWAY, (now, away.game_id, away.seat))
                if cursor.rowcount == 1:
                    back.append(away)
        return back

    async def vacationers(self, game_id: int, *, now: int) -> set[int]:
        """The users of a game who are on vacation at ``now``."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_VACATIONERS, (game_id, now))
        return set(ints(rows, "user_id"))

    async def computer_due_games(self, *, now: int, shards: Shards | None = None) -> list[int]:
        """Active games whose seat to act the computer plays (computer, stand-in, vacation);
        with ``shards``, only those of the guilds of these shards."""
        sql, params = q.of_shards(q.SELECT_COMPUTER_DUE, "g.guild_id", shards)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, (now, *params))
        return ints(rows, "id")
