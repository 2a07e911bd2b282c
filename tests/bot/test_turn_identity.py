"""Every turn has its own identity (issue 24): a store written before migration 0012 (turns keyed
round.seat) migrates; the turn it was playing keeps its deadline, reminders, votes and buttons,
and an old button never acts on a later turn, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot.service import ServiceError, TurnId, build_rooms
from bot.store import GameRepository, NewSeat, Target, open_store
from bot.store.migrate import DEFAULT_MIGRATIONS_DIR
from engine import games
from tests.backends import database
from tests.store.store_helpers import raw, stored_before

from .support import GUILD, _fake_picture, play_whole_turn

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

HOUR = 3600
DAY = 24 * HOUR
NOW = 1_800_000_000  # the service's clock: the turn's deadline passed an hour ago
DEADLINE = NOW - HOUR
PLAN = [("half", DEADLINE - DAY), ("near", DEADLINE - 4 * HOUR), ("deadline", DEADLINE)]


def schema_before_0012(tmp_path: Path) -> Path:
    """The project's migrations up to 0011: the schema this change migrates from."""
    old = tmp_path / "migrations_0011"
    shutil.copytree(DEFAULT_MIGRATIONS_DIR, old)
    for path in old.rglob("*.sql"):
        if int(path.name[:4]) >= 12:
            path.unlink()
    return old


async def old_game(repo: GameRepository, target: Target, players: int) -> tuple[int, int]:
    """A Yamatai game with a 48-hour deadline as stored before 0012, its first turn scheduled
    under the old key round.seat; (game id, seat to act). Users are 100 + seat."""
    names = ["Ann", "Bo", "Cy"][:players]
    match = games.new("yamatai", players=names, seed=7)
    game_id = stored_before(
        target,
        500,
        seat_list=[NewSeat(i, 100 + i, n, match.colours[i]) for i, n in enumerate(names)],
        snapshot=match.to_json(),
        current_seat=match.current_seat,
        options=match.options,
        turn_deadline=2 * DAY,
        guild_id=GUILD,
    )
    seat = match.current_seat
    assert seat is not None
    await repo.schedule_turn(
        game_id,
        turn=f"1.{seat}",
        seat=seat,
        user_id=100 + seat,
        deadline_at=DEADLINE,
        reminders=PLAN,
        now=DEADLINE - 2 * DAY,
    )
    return game_id, seat


def test_a_turn_in_flight_keeps_its_old_key_and_an_old_button_never_acts_on_a_later_turn(
    tmp_path: Path,
) -> None:
    """Two players: the first turn, scheduled before 0012, keeps its deadline and reminders;
    the same seat's second turn of round 1 gets its own, and the first turn's old Skip button
    (round.seat) is refused on it."""
    target = database(tmp_path, "games.sqlite3")
    old = schema_before_0012(tmp_path)

    async def main() -> None:
        repo = await open_store(target, migrations_dir=old)
        try:
            game_id, seat = await old_game(repo, target, 2)
        finally:
            await repo.close()
        with_claim = raw(target)
        with_claim.execute("UPDATE reminders SET claimed_until = ? WHERE kind = 'half'", (NOW,))
        with_claim.close()

        repo = await open_store(target)  # applies 0012
        try:
            now = NOW
            rooms = build_rooms(repo, renderer=_fake_picture, clock=lambda: now)
            assert await repo.old_turn_keys(game_id) == 0
            rows = await repo.list_reminders(game_id)
            assert [(r.turn, r.kind, r.claims) for r in rows] == [
                (f"1.{seat}", "half", 1),
                (f"1.{seat}", "near", 0),
                (f"1.{seat}", "deadline", 0),
            ]
            game = await repo.load_game(game_id)
            first = await rooms.deadlines.schedule_reminders(
                game_id, TurnId(round=1, seat=seat, start=0)
            )
            assert first == DEADLINE  # the turn in flight keeps its deadline
            assert (await rooms.deadlines.due([rows[1]])).thread_id == game.thread_id
            [listing] = await rooms.reading.my_games(100 + seat, guild_id=None)
            assert listing.deadline == DEADLINE

            await play_whole_turn(rooms, game_id)  # the first player, late
            other = await play_whole_turn(rooms, game_id)
            turn = other.turn.next_turn if other.turn else None
            assert turn is not None and turn.key == (1, seat)  # the same round and seat
            assert await rooms.deadlines.schedule_reminders(game_id, turn) == now + 2 * DAY
            assert (await rooms.deadlines.due([rows[1]])).thread_id is None
            [listing] = await rooms.reading.my_games(100 + seat, guild_id=None)
            assert listing.deadline == now + 2 * DAY
            now += 3 * DAY  # this turn's deadline passed too
            with pytest.raises(ServiceError) as caught:
                await rooms.deadlines.vote_skip(100 + 1 - seat, game_id=game_id, turn=f"1.{seat}")
            assert caught.value.key == "deadline.turn_over"
            assert (await repo.load_game(game_id)).current_seat == seat
            voted = await rooms.deadlines.vote_skip(100 + 1 - seat, game_id=game_id, turn=turn.text)
            assert voted.turn is not None  # its own button skips it
        finally:
            await repo.close()

    asyncio.run(main())


def test_votes_cast_before_0012_count_for_the_turn_in_flight(tmp_path: Path) -> None:
    """Three players: one vote stored under the old key before the upgrade, the second cast
    with the old button after it: the majority skips the turn."""
    target = database(tmp_path, "games.sqlite3")
    old = schema_before_0012(tmp_path)

    async def main() -> None:
        repo = await open_store(target, migrations_dir=old)
        try:
            game_id, seat = await old_game(repo, target, 3)
            voters = [100 + s for s in range(3) if s != seat]
            await repo.add_deadline_vote(game_id, f"1.{seat}", voters[0], "skip", now=NOW)
        finally:
            await repo.close()
        repo = await open_store(target)
        try:
            rooms = build_rooms(repo, renderer=_fake_picture, clock=lambda: NOW)
            voted = await rooms.deadlines.vote_skip(voters[1], game_id=game_id, turn=f"1.{seat}")
            assert (voted.votes, voted.needed) == (2, 2) and voted.turn is not None
        finally:
            await repo.close()

    asyncio.run(main())
