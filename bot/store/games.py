"""The games part of the repository: games, seats, the action log and snapshots."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from . import queries as q
from . import sqlite
from .base import StoreBase, dump_json, validate_outcome
from .connection import Script, Step
from .errors import GameNotFound, InvalidRequest, StoreError, ThreadBusy
from .models import (
    DEFAULT_SETTINGS,
    Action,
    ActiveGame,
    Game,
    GameSettings,
    GameStatus,
    MatchLike,
    NewSeat,
    PlayerGame,
    Seat,
    StoredOutcome,
    check_int64,
)
from .rows import (
    action_from_row,
    active_game_from_row,
    format_time,
    game_from_row,
    game_with_seats_from_rows,
    ints,
    only,
    parse_time,
    player_game_from_row,
)
from .snapshots import log_left_out, with_log, without_log


class GamesPart(StoreBase):
    """Games and their action logs: create, load, append, undo, finish, abandon, repair."""

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
        settings: GameSettings = DEFAULT_SETTINGS,
    ) -> Game:
        """Store a new active game with its seats, ``settings`` and initial snapshot, in one
        INSERT of the game's row (ThreadBusy if the thread is taken)."""
        for name, value in (
            ("guild_id", guild_id),
            ("channel_id", channel_id),
            ("thread_id", thread_id),
            ("seed", seed),
        ):
            check_int64(name, value)
        numbers = [s.seat for s in seats]
        if numbers != list(range(len(seats))) or not seats:
            raise InvalidRequest(f"seats must be numbered 0..n-1 in order, got {numbers}")
        if len({s.colour for s in seats}) != len(seats):
            raise InvalidRequest("each seat needs its own colour")
        if current_seat is not None and current_seat not in numbers:
            raise InvalidRequest(f"current seat {current_seat} is not one of the seats")
        options_json = dump_json(options)
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
                        settings.turn_deadline,
                        int(settings.computer_takeover),
                        settings.language,
                        settings.computer_level,
                        int(settings.coach),
                        settings.time_bank,
                        settings.stored_increment,
                    ),
                )
            except sqlite.IntegrityError as exc:
                busy = only(
                    await conn.execute_fetchall(q.SELECT_ACTIVE_GAME_ID_BY_THREAD, (thread_id,)),
                    "id",
                )
                if busy is not None:
                    raise ThreadBusy(thread_id, int(busy)) from exc
                raise InvalidRequest(f"cannot create game: {exc}") from exc
            game_id = int(rows[0]["id"])
            await conn.executemany(
                q.INSERT_SEAT,
                [(game_id, s.seat, s.user_id, s.player, s.colour) for s in seats],
            )
            await conn.execute(q.INSERT_SNAPSHOT, (game_id, without_log(snapshot)))
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
            turn_deadline=settings.turn_deadline,
            computer_takeover=settings.computer_takeover,
            language=settings.language,
            computer_level=settings.computer_level,
            coach=settings.coach,
            time_bank=settings.time_bank,
            time_increment=settings.stored_increment,
        )

    async def load_game(self, game_id: int) -> Game:
        """The game with this id, read from its snapshot (GameNotFound if none)."""
        return await self._db.run_read(
            _one_game_steps(
                q.SELECT_GAME_WITH_SEATS_BY_ID,
                game_id,
                lambda: GameNotFound(f"no game {game_id}", game_id=game_id),
            )
        )

    async def load_game_by_thread(self, thread_id: int) -> Game:
        """The active game in this thread (GameNotFound if the thread has none)."""
        return await self._db.run_read(
            _one_game_steps(
                q.SELECT_ACTIVE_GAME_WITH_SEATS_BY_THREAD,
                thread_id,
                lambda: GameNotFound(f"no active game in thread {thread_id}", thread_id=thread_id),
            )
        )

    async def load_latest_game_by_thread(self, thread_id: int) -> Game:
        """The thread's most recent game, whatever its status (GameNotFound if none)."""
        return await self._db.run_read(
            _one_game_steps(
                q.SELECT_LATEST_GAME_WITH_SEATS_BY_THREAD,
                thread_id,
                lambda: GameNotFound(f"no game in thread {thread_id}", thread_id=thread_id),
            )
        )

    async def latest_game_head_by_thread(self, thread_id: int) -> Game:
        """The thread's most recent game without its snapshot (``snapshot`` is empty), in one
        statement: its version, status and seats (GameNotFound if none)."""
        rows = await self._db.fetch(q.SELECT_LATEST_GAME_HEAD_BY_THREAD, (thread_id,))
        if not rows:
            raise GameNotFound(f"no game in thread {thread_id}", thread_id=thread_id)
        return game_with_seats_from_rows(rows)

    async def list_active_games(self, user_id: int) -> list[ActiveGame]:
        """A user's active games, oldest activity first, with whose turn it is."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_USER_ACTIVE_GAMES, (user_id,))
        games: dict[int, ActiveGame] = {}
        for row in rows:
            game_id = int(row["id"])
            known = games.get(game_id)
            if known is not None:
                games[game_id] = replace(known, my_seats=(*known.my_seats, int(row["my_seat"])))
                continue
            games[game_id] = active_game_from_row(row)
        return list(games.values())

    async def list_guild_games(self, guild_id: int, limit: int) -> list[ActiveGame]:
        """A server's active games, the ``limit`` most recently active first (no seat is
        "mine": ``my_seats`` is empty)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GUILD_ACTIVE_GAMES, (guild_id, limit))
        return [active_game_from_row(row) for row in rows]

    async def player_games(
        self, guild_id: int | None, user_id: int, limit: int
    ) -> list[PlayerGame]:
        """A user's seats in a server's games (None: every server's) of any status, the
        ``limit`` newest first."""
        async with self._read() as conn:
            if guild_id is None:
                rows = await conn.execute_fetchall(q.SELECT_PLAYER_GAMES_ANYWHERE, (user_id, limit))
            else:
                rows = await conn.execute_fetchall(
                    q.SELECT_PLAYER_GAMES, (user_id, guild_id, limit)
                )
        return [player_game_from_row(row) for row in rows]

    async def load_actions(self, game_id: int) -> list[Action]:
        """The game's whole action log in order (for replays and history, not for loading)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_ACTIONS, (game_id,))
        return [action_from_row(r) for r in rows]

    async def load_game_with_actions(self, game_id: int) -> tuple[Game, list[Action]]:
        """The game and its whole log, read together in one consistent transaction."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAME_BY_ID, (game_id,))
            if not rows:
                raise GameNotFound(f"no game {game_id}", game_id=game_id)
            seats = await conn.execute_fetchall(q.SELECT_SEATS, (game_id,))
            actions = await conn.execute_fetchall(q.SELECT_ACTIONS, (game_id,))
        game = game_from_row(rows[0], seats)
        return replace(game, snapshot=with_log(game.snapshot, actions)), [
            action_from_row(r) for r in actions
        ]

    async def game_ids(self) -> list[int]:
        """Every stored game id, ascending."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_ALL_GAME_IDS, ())
        return ints(rows, "id")

    # -- changes (optimistic: each takes the version the caller read) ---------------------------

    async def append_actions(
        self,
        game_id: int,
        expected_version: int,
        actions: Sequence[tuple[int, str]],
        snapshot: str,
        *,
        current_seat: int | None,
        outcome: StoredOutcome | None = None,
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
            validate_outcome(outcome)
        stamp = format_time(self._clock())
        await self._db.run_write(
            self._append_steps(
                game_id,
                expected_version,
                actions,
                snapshot,
                (current_seat, outcome, stamp),
                silent=silent,
                by_computer=by_computer,
            )
        )
        return expected_version + 1

    def _append_steps(
        self,
        game_id: int,
        expected_version: int,
        actions: Sequence[tuple[int, str]],
        snapshot: str,
        state: tuple[int | None, StoredOutcome | None, str],
        *,
        silent: bool,
        by_computer: bool,
    ) -> Script[None]:
        """``append_actions``'s transaction as a script; ``state``: (current seat, outcome,
        time stamp)."""
        current_seat, outcome, stamp = state
        bumped = yield Step(
            q.BUMP_FOR_APPEND, (len(actions), current_seat, stamp, game_id, expected_version)
        )
        if len(bumped) != 1:
            yield from self._raise_for_steps(game_id, expected_version)
        count = int(bumped[0]["action_count"])
        first = count - len(actions) + 1
        rows = [
            (game_id, first + i, seat, notation, stamp)
            for i, (seat, notation) in enumerate(actions)
        ]
        try:
            yield Step(q.INSERT_ACTION, rows, many=True)
        except sqlite.IntegrityError as exc:
            raise InvalidRequest(f"game {game_id}: cannot append {actions}: {exc}") from exc
        if by_computer:
            yield Step(q.MARK_BY_COMPUTER, (game_id, first, count), fetch=False)
        yield Step(q.UPDATE_SNAPSHOT, (without_log(snapshot), game_id), fetch=False)
        if outcome is not None:
            yield Step(q.FINISH_AFTER_APPEND, (outcome.end_reason, stamp, game_id), fetch=False)
            yield from self._store_outcome_steps(game_id, outcome)
        if silent:
            yield self._carry_announced_step(game_id, expected_version)

    async def append_match(
        self, game: Game, match: MatchLike, *, silent: bool = False, by_computer: bool = False
    ) -> int:
        """Save a match loaded from ``game`` after it played: its new log tail, snapshot, end."""
        log_tail = list(match.log[game.action_count :])
        return await self.append_actions(
            game.id,
            game.version,
            log_tail,
            match.to_json(),
            current_seat=match.current_seat,
            outcome=stored_outcome(game, match),
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
            await conn.execute(q.UPDATE_SNAPSHOT, (without_log(snapshot), game_id))
            await self._carry_announced(conn, game_id, expected_version)
        return expected_version + 1

    async def finish_game(
        self,
        game_id: int,
        expected_version: int,
        outcome: StoredOutcome,
        *,
        snapshot: str | None = None,
    ) -> int:
        """Mark the game finished with one result per seat (score, rank, winner); new version."""
        validate_outcome(outcome)
        stamp = format_time(self._clock())
        async with self._write() as conn:
            cursor = await conn.execute(
                q.FINISH_GAME, (outcome.end_reason, stamp, stamp, game_id, expected_version)
            )
            if cursor.rowcount != 1:
                await self._raise_for(conn, game_id, expected_version)
            await self._store_outcome(conn, game_id, outcome)
            if snapshot is not None:
                await conn.execute(q.UPDATE_SNAPSHOT, (without_log(snapshot), game_id))
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
        return int(rows[0]["version"])

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
            await conn.execute(q.UPDATE_SNAPSHOT, (without_log(snapshot), game_id))

    # -- rematches (migration 0016) -------------------------------------------------------------

    async def rematch_of(self, game_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of the rematch lobby a game's button opened, if any."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_REMATCH, (game_id,))
        return (int(rows[0]["channel_id"]), int(rows[0]["message_id"])) if rows else None

    async def record_rematch(
        self, game_id: int, channel_id: int, message_id: int, *, replacing: int | None = None
    ) -> tuple[int, int]:
        """Record a game's rematch lobby unless one is; the one recorded (the first wins).

        ``replacing``: the message id of the recorded lobby, found closed (cancelled, started,
        deleted): the new one takes its place only if it is still the one recorded, so of two
        clicks that found it closed the first wins (issue 35 item 10).
        """
        async with self._write() as conn:
            if replacing is not None:
                await conn.execute(q.REPLACE_REMATCH, (channel_id, message_id, game_id, replacing))
            await conn.execute(q.INSERT_REMATCH, (game_id, channel_id, message_id))
            rows = await conn.execute_fetchall(q.SELECT_REMATCH, (game_id,))
        return int(rows[0]["channel_id"]), int(rows[0]["message_id"])


def stored_outcome(game: Game, match: MatchLike) -> StoredOutcome | None:
    """The result ``append_match`` stores for a match that ended (resigned seats last)."""
    if match.outcome is None:
        return None
    resigned = {s.seat for s in game.seats if s.stand_in == "resigned"}
    return StoredOutcome.from_engine(match.outcome).with_resigned_last(resigned)


def saved_game(game: Game, match: MatchLike, version: int) -> Game:
    """The game as ``append_match`` of ``match`` on ``game`` stored it at ``version`` (what
    ``load_game`` reads back then), without reading it: its count, seat to act, status and
    result, snapshot. Not known here: the times stamped (``updated_at``, ``ended_at``: the
    loaded game's) and the announced version (the loaded game's; ask ``game_versions``)."""
    outcome = stored_outcome(game, match)
    changed = replace(
        game,
        version=version,
        action_count=len(match.log),
        current_seat=match.current_seat,
        snapshot=match.to_json(),
    )
    if outcome is None:
        return changed
    results = {r.seat: r for r in outcome.results}
    seats = tuple(
        replace(
            s,
            final_score=results[s.seat].score,
            final_rank=results[s.seat].rank,
            winner=results[s.seat].winner,
            score_lines=dict(results[s.seat].lines),
        )
        for s in game.seats
    )
    return replace(
        changed,
        status=GameStatus.FINISHED,
        current_seat=None,
        end_reason=outcome.end_reason,
        seats=seats,
    )


def _one_game_steps(sql: str, key: int, missing: Callable[[], GameNotFound]) -> Script[Game]:
    """The one game a ``GAME_WITH_SEATS`` statement selects by ``key`` (``missing()`` raised if
    none), with its snapshot's log read too."""
    rows = yield Step(sql, (key,))
    if not rows:
        raise missing()
    game = game_with_seats_from_rows(rows)
    if not log_left_out(game.snapshot):
        return game
    log = yield Step(q.SELECT_LOG, (game.id,))
    return replace(game, snapshot=with_log(game.snapshot, log))
