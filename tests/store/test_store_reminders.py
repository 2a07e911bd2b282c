"""The reminder schedule (migration 0005): scheduled once, claimed atomically with a lease."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import GameRepository, GameSettings, InvalidRequest
from tests.backends import database

from .store_helpers import create_plain, with_repo

pytestmark = pytest.mark.usefixtures("backend")

T0 = 1_800_000_000
PLAN = [("half", T0 + 100), ("near", T0 + 180)]


async def schedule(repo: GameRepository, game_id: int, turn: str = "1.0", now: int = T0) -> int:
    """Schedule the standard plan for a turn of seat 0 (user 100), deadline T0 + 200."""
    return await repo.schedule_turn(
        game_id, turn=turn, seat=0, user_id=100, deadline_at=now + 200, reminders=PLAN, now=now
    )


def test_a_turn_is_scheduled_once_and_claimed_once_while_leased(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        assert await schedule(repo, game.id) == T0 + 200
        assert await schedule(repo, game.id, now=T0 + 50) == T0 + 200  # the first deadline
        assert await repo.turn_deadline(game.id, "1.0") == T0 + 200
        assert await repo.turn_deadline(game.id, "2.0") is None
        rows = await repo.list_reminders(game.id)
        assert [(r.kind, r.due_at, r.sent_at) for r in rows] == [
            ("half", T0 + 100, None),
            ("near", T0 + 180, None),
        ]
        assert await repo.claim_due_reminders(now=T0 + 99, lease=60) == []
        [half] = await repo.claim_due_reminders(now=T0 + 100, lease=60)
        assert (half.kind, half.user_id, half.seat, half.turn) == ("half", 100, 0, "1.0")
        assert await repo.claim_due_reminders(now=T0 + 120, lease=60) == []  # leased
        [again] = await repo.claim_due_reminders(now=T0 + 160, lease=60)  # the lease ran out
        assert again.id == half.id and (half.claims, again.claims) == (1, 2)  # claimed before
        assert await repo.mark_reminders_sent([half.id], now=T0 + 161) == 1
        assert await repo.mark_reminders_sent([half.id], now=T0 + 162) == 0
        [near] = await repo.claim_due_reminders(now=T0 + 10_000, lease=60)
        assert near.kind == "near"  # the sent one never comes back, even long after

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_a_new_turn_cancels_the_old_turns_rows_and_an_ended_game_all(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        other = await create_plain(repo, thread_id=31)
        await schedule(repo, game.id)
        await schedule(repo, other.id)
        late = [("half", T0 + 1000), ("near", T0 + 1800)]
        await repo.schedule_turn(
            game.id,
            turn="1.1",
            seat=1,
            user_id=101,
            deadline_at=T0 + 2000,
            reminders=late,
            now=T0 + 10,
        )
        rows = await repo.list_reminders(game.id)
        assert [(r.turn, r.cancelled_at) for r in rows] == [
            ("1.0", T0 + 10),
            ("1.0", T0 + 10),
            ("1.1", None),
            ("1.1", None),
        ]
        [one] = await repo.claim_due_reminders(now=T0 + 105, lease=60)
        assert one.game_id == other.id  # the game's turn 1.0 rows were cancelled
        assert await repo.cancel_reminders(game.id, now=T0 + 106) == 2  # the game ended
        later = await repo.claim_due_reminders(now=T0 + 10_000, lease=60)
        assert {r.game_id for r in later} == {other.id}
        assert all(r.cancelled_at for r in await repo.list_reminders(game.id))
        assert not await repo.cancel_reminder(rows[0].id, now=T0 + 107)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_two_claims_at_once_never_share_a_row(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        for thread in range(40, 50):
            await schedule(repo, (await create_plain(repo, thread_id=thread)).id)
        first, second = await asyncio.gather(
            repo.claim_due_reminders(now=T0 + 500, lease=60),
            repo.claim_due_reminders(now=T0 + 500, lease=60),
        )
        ids = [r.id for r in first + second]
        assert len(ids) == 20 and len(set(ids)) == 20

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_votes_count_once_per_voter_and_skipped_actions_are_marked(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        assert await repo.add_deadline_vote(game.id, "1.0", 101, "skip", now=T0) == [101]
        assert await repo.add_deadline_vote(game.id, "1.0", 101, "skip", now=T0) == [101]
        assert await repo.add_deadline_vote(game.id, "1.0", 102, "skip", now=T0) == [101, 102]
        assert await repo.add_deadline_vote(game.id, "2.0", 102, "skip", now=T0) == [102]
        version = await repo.append_actions(game.id, 1, [(0, "a")], "{}", current_seat=0)
        await repo.append_actions(
            game.id, version, [(0, "b"), (0, "c")], "{}", current_seat=1, by_computer=True
        )
        assert await repo.computer_played(game.id) == {2, 3}

    with_repo(database(tmp_path, "db.sqlite3"), body)


@pytest.mark.sqlite_only  # reads SQLite's table_info (both schemas: test_store_postgres)
def test_the_contract_columns_and_the_turn_deadline(tmp_path: Path) -> None:
    db = database(tmp_path, "db.sqlite3")

    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        assert game.turn_deadline is None and (await repo.load_game(game.id)).turn_deadline is None
        with pytest.raises(InvalidRequest):
            await repo.create_game(
                guild_id=1,
                channel_id=2,
                thread_id=3,
                game_key="yamatai",
                seed=1,
                options=None,
                seats=[],
                snapshot="{}",
                current_seat=None,
                settings=GameSettings(turn_deadline=0),
            )
        await schedule(repo, game.id)

    with_repo(db, body)
    conn = sqlite3.connect(db)
    try:
        columns = {row[1]: row[2] for row in conn.execute("PRAGMA table_info(reminders)")}
        assert columns["due_at"] == "INTEGER" and "sent_at" in columns
        unsent = conn.execute("SELECT COUNT(*) FROM reminders WHERE sent_at IS NULL").fetchone()
        assert unsent == (2,)
    finally:
        conn.close()


def test_a_standing_deadline_is_the_turns_own_until_it_is_cancelled(tmp_path: Path) -> None:
    """Two turns of one seat in one round have their own keys and deadlines (issue 24)."""
    plan = [("half", T0 + 100), ("deadline", T0 + 200)]

    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        for turn, now in (("1.0.0", T0), ("1.0.9", T0 + 50)):
            await repo.schedule_turn(
                game.id,
                turn=turn,
                seat=0,
                user_id=100,
                deadline_at=now + 200,
                reminders=plan,
                now=now,
            )
        assert await repo.standing_deadline(game.id, "1.0.9") == T0 + 250
        assert await repo.standing_deadline(game.id, "1.0.0") is None  # cancelled by the next
        assert await repo.turn_deadline(game.id, "1.0.0") == T0 + 200  # as it was scheduled
        assert await repo.old_turn_keys(game.id) is None  # made after migration 0012
        await repo.cancel_reminders(game.id, now=T0 + 60)
        assert await repo.standing_deadline(game.id, "1.0.9") is None

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_a_message_on_its_way_cancels_the_other_turns_rows_only(tmp_path: Path) -> None:
    """D156: before the next turn's message, the turns other than ``keep`` stop; the kept
    turn's rows (scheduled by an earlier post of its message) stand."""

    async def body(repo: GameRepository) -> None:
        game = await create_plain(repo)
        await schedule(repo, game.id, "1.0")
        await schedule(repo, game.id, "1.1", now=T0 + 5)
        assert await repo.cancel_reminders(game.id, now=T0 + 6, keep="1.1") == 0
        rows = await repo.list_reminders(game.id)
        assert [(r.turn, r.cancelled_at) for r in rows] == [
            ("1.0", T0 + 5),
            ("1.0", T0 + 5),
            ("1.1", None),
            ("1.1", None),
        ]
        assert await repo.cancel_reminders(game.id, now=T0 + 7, keep="2.0") == 2

    with_repo(database(tmp_path, "db.sqlite3"), body)
