"""Repository API with plain-string snapshots: create, load, list, append, undo, finish, abandon."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import (
    GameNotActive,
    GameNotFound,
    GameRepository,
    GameStatus,
    InvalidRequest,
    NewSeat,
    NothingToUndo,
    StaleVersion,
    StoredOutcome,
    StoredSeatResult,
    Target,
    ThreadBusy,
    open_store,
)
from bot.store.errors import StoreError
from bot.store.sqlite import SqliteBackend
from engine.contract import Outcome as EngineOutcome
from engine.contract import ScoreLine as EngineLine
from engine.contract import SeatResult as EngineSeat
from tests.backends import database
from tests.store.store_helpers import create_plain, raw, run, seats, with_repo

pytestmark = pytest.mark.usefixtures("backend")


def table_counts(db: Target) -> dict[str, int]:
    """Row counts of the four tables."""
    conn = raw(db)
    try:
        return {
            t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("games", "seats", "actions", "snapshots")
        }
    finally:
        conn.close()


def dump(db: Target) -> list[object]:
    """Every row of the four tables, to compare before and after."""
    conn = raw(db)
    try:
        return [
            conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
            for t in ("games", "seats", "actions", "snapshots")
        ]
    finally:
        conn.close()


OUTCOME = StoredOutcome(
    end_reason="boats",
    results=(
        StoredSeatResult(0, 12, 2, False, {"coins": 2, "buildings": 10}),
        StoredSeatResult(1, 15, 1, True, {"coins": 5, "buildings": 10}),
        StoredSeatResult(2, 3, 3, False, {}),
    ),
)


def test_create_and_load_by_id_and_thread(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await repo.create_game(
            guild_id=2**62,
            channel_id=20,
            thread_id=30,
            game_key="yamatai",
            seed=2**63 - 1,
            options={"variant": "base", "n": [1, 2]},
            seats=seats(3),
            snapshot='{"state":"initial"}',
            current_seat=0,
        )
        assert (game.version, game.action_count, game.status) == (1, 0, GameStatus.ACTIVE)
        by_id = await repo.load_game(game.id)
        by_thread = await repo.load_game_by_thread(30)
        assert by_id == by_thread == game
        assert by_id.options == {"variant": "base", "n": [1, 2]}
        assert by_id.guild_id == 2**62 and by_id.seed == 2**63 - 1
        assert by_id.players == ["Ann0", "Bo1", "Cy2"]
        assert by_id.current_user_id == 100
        assert by_id.seats_of(101) == [1]
        assert by_id.created_at.tzinfo is not None

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_missing_games_raise_game_not_found(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        with pytest.raises(GameNotFound) as by_id:
            await repo.load_game(99)
        assert by_id.value.code == "game_not_found" and by_id.value.game_id == 99
        with pytest.raises(GameNotFound) as by_thread:
            await repo.load_game_by_thread(99)
        assert by_thread.value.thread_id == 99
        with pytest.raises(GameNotFound):
            await repo.append_actions(99, 1, [(0, "x")], "{}", current_seat=0)
        with pytest.raises(GameNotFound):
            await repo.abandon_game(99)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_one_active_game_per_thread(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")

    async def body(repo: GameRepository) -> None:
        first = await create_plain(repo, thread_id=30)
        with pytest.raises(ThreadBusy) as busy:
            await create_plain(repo, thread_id=30)
        assert busy.value.code == "thread_busy" and busy.value.game_id == first.id
        await create_plain(repo, thread_id=31)  # other threads are free
        await repo.abandon_game(first.id)
        second = await create_plain(repo, thread_id=30)  # abandoning frees the thread
        await repo.finish_game(second.id, second.version, OUTCOME)
        third = await create_plain(repo, thread_id=30)  # so does finishing
        assert (await repo.load_game_by_thread(30)).id == third.id

    with_repo(db, body)
    counts = table_counts(db)
    assert counts["games"] == 4 and counts["seats"] == 12 and counts["snapshots"] == 4
    # The schema itself enforces it, whatever code writes.
    conn = raw(db)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, thread_id, game_key, seed, status, version,"
            " action_count, created_at, updated_at) VALUES (1, 2, 30, 'yamatai', 1, 'active', 1,"
            " 0, 't', 't')"
        )
    conn.close()


def test_bad_seats_are_invalid_requests(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        base = {
            "guild_id": 1,
            "channel_id": 2,
            "game_key": "yamatai",
            "seed": 1,
            "options": None,
            "snapshot": "{}",
            "current_seat": 0,
        }
        bad = [
            [],
            [NewSeat(1, 5, "A", "red")],
            [NewSeat(0, 5, "A", "red"), NewSeat(1, 6, "B", "red")],
        ]
        for i, seat_list in enumerate(bad):
            with pytest.raises(InvalidRequest):
                await repo.create_game(thread_id=i, seats=seat_list, **base)  # type: ignore[arg-type]
        with pytest.raises(InvalidRequest, match="64-bit"):
            await repo.create_game(thread_id=9, seats=seats(2), **{**base, "seed": 2**64 - 1})  # type: ignore[arg-type]
        with pytest.raises(InvalidRequest, match="current seat"):
            await repo.create_game(thread_id=9, seats=seats(2), **{**base, "current_seat": 5})  # type: ignore[arg-type]

    db = database(tmp_path, "db.sqlite3")
    with_repo(db, body)
    assert table_counts(db)["games"] == 0


def test_append_undo_and_versions(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        v2 = await repo.append_actions(game.id, 1, [(0, "fleet 6")], '{"n":1}', current_seat=1)
        v3 = await repo.append_actions(
            game.id, v2, [(1, "place a"), (1, "place b")], '{"n":3}', current_seat=2
        )
        assert (v2, v3) == (2, 3)
        loaded = await repo.load_game(game.id)
        assert (loaded.version, loaded.action_count, loaded.current_seat) == (3, 3, 2)
        assert loaded.snapshot == '{"n":3}'
        assert loaded.updated_at >= loaded.created_at
        log = await repo.load_actions(game.id)
        assert [(a.seq, a.seat, a.notation) for a in log] == [
            (1, 0, "fleet 6"),
            (2, 1, "place a"),
            (3, 1, "place b"),
        ]
        v4 = await repo.undo_last(game.id, v3, '{"n":2}', current_seat=1)
        loaded = await repo.load_game(game.id)
        assert (loaded.version, loaded.action_count, loaded.current_seat) == (v4, 2, 1)
        assert loaded.snapshot == '{"n":2}'
        assert [a.notation for a in await repo.load_actions(game.id)] == ["fleet 6", "place a"]
        # Undo then append reuses the freed sequence number.
        await repo.append_actions(game.id, v4, [(1, "place c")], '{"n":3}', current_seat=2)
        assert [a.seq for a in await repo.load_actions(game.id)] == [1, 2, 3]

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_stale_writes_change_nothing(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    game_id = with_repo(db, lambda repo: create_plain(repo)).id

    async def advance(repo: GameRepository) -> None:
        await repo.append_actions(game_id, 1, [(0, "a")], '{"n":1}', current_seat=1)

    with_repo(db, advance)
    before = dump(db)

    async def stale(repo: GameRepository) -> None:
        calls = [
            repo.append_actions(game_id, 1, [(0, "b")], '{"n":9}', current_seat=1),
            repo.undo_last(game_id, 1, '{"n":0}', current_seat=0),
            repo.finish_game(game_id, 1, OUTCOME),
            repo.abandon_game(game_id, expected_version=1),
        ]
        for call in calls:
            with pytest.raises(StaleVersion) as err:
                await call
            assert err.value.code == "stale_version"
            assert (err.value.expected, err.value.actual) == (1, 2)

    with_repo(db, stale)
    assert dump(db) == before


def test_append_with_unknown_seat_rolls_back(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    game_id = with_repo(db, lambda repo: create_plain(repo)).id
    before = dump(db)

    async def body(repo: GameRepository) -> None:
        with pytest.raises(InvalidRequest):
            await repo.append_actions(
                game_id, 1, [(0, "ok"), (7, "no such seat")], "{}", current_seat=0
            )
        with pytest.raises(InvalidRequest):
            await repo.append_actions(game_id, 1, [], "{}", current_seat=0)

    with_repo(db, body)
    assert dump(db) == before


def test_nothing_to_undo(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        with pytest.raises(NothingToUndo) as err:
            await repo.undo_last(game.id, game.version, "{}", current_seat=0)
        assert err.value.code == "nothing_to_undo"

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_finish_stores_results_per_seat(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        version = await repo.finish_game(game.id, game.version, OUTCOME, snapshot='{"end":1}')
        done = await repo.load_game(game.id)
        assert done.status == GameStatus.FINISHED and done.version == version == 2
        assert done.end_reason == "boats" and done.ended_at is not None
        assert done.current_seat is None and done.snapshot == '{"end":1}'
        assert [(s.final_score, s.final_rank, s.winner) for s in done.seats] == [
            (12, 2, False),
            (15, 1, True),
            (3, 3, False),
        ]
        assert done.seats[0].score_lines == {"coins": 2, "buildings": 10}
        for call in (
            repo.append_actions(game.id, version, [(0, "x")], "{}", current_seat=0),
            repo.undo_last(game.id, version, "{}", current_seat=0),
            repo.finish_game(game.id, version, OUTCOME),
            repo.abandon_game(game.id),
        ):
            with pytest.raises(GameNotActive) as err:
                await call
            assert err.value.code == "game_not_active" and err.value.status == "finished"
        with pytest.raises(GameNotFound):
            await repo.load_game_by_thread(game.thread_id)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_finish_needs_one_result_per_seat(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")
    game_id = with_repo(db, lambda repo: create_plain(repo)).id
    before = dump(db)

    async def body(repo: GameRepository) -> None:
        short = StoredOutcome("boats", OUTCOME.results[:2])
        twice = StoredOutcome("boats", (*OUTCOME.results[:2], OUTCOME.results[0]))
        for outcome in (short, twice):
            with pytest.raises(InvalidRequest):
                await repo.finish_game(game_id, 1, outcome)
            with pytest.raises(InvalidRequest):
                await repo.append_actions(
                    game_id, 1, [(0, "x")], "{}", current_seat=1, outcome=outcome
                )

    with_repo(db, body)
    assert dump(db) == before


def test_final_append_finishes_in_the_same_transaction(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        version = await repo.append_actions(
            game.id, 1, [(0, "last")], '{"over":1}', current_seat=None, outcome=OUTCOME
        )
        done = await repo.load_game(game.id)
        assert (done.status, done.version, done.action_count) == ("finished", version, 1)
        assert done.seats[1].winner is True

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_abandon(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        version = await repo.abandon_game(game.id, reason="timeout")
        gone = await repo.load_game(game.id)
        assert gone.status == GameStatus.ABANDONED and gone.version == version == 2
        assert gone.end_reason == "timeout" and gone.current_seat is None
        assert all(s.final_score is None for s in gone.seats)
        assert await repo.list_active_games(100) == []

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_list_active_games_says_whose_turn(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        a = await create_plain(repo, thread_id=1, first_user=100)  # users 100, 101, 102
        b = await create_plain(repo, thread_id=2, first_user=101)  # users 101, 102, 103
        c = await create_plain(repo, thread_id=3, first_user=100)
        await repo.append_actions(b.id, 1, [(0, "x")], "{}", current_seat=1)  # 102 to act
        await repo.abandon_game(c.id)
        mine = await repo.list_active_games(101)
        assert [g.game_id for g in mine] == [a.id, b.id]
        assert mine[0].my_seats == (1,) and mine[0].current_user_id == 100
        assert not mine[0].my_turn
        assert mine[1].my_seats == (0,) and mine[1].current_seat == 1
        assert mine[1].current_user_id == 102 and not mine[1].my_turn
        theirs = await repo.list_active_games(102)
        assert [g.my_turn for g in theirs] == [False, True]
        assert theirs[1].thread_id == 2 and theirs[1].version == 2
        assert await repo.list_active_games(999) == []

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_user_with_two_seats_in_one_game_is_listed_once(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        both = [NewSeat(0, 7, "A", "red"), NewSeat(1, 7, "B", "blue")]
        game = await repo.create_game(
            guild_id=1,
            channel_id=2,
            thread_id=3,
            game_key="yamatai",
            seed=1,
            options=None,
            seats=both,
            snapshot="{}",
            current_seat=1,
        )
        listed = await repo.list_active_games(7)
        assert len(listed) == 1 and listed[0].game_id == game.id
        assert listed[0].my_seats == (0, 1) and listed[0].my_turn

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_times_come_from_the_injected_clock(tmp_path: Path) -> None:
    moments = iter(datetime(2030, 1, 1, tzinfo=UTC) + timedelta(minutes=i) for i in range(10))

    async def main() -> None:
        repo = await open_store(database(tmp_path, "db.sqlite3"), clock=lambda: next(moments))
        try:
            game = await create_plain(repo)
            await repo.append_actions(game.id, 1, [(0, "x")], "{}", current_seat=1)
            loaded = await repo.load_game(game.id)
            assert loaded.created_at == datetime(2030, 1, 1, tzinfo=UTC)
            assert loaded.updated_at == datetime(2030, 1, 1, 0, 1, tzinfo=UTC)
            actions = await repo.load_actions(game.id)
            assert actions[0].created_at == loaded.updated_at
        finally:
            await repo.close()

    run(main())


@pytest.mark.sqlite_only  # traces the SQLite reader
def test_loading_a_game_never_reads_its_log(tmp_path: Path) -> None:
    """Constant-time load: the snapshot, the game row and seats in one statement (issue 25
    item 4); never the action log."""

    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        version = game.version
        for i in range(50):
            version = await repo.append_actions(
                game.id, version, [(i % 3, f"a{i}")], f'{{"n":{i}}}', current_seat=0
            )
        statements: list[str] = []
        reader = cast(SqliteBackend, repo._db).reader
        await reader.set_trace_callback(statements.append)
        await repo.load_game(game.id)
        await repo.load_game_by_thread(game.thread_id)
        await reader.set_trace_callback(None)  # type: ignore[arg-type]
        selects = [s for s in statements if "SELECT" in s]
        assert len(selects) == 2
        assert not any("actions" in s for s in statements)
        plan = await reader.execute_fetchall(
            "EXPLAIN QUERY PLAN SELECT id FROM games WHERE thread_id = ? AND status = 'active'",
            (30,),
        )
        assert any("games_one_active_per_thread" in str(tuple(row)) for row in plan)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_outcome_from_engine() -> None:
    outcome = StoredOutcome.from_engine(
        EngineOutcome(
            results=(
                EngineSeat(0, "Ann", 10, 2, (EngineLine("coins", 1),)),
                EngineSeat(1, "Bo", 20, 1, (EngineLine("coins", 3),)),
            ),
            winners=(1,),
            termination=("buildings",),
            tie_broken=False,
        )
    )
    assert outcome.end_reason == "buildings"
    assert outcome.results == (
        StoredSeatResult(0, 10, 2, False, {"coins": 1}),
        StoredSeatResult(1, 20, 1, True, {"coins": 3}),
    )


def test_errors_have_stable_codes() -> None:
    codes = {
        cls.code
        for cls in (
            StoreError,
            GameNotFound,
            StaleVersion,
            ThreadBusy,
            GameNotActive,
            NothingToUndo,
            InvalidRequest,
        )
    }
    assert len(codes) == 7
    assert StaleVersion(1, 2, 3).to_dict()["code"] == "stale_version"


def test_a_cancelled_write_leaves_the_store_usable(tmp_path: Path) -> None:
    """A caller cancelled mid-transaction rolls back; the next write starts clean."""

    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        for pause in range(12):
            current = await repo.load_game(game.id)
            task = asyncio.create_task(
                repo.append_actions(game.id, current.version, [(0, "x")], "{}", current_seat=0)
            )
            for _ in range(pause):
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        final = await repo.load_game(game.id)
        log = await repo.load_actions(game.id)
        assert len(log) == final.action_count == final.version - 1
        await repo.append_actions(game.id, final.version, [(1, "y")], "{}", current_seat=2)

    with_repo(database(tmp_path, "db.sqlite3"), body)


class Model:
    """What the store should hold, tracked in memory."""

    def __init__(self) -> None:
        self.version = 1
        self.log: list[tuple[int, str]] = []
        self.snapshot = '{"n":0}'


ops = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers(1, 3), st.booleans()),
        st.tuples(st.just("undo"), st.just(0), st.booleans()),
    ),
    max_size=25,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops)
def test_random_operations_match_a_model(
    tmp_path_factory: pytest.TempPathFactory, script: list[tuple[str, int, bool]]
) -> None:
    db = tmp_path_factory.mktemp("h") / "db.sqlite3"

    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        model = Model()
        for step, (op, n, stale) in enumerate(script):
            version = model.version - 1 if stale else model.version
            snapshot = f'{{"step":{step}}}'
            try:
                if op == "append":
                    batch = [(step % 3, f"s{step}.{i}") for i in range(n)]
                    new = await repo.append_actions(
                        game.id, version, batch, snapshot, current_seat=0
                    )
                    assert not stale
                    model.log += batch
                else:
                    new = await repo.undo_last(game.id, version, snapshot, current_seat=0)
                    assert not stale and model.log
                    model.log.pop()
                model.version = new
                model.snapshot = snapshot
            except StaleVersion:
                assert stale
            except NothingToUndo:
                assert not model.log and not stale
            loaded = await repo.load_game(game.id)
            assert loaded.version == model.version
            assert loaded.action_count == len(model.log)
            assert loaded.snapshot == model.snapshot
            assert [(a.seat, a.notation) for a in await repo.load_actions(game.id)] == model.log

    with_repo(db, body)
