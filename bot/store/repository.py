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

from bot.league.names import name_key

from . import postgres, sqlite
from . import queries as q
from .connection import Backend, Connection, Row, Target, is_url
from .databases import retry_conflicts
from .errors import (
    GameNotActive,
    GameNotFound,
    InvalidRequest,
    LeagueNameTaken,
    LeaguePlayersMoved,
    NothingToUndo,
    RatingsMoved,
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
    LANGUAGES,
    Action,
    ActiveGame,
    AwaySeat,
    Game,
    GameStatus,
    League,
    LeaguePlayer,
    LeagueTable,
    MatchLike,
    NewLeague,
    NewSeat,
    Outcome,
    Rating,
    RatingChange,
    Reminder,
    Seat,
    Shards,
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


def _check_language(language: str | None) -> None:
    if language is not None and language not in LANGUAGES:
        raise InvalidRequest(f"language {language!r} is not one of {', '.join(LANGUAGES)}")


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
        stand_in=None if len(row) < 9 or row[8] is None else str(row[8]),
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
        snapshot=str(row[18]),
        announced_version=int(row[15]),
        turn_deadline=None if row[16] is None else int(row[16]),
        computer_takeover=bool(row[17]),
        language=None if len(row) < 20 or row[19] is None else str(row[19]),
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
        claims=int(row[11]) if len(row) > 11 else 0,
    )


def _league_from_row(row: Row) -> League:
    return League(
        id=int(row[0]),
        guild_id=int(row[1]),
        channel_id=int(row[2]),
        name=str(row[3]),
        game_key=str(row[4]),
        rounds=int(row[5]),
        table_size=int(row[6]),
        pairing=str(row[7]),
        turn_deadline=None if row[8] is None else int(row[8]),
        points=str(row[9]),
        organiser_role=None if row[10] is None else int(row[10]),
        creator_id=int(row[11]),
        status=str(row[12]),
        current_round=int(row[13]),
        posted_round=int(row[14]),
    )


