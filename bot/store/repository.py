"""The async repository the bot uses: games, seats, the action log and snapshots."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from . import postgres, sqlite
from . import queries as q
from .connection import Backend, Connection, Row, Target, is_url, retry_conflicts
from .errors import (
    GameNotActive,
    GameNotFound,
    InvalidRequest,
    NothingToUndo,
    StaleVersion,
    StoreError,
    ThreadBusy,
)
from .migrate import (
    migrate_database,
    migrate_postgres,
    require_current,
    require_current_postgres,
)
from .models import (
    Action,
    ActiveGame,
    Game,
    GameStatus,
    MatchLike,
    NewSeat,
    Outcome,
    Reminder,
    Seat,
    UserSettings,
)

Clock = Callable[[], datetime]

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


def utc_now() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def format_time(moment: datetime) -> str:
    """Store a time as sortable ISO-8601 UTC text with microseconds and a ``Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str) -> datetime:
    """Read a time written by :func:`format_time`."""
    return datetime.fromisoformat(text)


def _dump_json(value: Mapping[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, separators=(",", ":"))


def _check_int64(name: str, value: int) -> None:
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise InvalidRequest(f"{name} {value} does not fit in a signed 64-bit integer")


def _seat_from_row(row: Row) -> Seat:
    lines = None if row[7] is None else json.loads(row[7])
    return Seat(
        seat=int(row[0]),
        user_id=int(row[1]),
        player=str(row[2]),
        colour=str(row[3]),
        final_score=None if row[4] is None else int(row[4]),
        final_rank=None if row[5] is None else int(row[5]),
        winner=None if row[6] is None else bool(row[6]),
        score_lines=None if lines is None else {str(k): int(v) for k, v in lines.items()},
    )


def _action_from_row(row: Row) -> Action:
    return Action(
        seq=int(row[0]), seat=int(row[1]), notation=str(row[2]), created_at=parse_time(row[3])
    )


def _game_from_row(row: Row, seats: Iterable[Row]) -> Game:
    return Game(
        id=int(row[0]),
        guild_id=int(row[1]),
        channel_id=int(row[2]),
        thread_id=int(row[3]),
        game_key=str(row[4]),
        options=None if row[5] is None else json.loads(row[5]),
        seed=int(row[6]),
        status=GameStatus(row[7]),
        version=int(row[8]),
        action_count=int(row[9]),
        current_seat=None if row[10] is None else int(row[10]),
        end_reason=row[11],
        created_at=parse_time(row[12]),
        updated_at=parse_time(row[13]),
        ended_at=None if row[14] is None else parse_time(row[14]),
        seats=tuple(_seat_from_row(s) for s in seats),
        snapshot=str(row[17]),
        announced_version=int(row[15]),
        turn_deadline=None if row[16] is None else int(row[16]),
    )


def _reminder_from_row(row: Row) -> Reminder:
    extra = [None if v is None else int(v) for v in row[8:11]]
    extra += [None] * (3 - len(extra))
    return Reminder(
        id=int(row[0]),
        game_id=int(row[1]),
        turn=str(row[2]),
        seat=int(row[3]),
        user_id=int(row[4]),
        kind=str(row[5]),
        due_at=int(row[6]),
        deadline_at=int(row[7]),
        claimed_until=extra[0],
        sent_at=extra[1],
        cancelled_at=extra[2],
    )


def _validate_outcome(outcome: Outcome) -> None:
    seats = [r.seat for r in outcome.results]
    if len(set(seats)) != len(seats):
        raise InvalidRequest(f"the outcome lists a seat twice: {seats}")
    if any(r.rank < 1 for r in outcome.results):
        raise InvalidRequest("ranks start at 1")


def _check_outcome(outcome: Outcome, seats: Iterable[int]) -> None:
    expected = sorted(seats)
    given = sorted(r.seat for r in outcome.results)
    if given != expected:
        raise InvalidRequest(f"the outcome must give one result per seat {expected}, got {given}")


@retry_conflicts
class GameRepository:
    """Async access to stored games on SQLite or PostgreSQL (the backend does the dialect)."""

    def __init__(self, backend: Backend, clock: Clock = utc_now) -> None:
        self._db = backend
        self._clock = clock

    @property
    def label(self) -> str:
        """The database for messages: a file path, or a URL without its password."""
        return self._db.label

    @classmethod
    async def connect(
        cls, target: Target, *, clock: Clock = utc_now, migrations_dir: Path | None = None
    ) -> GameRepository:
        """Open an existing, fully migrated database (no schema changes)."""
        if is_url(target):
            url = str(target)
            await require_current_postgres(url, migrations_dir)
            return cls(await postgres.PostgresBackend.open(url), clock)
        path = Path(target)
        await asyncio.to_thread(require_current, path, migrations_dir)
        return cls(await sqlite.SqliteBackend.open(path), clock)

    async def close(self) -> None:
        """Close the database connections (waits for a running transaction to finish)."""
        await self._db.close()

    async def __aenter__(self) -> GameRepository:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- transactions -------------------------------------------------------------------------

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
        rows = list(await conn.execute_fetchall(q.SELECT_GAME_STATE, (game_id,)))
        if not rows:
            raise GameNotFound(f"no game {game_id}", game_id=game_id)
        status, version, action_count = rows[0]
        if expected_version is not None and version != expected_version:
            raise StaleVersion(game_id, expected_version, int(version))
        if status != GameStatus.ACTIVE:
            raise GameNotActive(game_id, str(status))
        if undo and action_count == 0:
            raise NothingToUndo(game_id)
        raise StoreError(f"game {game_id}: update matched no row for an unknown reason")

    @staticmethod
    async def _action_count(conn: Connection, game_id: int) -> int:
        rows = await conn.execute_fetchall(q.SELECT_ACTION_COUNT, (game_id,))
        return int(next(iter(rows))[0])

    async def _store_outcome(self, conn: Connection, game_id: int, outcome: Outcome) -> None:
        seats = await conn.execute_fetchall(q.SELECT_SEATS, (game_id,))
        _check_outcome(outcome, (int(s[0]) for s in seats))
        await conn.executemany(
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
        )

    # -- games ----------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int,
        game_key: str,
        seed: int,
        options: Mapping[str, Any] | None,
        seats: Sequence[NewSeat],
        snapshot: str,
        current_seat: int | None,
        turn_deadline: int | None = None,
    ) -> Game:
        """Store a new active game with its seats and initial snapshot (ThreadBusy if taken)."""
        if turn_deadline is not None and turn_deadline <= 0:
            raise InvalidRequest(f"a turn deadline must be positive, not {turn_deadline}")
        for name, value in (
            ("guild_id", guild_id),
            ("channel_id", channel_id),
            ("thread_id", thread_id),
            ("seed", seed),
        ):
            _check_int64(name, value)
        numbers = [s.seat for s in seats]
        if numbers != list(range(len(seats))) or not seats:
            raise InvalidRequest(f"seats must be numbered 0..n-1 in order, got {numbers}")
        if len({s.colour for s in seats}) != len(seats):
            raise InvalidRequest("each seat needs its own colour")
        if current_seat is not None and current_seat not in numbers:
            raise InvalidRequest(f"current seat {current_seat} is not one of the seats")
        options_json = _dump_json(options)
        now = self._clock()
        stamp = format_time(now)
        async with self._write() as conn:
            try:
                rows = await conn.execute_fetchall(
                    q.INSERT_GAME,
                    (
                        guild_id,
                        channel_id,
                        thread_id,
                        game_key,
                        options_json,
                        seed,
                        current_seat,
                        stamp,
                        stamp,
                    ),
                )
            except sqlite.IntegrityError as exc:
                busy = list(
                    await conn.execute_fetchall(q.SELECT_ACTIVE_GAME_ID_BY_THREAD, (thread_id,))
                )
                if busy:
                    raise ThreadBusy(thread_id, int(busy[0][0])) from exc
                raise InvalidRequest(f"cannot create game: {exc}") from exc
            game_id = int(next(iter(rows))[0])
            if turn_deadline is not None:
                await conn.execute(q.SET_TURN_DEADLINE, (turn_deadline, game_id))
            await conn.executemany(
                q.INSERT_SEAT,
                [(game_id, s.seat, s.user_id, s.player, s.colour) for s in seats],
            )
            await conn.execute(q.INSERT_SNAPSHOT, (game_id, snapshot))
        return Game(
            id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            game_key=game_key,
            options=None if options_json is None else json.loads(options_json),
            seed=seed,
            status=GameStatus.ACTIVE,
            version=1,
            action_count=0,
            current_seat=current_seat,
            end_reason=None,
            created_at=parse_time(stamp),
            updated_at=parse_time(stamp),
            ended_at=None,
            seats=tuple(Seat(s.seat, s.user_id, s.player, s.colour) for s in seats),
            snapshot=snapshot,
            turn_deadline=turn_deadline,
        )

    async def load_game(self, game_id: int) -> Game:
        """The game with this id, read from its snapshot (GameNotFound if none)."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_GAME_BY_ID, (game_id,)))
            if not rows:
                raise GameNotFound(f"no game {game_id}", game_id=game_id)
            seats = await conn.execute_fetchall(q.SELECT_SEATS, (game_id,))
        return _game_from_row(rows[0], seats)

    async def load_game_by_thread(self, thread_id: int) -> Game:
        """The active game in this thread (GameNotFound if the thread has none)."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_ACTIVE_GAME_BY_THREAD, (thread_id,)))
            if not rows:
                raise GameNotFound(f"no active game in thread {thread_id}", thread_id=thread_id)
            seats = await conn.execute_fetchall(q.SELECT_SEATS, (int(rows[0][0]),))
        return _game_from_row(rows[0], seats)

    async def load_latest_game_by_thread(self, thread_id: int) -> Game:
        """The thread's most recent game, whatever its status (GameNotFound if none)."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_LATEST_GAME_BY_THREAD, (thread_id,)))
            if not rows:
                raise GameNotFound(f"no game in thread {thread_id}", thread_id=thread_id)
            seats = await conn.execute_fetchall(q.SELECT_SEATS, (int(rows[0][0]),))
        return _game_from_row(rows[0], seats)

    async def list_active_games(self, user_id: int) -> list[ActiveGame]:
        """A user's active games, oldest activity first, with whose turn it is."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_USER_ACTIVE_GAMES, (user_id,))
        games: dict[int, ActiveGame] = {}
        for row in rows:
            game_id = int(row[0])
            known = games.get(game_id)
            if known is not None:
                games[game_id] = replace(known, my_seats=(*known.my_seats, int(row[8])))
                continue
            games[game_id] = ActiveGame(
                game_id=game_id,
                guild_id=int(row[1]),
                channel_id=int(row[2]),
                thread_id=int(row[3]),
                game_key=str(row[4]),
                version=int(row[5]),
                current_seat=None if row[6] is None else int(row[6]),
                current_user_id=None if row[7] is None else int(row[7]),
                my_seats=(int(row[8]),),
                updated_at=parse_time(row[9]),
            )
        return list(games.values())

    async def load_actions(self, game_id: int) -> list[Action]:
        """The game's whole action log in order (for replays and history, not for loading)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_ACTIONS, (game_id,))
        return [_action_from_row(r) for r in rows]

    async def load_game_with_actions(self, game_id: int) -> tuple[Game, list[Action]]:
        """The game and its whole log, read together in one consistent transaction."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_GAME_BY_ID, (game_id,)))
            if not rows:
                raise GameNotFound(f"no game {game_id}", game_id=game_id)
            seats = await conn.execute_fetchall(q.SELECT_SEATS, (game_id,))
            actions = await conn.execute_fetchall(q.SELECT_ACTIONS, (game_id,))
        return _game_from_row(rows[0], seats), [_action_from_row(r) for r in actions]

    async def game_ids(self) -> list[int]:
        """Every stored game id, ascending."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_ALL_GAME_IDS, ())
        return [int(r[0]) for r in rows]

    # -- changes (optimistic: each takes the version the caller read) ---------------------------

    async def append_actions(
        self,
        game_id: int,
        expected_version: int,
        actions: Sequence[tuple[int, str]],
        snapshot: str,
        *,
        current_seat: int | None,
        outcome: Outcome | None = None,
        silent: bool = False,
        by_computer: bool = False,
    ) -> int:
        """Append (seat, notation) actions and the new snapshot, all or nothing; new version.

        With ``outcome`` the game is also finished in the same transaction. ``silent``: the
        change has no thread message of its own (announced at once if everything before was).
        ``by_computer``: a computer played these actions for a human seat (a skipped turn).
        Raises StaleVersion if the game is no longer at ``expected_version``.
        """
        if not actions:
            raise InvalidRequest("nothing to append")
        if outcome is not None:
            _validate_outcome(outcome)
        stamp = format_time(self._clock())
        async with self._write() as conn:
            cursor = await conn.execute(
                q.BUMP_FOR_APPEND,
                (len(actions), current_seat, stamp, game_id, expected_version),
            )
            if cursor.rowcount != 1:
                await self._raise_for(conn, game_id, expected_version)
            count = await self._action_count(conn, game_id)
            first = count - len(actions) + 1
            try:
                await conn.executemany(
                    q.INSERT_ACTION,
                    [
                        (game_id, first + i, seat, notation, stamp)
                        for i, (seat, notation) in enumerate(actions)
                    ],
                )
            except sqlite.IntegrityError as exc:
                raise InvalidRequest(f"game {game_id}: cannot append {actions}: {exc}") from exc
            if by_computer:
                await conn.execute(q.MARK_BY_COMPUTER, (game_id, first, count))
            await conn.execute(q.UPDATE_SNAPSHOT, (snapshot, game_id))
            if outcome is not None:
                await conn.execute(q.FINISH_AFTER_APPEND, (outcome.end_reason, stamp, game_id))
                await self._store_outcome(conn, game_id, outcome)
            if silent:
                await self._carry_announced(conn, game_id, expected_version)
        return expected_version + 1

    @staticmethod
    async def _carry_announced(conn: Connection, game_id: int, old: int) -> None:
        await conn.execute(q.CARRY_ANNOUNCED, (old + 1, game_id, old))

    async def append_match(
        self, game: Game, match: MatchLike, *, silent: bool = False, by_computer: bool = False
    ) -> int:
        """Save a match loaded from ``game`` after it played: its new log tail, snapshot, end."""
        log_tail = list(match.log[game.action_count :])
        outcome = None if match.outcome is None else Outcome.from_engine(match.outcome)
        return await self.append_actions(
            game.id,
            game.version,
            log_tail,
            match.to_json(),
            current_seat=match.current_seat,
            outcome=outcome,
            silent=silent,
            by_computer=by_computer,
        )

    async def undo_last(
        self, game_id: int, expected_version: int, snapshot: str, *, current_seat: int | None
    ) -> int:
        """Remove the last logged action and store the snapshot without it; new version.

        An undo never has a thread message: it is announced if everything before it was.
        """
        stamp = format_time(self._clock())
        async with self._write() as conn:
            cursor = await conn.execute(
                q.BUMP_FOR_UNDO, (current_seat, stamp, game_id, expected_version)
            )
            if cursor.rowcount != 1:
                await self._raise_for(conn, game_id, expected_version, undo=True)
            count = await self._action_count(conn, game_id)
            cursor = await conn.execute(q.DELETE_ACTION, (game_id, count + 1))
            if cursor.rowcount != 1:
                raise StoreError(f"game {game_id}: action {count + 1} is missing from the log")
            await conn.execute(q.UPDATE_SNAPSHOT, (snapshot, game_id))
            await self._carry_announced(conn, game_id, expected_version)
        return expected_version + 1

    async def finish_game(
        self,
        game_id: int,
        expected_version: int,
        outcome: Outcome,
        *,
        snapshot: str | None = None,
    ) -> int:
        """Mark the game finished with one result per seat (score, rank, winner); new version."""
        _validate_outcome(outcome)
        stamp = format_time(self._clock())
        async with self._write() as conn:
            cursor = await conn.execute(
                q.FINISH_GAME, (outcome.end_reason, stamp, stamp, game_id, expected_version)
            )
            if cursor.rowcount != 1:
                await self._raise_for(conn, game_id, expected_version)
            await self._store_outcome(conn, game_id, outcome)
            if snapshot is not None:
                await conn.execute(q.UPDATE_SNAPSHOT, (snapshot, game_id))
        return expected_version + 1

    async def abandon_game(
        self, game_id: int, *, expected_version: int | None = None, reason: str = "abandoned"
    ) -> int:
        """Mark an active game abandoned, freeing its thread; new version."""
        stamp = format_time(self._clock())
        async with self._write() as conn:
            if expected_version is None:
                cursor = await conn.execute(q.ABANDON_GAME, (reason, stamp, stamp, game_id))
            else:
                cursor = await conn.execute(
                    q.ABANDON_GAME_AT_VERSION, (reason, stamp, stamp, game_id, expected_version)
                )
            if cursor.rowcount != 1:
                await self._raise_for(conn, game_id, expected_version)
            rows = await conn.execute_fetchall(q.SELECT_GAME_STATE, (game_id,))
        return int(next(iter(rows))[1])

    # -- the outbox of thread messages ------------------------------------------------------------

    async def unannounced_games(self) -> list[int]:
        """Ids of games (not abandoned) whose latest version still has a message to post."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_UNANNOUNCED, ())
        return [int(r[0]) for r in rows]

    async def unannounced_abandoned_games(self) -> list[int]:
        """Ids of abandoned games whose thread has not been told yet that the game ended."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_UNANNOUNCED_ABANDONED, ())
        return [int(r[0]) for r in rows]

    async def mark_announced(self, game_id: int, version: int) -> bool:
        """Record that ``version``'s message was posted; False if that changed nothing."""
        async with self._write() as conn:
            cursor = await conn.execute(q.MARK_ANNOUNCED, (version, game_id, version, version))
            return cursor.rowcount == 1

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
            rows = list(await conn.execute_fetchall(q.SELECT_TURN_DEADLINE, (game_id, turn)))
        found = rows[0][0] if rows else None
        return deadline_at if found is None else int(found)

    async def turn_deadline(self, game_id: int, turn: str) -> int | None:
        """The deadline scheduled for a game's turn, if any."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_TURN_DEADLINE, (game_id, turn)))
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def cancel_reminders(self, game_id: int, *, now: int) -> int:
        """Cancel every unsent reminder of a game (it ended); how many."""
        async with self._write() as conn:
            cursor = await conn.execute(q.CANCEL_GAME_REMINDERS, (now, game_id))
            return cursor.rowcount

    async def claim_due_reminders(self, *, now: int, lease: int) -> list[Reminder]:
        """Atomically claim the due, unsent reminders for ``lease`` seconds; the claimed rows.

        A row claimed by a sender that never marked it sent is claimed again once the lease ran
        out; a row marked sent or cancelled is never returned again.
        """
        async with self._write() as conn:
            rows = await conn.execute_fetchall(q.CLAIM_DUE_REMINDERS, (now + lease, now, now))
        return sorted((_reminder_from_row(r) for r in rows), key=lambda r: r.id)

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

    async def latest_deadline(self, game_id: int) -> tuple[int, int] | None:
        """(seat, deadline) of the game's latest scheduled turn, unless it was cancelled."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_LATEST_DEADLINE, (game_id,)))
        if not rows or rows[0][2] is not None:
            return None
        return int(rows[0][0]), int(rows[0][1])

    async def list_reminders(self, game_id: int) -> list[Reminder]:
        """Every reminder row of a game, in the order they were scheduled."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAME_REMINDERS, (game_id,))
        return [_reminder_from_row(r) for r in rows]

    # -- skipping a turn at its deadline -----------------------------------------------------

    async def computer_played(self, game_id: int) -> set[int]:
        """Sequence numbers of the actions a computer played for a human seat (skipped turns)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_COMPUTER_SEQS, (game_id,))
        return {int(r[0]) for r in rows}

    async def add_deadline_vote(
        self, game_id: int, turn: str, voter: int, choice: str, *, now: int
    ) -> list[int]:
        """Record a vote (once per voter and turn); the voters for that choice so far."""
        async with self._write() as conn:
            await conn.execute(q.INSERT_DEADLINE_VOTE, (game_id, turn, voter, choice, now))
            rows = await conn.execute_fetchall(q.SELECT_DEADLINE_VOTERS, (game_id, turn, choice))
        return [int(r[0]) for r in rows]

    # -- per-user settings -------------------------------------------------------------------

    async def load_user_settings(self, user_id: int) -> UserSettings | None:
        """A user's stored settings, or None if they never set any."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_USER_SETTINGS, (user_id,)))
        if not rows:
            return None
        row = rows[0]
        return UserSettings(
            user_id=int(row[0]),
            notify=str(row[1]),
            time_zone=None if row[2] is None else str(row[2]),
            quiet_start=None if row[3] is None else int(row[3]),
            quiet_end=None if row[4] is None else int(row[4]),
        )

    async def save_user_settings(self, settings: UserSettings, *, now: int) -> None:
        """Store a user's settings (replacing what was stored)."""
        _check_int64("user_id", settings.user_id)
        async with self._write() as conn:
            await conn.execute(
                q.UPSERT_USER_SETTINGS,
                (
                    settings.user_id,
                    settings.notify,
                    settings.time_zone,
                    settings.quiet_start,
                    settings.quiet_end,
                    now,
                ),
            )

    async def delete_user_settings(self, user_id: int) -> bool:
        """Delete a user's stored settings; False if there were none."""
        async with self._write() as conn:
            cursor = await conn.execute(q.DELETE_USER_SETTINGS, (user_id,))
            return cursor.rowcount == 1

    # -- maintenance ----------------------------------------------------------------------------

    async def repair_snapshot(
        self, game_id: int, expected_version: int, snapshot: str, *, current_seat: int | None
    ) -> None:
        """Replace a snapshot rebuilt from the log, in one transaction (StaleVersion if moved).

        The version stays: the log, which the version counts, did not change.
        """
        async with self._write() as conn:
            cursor = await conn.execute(q.REPAIR_GAME, (current_seat, game_id, expected_version))
            if cursor.rowcount != 1:
                await self._raise_for(conn, game_id, expected_version)
            await conn.execute(q.UPDATE_SNAPSHOT, (snapshot, game_id))

    async def backup(self, dest: Path | str) -> int:
        """Write a consistent copy of the database to ``dest`` while the bot runs.

        SQLite: the online backup API, returns the pages copied; PostgreSQL: ``pg_dump``,
        returns the bytes written.
        """
        return await self._db.backup(Path(dest))


async def open_store(
    target: Target, *, migrations_dir: Path | None = None, clock: Clock = utc_now
) -> GameRepository:
    """Create the schema if needed, apply pending migrations, return the repository.

    ``target`` is a SQLite file (created with its folder if missing) or a ``postgresql://``
    URL of an existing database.
    """
    if is_url(target):
        await migrate_postgres(str(target), migrations_dir)
    else:
        await asyncio.to_thread(migrate_database, Path(target), migrations_dir)
    return await GameRepository.connect(target, clock=clock, migrations_dir=migrations_dir)
