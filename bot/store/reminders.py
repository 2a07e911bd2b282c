"""The reminders part of the repository: a turn's reminders, deadline and votes."""

from __future__ import annotations

from collections.abc import Sequence

from . import queries as q
from .base import StoreBase
from .models import BankTurn, Reminder, Shards
from .rows import bank_turn_from_row, ints, only, optional_int, reminder_from_row


class RemindersPart(StoreBase):
    """The reminder schedule (times are UTC unix seconds, given by the caller's clock) and votes."""

    # -- the reminder schedule (times are UTC unix seconds, given by the caller's clock) ---------

    async def schedule_turn(
        self,
        game_id: int,
        *,
        turn: str,
        seat: int,
        user_id: int,
        deadline_at: int,
        reminders: Sequence[tuple[str, int]],
        now: int,
    ) -> int:
        """Schedule (kind, due_at) reminders for a turn once, cancel other turns'; its deadline.

        Calling it again for the same turn changes nothing and returns the first deadline.
        """
        async with self._write() as conn:
            await conn.execute(q.CANCEL_OTHER_TURNS, (now, game_id, turn))
            await conn.executemany(
                q.INSERT_REMINDER,
                [(game_id, turn, seat, user_id, kind, due, deadline_at) for kind, due in reminders],
            )
            rows = await conn.execute_fetchall(q.SELECT_TURN_DEADLINE, (game_id, turn))
        found = only(rows, "deadline_at")
        return deadline_at if found is None else int(found)

    async def turn_deadline(self, game_id: int, turn: str) -> int | None:
        """The deadline scheduled for a game's turn, if any."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_TURN_DEADLINE, (game_id, turn))
        return optional_int(only(rows, "deadline_at"))

    async def cancel_reminders(self, game_id: int, *, now: int, keep: str | None = None) -> int:
        """Cancel every unsent reminder of a game (it ended), or those of its turns other than
        ``keep``; how many."""
        sql, params = (
            (q.CANCEL_GAME_REMINDERS, (now, game_id))
            if keep is None
            else (q.CANCEL_OTHER_TURNS, (now, game_id, keep))
        )
        async with self._write() as conn:
            cursor = await conn.execute(sql, params)
            return cursor.rowcount

    async def claim_due_reminders(
        self, *, now: int, lease: int, shards: Shards | None = None
    ) -> list[Reminder]:
        """Atomically claim the due, unsent reminders for ``lease`` seconds; the claimed rows.

        A row claimed by a sender that never marked it sent is claimed again once the lease ran
        out; a row marked sent or cancelled is never returned again. With ``shards``, only the
        reminders of games in those shards' guilds.
        """
        sql, params = q.of_shards(q.CLAIM_DUE_REMINDERS, "game:game_id", shards)
        async with self._write() as conn:
            rows = await conn.execute_fetchall(sql, (now + lease, now, now, *params))
        return sorted((reminder_from_row(r) for r in rows), key=lambda r: r.id)

    async def mark_reminders_sent(self, reminder_ids: Sequence[int], *, now: int) -> int:
        """Record in one transaction that reminders were sent; how many were not already."""
        async with self._write() as conn:
            count = 0
            for reminder_id in reminder_ids:
                cursor = await conn.execute(q.MARK_REMINDER_SENT, (now, reminder_id))
                count += cursor.rowcount
            return count

    async def cancel_reminder(self, reminder_id: int, *, now: int) -> bool:
        """Cancel one unsent reminder (its turn was played); False if it was sent or cancelled."""
        async with self._write() as conn:
            cursor = await conn.execute(q.CANCEL_REMINDER, (now, reminder_id))
            return cursor.rowcount == 1

    async def standing_deadline(self, game_id: int, turn: str) -> int | None:
        """The deadline of a game's turn unless it was cancelled (the computer took over)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_STANDING_DEADLINE, (game_id, turn))
        return optional_int(only(rows, "deadline_at"))

    async def old_turn_keys(self, game_id: int) -> int | None:
        """For a game active at migration 0012: how many actions it had then (its turns that
        began after at most that many keep the old key round.seat); None for later games."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_OLD_TURN_KEYS, (game_id,))
        return optional_int(only(rows, "actions"))

    async def list_reminders(self, game_id: int) -> list[Reminder]:
        """Every reminder row of a game, in the order they were scheduled."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAME_REMINDERS, (game_id,))
        return [reminder_from_row(r) for r in rows]

    # -- the time bank (migration 0016) -------------------------------------------------------

    async def begin_bank_turn(
        self, game_id: int, *, turn: str, seat: int, available: int, now: int
    ) -> BankTurn:
        """Begin a turn of a game with a time bank once (ending its other open turns); the
        stored turn: a second call for the same turn changes nothing and returns the first."""
        async with self._write() as conn:
            await conn.execute(q.END_OTHER_BANK_TURNS, (now, game_id, turn))
            await conn.execute(q.INSERT_BANK_TURN, (game_id, turn, seat, now, available))
            rows = await conn.execute_fetchall(q.SELECT_BANK_TURNS, (game_id,))
        return next(t for t in map(bank_turn_from_row, rows) if t.turn == turn)

    async def end_bank_turns(self, game_id: int, *, now: int, keep: str | None = None) -> int:
        """End a game's open bank turns (a computer's turn began, the game ended, the next turn's
        message is on its way), all but ``keep`` if given; how many."""
        sql, params = (
            (q.END_BANK_TURNS, (now, game_id))
            if keep is None
            else (q.END_OTHER_BANK_TURNS, (now, game_id, keep))
        )
        async with self._write() as conn:
            cursor = await conn.execute(sql, params)
            return cursor.rowcount

    async def bank_turns(self, game_id: int) -> list[BankTurn]:
        """A game's bank turns, oldest first."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_BANK_TURNS, (game_id,))
        return [bank_turn_from_row(r) for r in rows]

    # -- skipping a turn at its deadline -----------------------------------------------------

    async def computer_played(self, game_id: int) -> set[int]:
        """Sequence numbers of the actions a computer played for a human seat (skipped turns)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_COMPUTER_SEQS, (game_id,))
        return set(ints(rows, "seq"))

    async def add_deadline_vote(
        self, game_id: int, turn: str, voter: int, choice: str, *, now: int
    ) -> list[int]:
        """Record a vote (once per voter and turn); the voters for that choice so far."""
        async with self._write() as conn:
            await conn.execute(q.INSERT_DEADLINE_VOTE, (game_id, turn, voter, choice, now))
            rows = await conn.execute_fetchall(q.SELECT_DEADLINE_VOTERS, (game_id, turn, choice))
        return ints(rows, "voter")