def _change_from_row(row: Row) -> RatingChange:
    return RatingChange(
        int(row[0]), int(row[1]), float(row[2]), float(row[3]), float(row[4]), float(row[5])
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
        computer_takeover: bool = False,
        language: str | None = None,
    ) -> Game:
        """Store a new active game with its seats and initial snapshot (ThreadBusy if taken).

        ``computer_takeover``: at a turn's deadline the computer takes the seat over (no vote).
        ``language``: of its public messages and pictures (en, fr, it, pl; None: the server's).
        """
        if turn_deadline is not None and turn_deadline <= 0:
            raise InvalidRequest(f"a turn deadline must be positive, not {turn_deadline}")
        _check_language(language)
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
            if turn_deadline is not None or computer_takeover:
                await conn.execute(
                    q.SET_TURN_DEADLINE, (turn_deadline, int(computer_takeover), game_id)
                )
            if language is not None:
                await conn.execute(q.SET_GAME_LANGUAGE, (language, game_id))
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
            computer_takeover=computer_takeover,
            language=language,
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
        if outcome is not None:
            resigned = {s.seat for s in game.seats if s.stand_in == "resigned"}
            outcome = outcome.with_resigned_last(resigned)
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

    async def unannounced_games(self, shards: Shards | None = None) -> list[int]:
        """Ids of games (not abandoned) whose latest version still has a message to post
        (only those of the guilds of ``shards``, if given)."""
        sql, params = q.of_shards(q.SELECT_UNANNOUNCED, "guild_id", shards)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return [int(r[0]) for r in rows]

    async def unannounced_abandoned_games(self, shards: Shards | None = None) -> list[int]:
        """Ids of abandoned games whose thread has not been told yet that the game ended
        (only those of the guilds of ``shards``, if given)."""
        sql, params = q.of_shards(q.SELECT_UNANNOUNCED_ABANDONED, "guild_id", shards)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, params)
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

    async def standing_deadline(self, game_id: int, turn: str) -> int | None:
        """The deadline of a game's turn unless it was cancelled (the computer took over)."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_STANDING_DEADLINE, (game_id, turn)))
        return int(rows[0][0]) if rows else None

    async def old_turn_keys(self, game_id: int) -> int | None:
        """For a game active at migration 0012: how many actions it had then (its turns that
        began after at most that many keep the old key round.seat); None for later games."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_OLD_TURN_KEYS, (game_id,)))
        return int(rows[0][0]) if rows else None

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
            vacation_until=None if row[5] is None else int(row[5]),
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
                    settings.vacation_until,
                    now,
                ),
            )

    async def delete_user_settings(self, user_id: int) -> bool:
        """Delete a user's stored settings; False if there were none."""
        async with self._write() as conn:
            cursor = await conn.execute(q.DELETE_USER_SETTINGS, (user_id,))
            return cursor.rowcount == 1

    # -- per-server settings -----------------------------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        """The server's default language (/server language), or None if none is set."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_GUILD_LANGUAGE, (guild_id,)))
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    async def set_guild_language(
        self, guild_id: int, language: str | None, *, by: int, now: int
    ) -> None:
        """Store the server's default language (None: no default), and who set it when."""
        _check_int64("guild_id", guild_id)
        _check_int64("updated_by", by)
        _check_language(language)
        async with self._write() as conn:
            await conn.execute(q.UPSERT_GUILD_LANGUAGE, (guild_id, language, by, now))

    # -- leagues (issue 15) ----------------------------------------------------------------------

    async def create_league(self, new: NewLeague, *, now: int) -> League:
        """Store a new league open for sign-up (LeagueNameTaken if the server has that name)."""
        for name, value in (("guild_id", new.guild_id), ("creator_id", new.creator_id)):
            _check_int64(name, value)
        try:
            async with self._write() as conn:
                rows = await conn.execute_fetchall(
                    q.INSERT_LEAGUE,
                    (
                        new.guild_id,
                        new.channel_id,
                        new.name,
                        name_key(new.name),
                        new.game_key,
                        new.rounds,
                        new.table_size,
                        new.pairing,
                        new.turn_deadline,
                        new.points,
                        new.organiser_role,
                        new.creator_id,
                        now,
                    ),
                )
                league_id = int(next(iter(rows))[0])
        except sqlite.IntegrityError as exc:
            raise LeagueNameTaken(f"a league named {new.name!r} exists: {exc}") from None
        found = await self.load_league_by_id(league_id)
        assert found is not None
        return found

    async def _leagues(self, sql: str, params: Sequence[Any]) -> list[League]:
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return [_league_from_row(r) for r in rows]

    async def load_league(self, guild_id: int, name: str) -> League | None:
        """The server's league of that name: exactly, else compared by key (without case,
        compatibility forms or invisible characters), if any."""
        found = await self._leagues(q.SELECT_LEAGUE_BY_NAME, (guild_id, name, name_key(name), name))
        return found[0] if found else None

    async def load_league_by_id(self, league_id: int) -> League | None:
        """A league by id, if it exists."""
        found = await self._leagues(q.SELECT_LEAGUE_BY_ID, (league_id,))
        return found[0] if found else None

    async def list_leagues(self, guild_id: int) -> list[League]:
        """A server's leagues, by name."""
        return await self._leagues(q.SELECT_GUILD_LEAGUES, (guild_id,))

    async def running_leagues(self) -> list[League]:
        """Every league whose season is under way."""
        return await self._leagues(q.SELECT_RUNNING_LEAGUES, ())

    async def join_league(self, league_id: int, user_id: int, name: str, *, now: int) -> bool:
        """Sign a player up while sign-up is open; False if they were or it is closed."""
        _check_int64("user_id", user_id)
        async with self._write() as conn:
            cursor = await conn.execute(q.HOLD_LEAGUE, (league_id, "signup"))
            if cursor.rowcount != 1:
                return False
            cursor = await conn.execute(q.JOIN_LEAGUE, (user_id, name, now, league_id))
            return cursor.rowcount == 1

    async def leave_league(self, league_id: int, user_id: int) -> bool:
        """Remove a sign-up while sign-up is open; False if there was none or it is closed."""
        async with self._write() as conn:
            cursor = await conn.execute(q.HOLD_LEAGUE, (league_id, "signup"))
            if cursor.rowcount != 1:
                return False
            cursor = await conn.execute(q.LEAVE_LEAGUE, (league_id, user_id, league_id))
            return cursor.rowcount == 1

    async def withdraw_from_league(self, league_id: int, user_id: int) -> int | None:
        """Withdraw a player from a running league in its current round, and forfeit their
        seats from that round on whose game has not ended, at once; the round, or None if the
        league is not running or they are no playing player of it."""
        async with self._write() as conn:
            cursor = await conn.execute(q.HOLD_LEAGUE, (league_id, "running"))
            if cursor.rowcount != 1:
                return None
            rows = list(
                await conn.execute_fetchall(q.WITHDRAW_PLAYER, (league_id, league_id, user_id))
            )
            if not rows:
                return None
            round_ = int(rows[0][0])
            await conn.execute(q.HOLD_RUNNING_GAMES, (league_id, user_id, round_))
            await conn.execute(q.FORFEIT_SEATS, (league_id, user_id, round_))
            return round_

    async def league_players(self, league_id: int) -> list[LeaguePlayer]:
        """A league's players in the order they joined."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_LEAGUE_PLAYERS, (league_id,))
        return [
            LeaguePlayer(int(r[0]), str(r[1]), int(r[2]), None if r[3] is None else int(r[3]))
            for r in rows
        ]

    async def seat_league_round(
        self, league_id: int, round_: int, tables: Sequence[Sequence[int]]
    ) -> bool:
        """Store a round's tables and seats in one transaction; False if it was seated already.

        The tables must seat exactly the league's playing players, once each, as they are when
        the round is seated: LeaguePlayersMoved (nothing written) if one joined, left or
        withdrew since the tables were drawn up.
        """
        seated = [user for table in tables for user in table]
        async with self._write() as conn:
            cursor = await conn.execute(q.ADVANCE_ROUND, (round_, league_id, round_ - 1))
            if cursor.rowcount != 1:
                return False
            playing = [
                int(r[0]) for r in await conn.execute_fetchall(q.SELECT_PLAYING, (league_id,))
            ]
            if len(set(seated)) != len(seated) or set(seated) != set(playing):
                raise LeaguePlayersMoved(
                    f"league {league_id}: round {round_} seats {sorted(seated)}, "
                    f"the players are {sorted(playing)}; seat it again"
                )
            for number, table in enumerate(tables, start=1):
                await conn.execute(q.INSERT_LEAGUE_TABLE, (league_id, round_, number))
                await conn.executemany(
                    q.INSERT_LEAGUE_SEAT,
                    [(league_id, round_, number, seat, user) for seat, user in enumerate(table)],
                )
            return True

    async def league_tables(self, league_id: int) -> list[LeagueTable]:
        """Every table of a league, by round and number, with its players in seat order."""
        async with self._read() as conn:
            tables = await conn.execute_fetchall(q.SELECT_LEAGUE_TABLES, (league_id,))
            seats = await conn.execute_fetchall(q.SELECT_LEAGUE_SEATS, (league_id,))
        players: dict[tuple[int, int], list[tuple[int, bool]]] = {}
        for r in seats:
            players.setdefault((int(r[0]), int(r[1])), []).append((int(r[3]), bool(r[4])))
        found = []
        for r in tables:
            key = (int(r[0]), int(r[1]))
            seated = players.get(key, [])
            found.append(
                LeagueTable(
                    round=key[0],
                    table_no=key[1],
                    user_ids=tuple(u for u, _ in seated),
                    forfeited=tuple(u for u, f in seated if f),
                    message_id=None if r[2] is None else int(r[2]),
                    thread_id=None if r[3] is None else int(r[3]),
                    game_id=None if r[4] is None else int(r[4]),
                )
            )
        return found

    async def set_table_message(
        self, league_id: int, round_: int, table_no: int, message_id: int
    ) -> bool:
        """Record the message a table's thread starts from (once)."""
        async with self._write() as conn:
            cursor = await conn.execute(
                q.SET_TABLE_MESSAGE, (message_id, league_id, round_, table_no)
            )
            return cursor.rowcount == 1

    async def set_table_game(
        self, league_id: int, round_: int, table_no: int, thread_id: int, game_id: int
    ) -> bool:
        """Record the thread and game opened for a table (once)."""
        async with self._write() as conn:
            cursor = await conn.execute(
                q.SET_TABLE_GAME, (thread_id, game_id, league_id, round_, table_no)
            )
            return cursor.rowcount == 1

    async def league_of_game(self, game_id: int) -> int | None:
        """The league a game was played for, if any."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_LEAGUE_OF_GAME, (game_id,)))
        return int(rows[0][0]) if rows else None

    async def finish_league(self, league_id: int) -> bool:
        """Mark a running league's season over; False if it was not running."""
        async with self._write() as conn:
            cursor = await conn.execute(q.FINISH_LEAGUE, (league_id,))
            return cursor.rowcount == 1

    async def mark_round_posted(self, league_id: int, round_: int) -> bool:
        """Record that a round's standings were posted; False if they already were."""
        async with self._write() as conn:
            cursor = await conn.execute(q.MARK_ROUND_POSTED, (round_, league_id, round_))
            return cursor.rowcount == 1

    async def forfeits_of_game(self, game_id: int) -> set[int]:
        """Users whose league seat in this game is forfeited (they withdrew)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAME_FORFEITS, (game_id,))
        return {int(r[0]) for r in rows}

    # -- ratings (issue 15) ----------------------------------------------------------------------

    async def unrated_games(self) -> list[int]:
        """Finished games not rated yet, in the order they ended."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_UNRATED_GAMES, ())
        return [int(r[0]) for r in rows]

    async def latest_rated_end(self) -> datetime | None:
        """When the latest-ending rated game ended (None before any)."""
        async with self._read() as conn:
            rows = list(await conn.execute_fetchall(q.SELECT_LATEST_RATED_END, ()))
        return None if not rows or rows[0][0] is None else parse_time(rows[0][0])

    async def game_ratings(self, guild_id: int, game_key: str) -> list[Rating]:
        """Every rating of one game on one server."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAME_RATINGS, (guild_id, game_key))
        return [Rating(int(r[0]), float(r[1]), float(r[2]), int(r[3])) for r in rows]

    async def record_ratings(
        self, game_id: int, guild_id: int, game_key: str, changes: Sequence[RatingChange]
    ) -> bool:
        """Mark a game rated and store its rating changes, at once; False if it was rated.

        RatingsMoved (nothing written) if a player's stored rating is no longer the one the
        changes start from: another process rated a game of theirs meanwhile."""
        async with self._write() as conn:
            cursor = await conn.execute(q.CLAIM_RATED_GAME, (game_id,))
            if cursor.rowcount != 1:
                return False
            for c in changes:
                rows = await conn.execute_fetchall(
                    q.SELECT_PLAYER_RATING, (guild_id, game_key, c.user_id)
                )
                for mu, sigma in rows:
                    if (float(mu), float(sigma)) != (c.mu_before, c.sigma_before):
                        raise RatingsMoved(f"game {game_id}: ratings moved; rate it again")
            for c in changes:
                await conn.execute(q.UPSERT_RATING, (guild_id, game_key, c.user_id, c.mu, c.sigma))
                await conn.execute(
                    q.INSERT_RATING_HISTORY,
                    (
                        game_id,
                        c.user_id,
                        guild_id,
                        game_key,
                        c.mu_before,
                        c.sigma_before,
                        c.mu,
                        c.sigma,
                    ),
                )
            return True

    async def rating_history(
        self, guild_id: int, game_key: str, user_id: int
    ) -> list[RatingChange]:
        """A player's rating changes in one game on one server, oldest first."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                q.SELECT_RATING_HISTORY, (guild_id, game_key, user_id)
            )
        return [_change_from_row(r) for r in rows]

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """The rating changes one game made."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAMES_HISTORY, (game_id,))
        return [_change_from_row(r) for r in rows]

    async def rated_game_keys(self, guild_id: int, user_id: int) -> list[str]:
        """The games a player has a rating in on a server, most played first."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_PLAYER_GAME_KEYS, (guild_id, user_id))
        return [str(r[0]) for r in rows]

    async def all_ratings(self) -> list[tuple[int, str, Rating]]:
        """Every rating: (guild, game, rating), in a stable order."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_ALL_RATINGS, ())
        return [
            (int(r[0]), str(r[1]), Rating(int(r[2]), float(r[3]), float(r[4]), int(r[5])))
            for r in rows
        ]

    async def clear_ratings(self) -> None:
        """Forget every rating, change and rated mark (before rating every game again)."""
        async with self._write() as conn:
            for sql in (q.DELETE_RATING_HISTORY, q.DELETE_RATED_GAMES, q.DELETE_RATINGS):
                await conn.execute(sql, ())

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
        self, game_id: int, seat: int, expected_version: int, outcome: Outcome, *, now: int
    ) -> int:
        """Mark a seat resigned and finish the game with ``outcome``, in one transaction."""
        _validate_outcome(outcome)
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
        return [AwaySeat(int(r[0]), int(r[1]), int(r[2])) for r in rows]

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
        return {int(r[0]) for r in rows}

    async def computer_due_games(self, *, now: int, shards: Shards | None = None) -> list[int]:
        """Active games whose seat to act the computer plays (computer, stand-in, vacation);
        with ``shards``, only those of the guilds of these shards."""
        sql, params = q.of_shards(q.SELECT_COMPUTER_DUE, "g.guild_id", shards)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, (now, *params))
        return [int(r[0]) for r in rows]

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
