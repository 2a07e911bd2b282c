"""Deadline votes (issue 24): the voters are the humans still playing, and a hand-over voted by
several at once is stored and announced once, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service import Created, GameSettings, Rooms, ServiceError, SkipVote, build_rooms
from bot.store import GameRepository, NewLeague, open_store
from tests.backends import database

from .support import CHANNEL, GUILD, _fake_picture

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

DAY = 24 * 3600
NOW = 1_800_000_000
USERS = {101: "Ann", 202: "Bo", 303: "Cy", 404: "Di"}


class Clock:
    """The service's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = float(NOW)

    def __call__(self) -> float:
        return self.now


async def deadline_game(rooms: Rooms, players: int) -> tuple[Created, int, list[int]]:
    """A game of the first ``players`` users with a two-day deadline, its first turn scheduled;
    (created, the user to act, the others in seat order)."""
    created = await rooms.playing.create_game(
        game_key="yamatai",
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=500,
        players=list(USERS.items())[:players],
        settings=GameSettings(turn_deadline=2 * DAY),
    )
    await rooms.deadlines.schedule_reminders(created.game_id, created.turn)
    absent = created.first.user_id
    assert absent is not None
    others = [p.user_id for p in created.players if p.user_id not in (None, absent)]
    return created, absent, [u for u in others if u is not None]


async def withdraw(repo: GameRepository, game_id: int, users: list[int], gone: int) -> None:
    """The game is a league table and ``gone`` withdrew from the league (its forfeit stored;
    the resignation that follows it in the service has not happened yet)."""
    league = await repo.create_league(
        NewLeague(GUILD, CHANNEL, "Spring", "yamatai", 3, 3, "swiss", 2 * DAY, "3,2,1", None, 1),
        now=NOW,
    )
    for user in users:
        assert await repo.join_league(league.id, user, USERS[user], now=NOW)
    assert await repo.seat_league_round(league.id, 1, [users])
    [table] = await repo.league_tables(league.id)
    assert await repo.set_table_game(league.id, 1, table.table_no, 500, game_id)
    assert await repo.withdraw_from_league(league.id, gone) == 1


async def leave_the_game(
    rooms: Rooms, repo: GameRepository, how: str, game_id: int, gone: int
) -> None:
    """``gone`` no longer plays: resigned, away (the computer plays the seat), on vacation, or
    withdrawn from the game's league."""
    game = await rooms.desk.repo.load_game(game_id)
    if how == "resigned":
        await rooms.endings.resign(gone, game_id=game_id)
    elif how == "away":
        [seat] = game.seats_of(gone)
        assert await rooms.desk.repo.set_stand_in(game_id, seat, "away", now=NOW)
    elif how == "vacation":
        until = datetime.fromtimestamp(NOW + 10 * DAY, UTC).date().isoformat()
        await rooms.settings.set_vacation(gone, until)
    else:
        users = [s.user_id for s in game.seats]
        await withdraw(repo, game_id, users, gone)


@pytest.mark.parametrize("how", ["resigned", "away", "vacation", "withdrawn"])
def test_a_player_who_no_longer_plays_does_not_vote_nor_count(tmp_path: Path, how: str) -> None:
    """Three humans; one of the two others stopped playing: their vote is refused, and the
    last one's vote alone is the majority (one of one)."""

    async def main() -> None:
        repo = await open_store(database(tmp_path, "games.sqlite3"))
        clock = Clock()
        try:
            rooms = build_rooms(repo, renderer=_fake_picture, clock=clock)
            created, _, (gone, voter) = await deadline_game(rooms, 3)
            await leave_the_game(rooms, repo, how, created.game_id, gone)
            clock.now += 2 * DAY
            turn = (await repo.list_reminders(created.game_id))[0].turn
            with pytest.raises(ServiceError) as caught:
                await rooms.deadlines.vote_skip(gone, game_id=created.game_id, turn=turn)
            assert caught.value.key == "deadline.not_voter"
            voted = await rooms.deadlines.vote_skip(voter, game_id=created.game_id, turn=turn)
            assert (voted.votes, voted.needed) == (1, 1) and voted.turn is not None
        finally:
            await repo.close()

    asyncio.run(main())


def test_simultaneous_hand_over_votes_hand_the_seat_over_once(tmp_path: Path) -> None:
    """Four humans: one vote, then the two others at once from two processes (each reaches the
    majority of two), then a late one: the seat is handed over by exactly one of them."""

    async def main() -> None:
        target = database(tmp_path, "games.sqlite3")
        first, second = await open_store(target), await open_store(target)
        clock = Clock()
        try:
            rooms = build_rooms(first, renderer=_fake_picture, clock=clock)
            other = build_rooms(second, renderer=_fake_picture, clock=clock)
            created, absent, voters = await deadline_game(rooms, 4)
            clock.now += 2 * DAY
            game_id = created.game_id
            turn = (await first.list_reminders(game_id))[0].turn
            opened = await rooms.deadlines.vote_skip(
                voters[0], game_id=game_id, turn=turn, choice="away"
            )
            assert (opened.votes, opened.needed, opened.handed) == (1, 2, None)
            together = await asyncio.gather(
                rooms.deadlines.vote_skip(voters[1], game_id=game_id, turn=turn, choice="away"),
                other.deadlines.vote_skip(voters[2], game_id=game_id, turn=turn, choice="away"),
            )
            late = await other.deadlines.vote_skip(
                voters[0], game_id=game_id, turn=turn, choice="away"
            )
            results = [*together, late]
            assert all(r.handed is not None and r.handed.user_id == absent for r in results)
            assert [r.announce for r in results].count(True) == 1
            assert late.announce is False
            game = await first.load_game(game_id)
            assert [s.stand_in for s in game.seats if s.user_id == absent] == ["away"]
        finally:
            await first.close()
            await second.close()

    asyncio.run(main())


def test_reading_a_deadline_schedules_nothing_scheduling_does_once(tmp_path: Path) -> None:
    """A getter never schedules (issue 20): ``deadline_of`` reads the stored deadline only;
    ``schedule_reminders`` (the door's step when the turn's message is posted) schedules the
    turn's reminders once, and a second call changes nothing."""

    async def main() -> None:
        repo = await open_store(database(tmp_path, "games.sqlite3"))
        try:
            rooms = build_rooms(repo, renderer=_fake_picture, clock=Clock())
            created = await rooms.playing.create_game(
                game_key="yamatai",
                guild_id=GUILD,
                channel_id=CHANNEL,
                thread_id=500,
                players=list(USERS.items())[:2],
                settings=GameSettings(turn_deadline=2 * DAY),
            )
            game_id, turn = created.game_id, created.turn
            assert await rooms.deadlines.deadline_of(game_id, turn) is None
            assert await repo.list_reminders(game_id) == []
            assert await rooms.deadlines.schedule_reminders(game_id, turn) == NOW + 2 * DAY
            scheduled = await repo.list_reminders(game_id)
            assert [r.kind for r in scheduled] == ["half", "near", "deadline"]
            assert await rooms.deadlines.deadline_of(game_id, turn) == NOW + 2 * DAY
            assert await rooms.deadlines.schedule_reminders(game_id, turn) == NOW + 2 * DAY
            assert await repo.list_reminders(game_id) == scheduled
        finally:
            await repo.close()

    asyncio.run(main())


def _skip_by_vote(tmp_path: Path) -> tuple[list[dict[int, str]], int, int, SkipVote]:
    """A three-player game whose absent player's turn the other two vote to skip: the levels
    the think pool was asked for, the absent player (user id, seat), and the second vote's
    result."""
    from tests.e2e.test_levels import RecordingPool

    async def main() -> tuple[list[dict[int, str]], int, int, SkipVote]:
        repo = await open_store(database(tmp_path, "games.sqlite3"))
        clock = Clock()
        pool = RecordingPool()
        try:
            rooms = build_rooms(repo, renderer=_fake_picture, clock=clock, think=pool)
            created, absent, (first, second) = await deadline_game(rooms, 3)
            clock.now += 2 * DAY
            turn = (await repo.list_reminders(created.game_id))[0].turn
            await rooms.deadlines.vote_skip(first, game_id=created.game_id, turn=turn)
            voted = await rooms.deadlines.vote_skip(second, game_id=created.game_id, turn=turn)
            seat = next(p.seat for p in created.players if p.user_id == absent)
            return pool.levels, absent, seat, voted
        finally:
            await repo.close()

    return asyncio.run(main())


def test_a_skipped_turn_is_played_strong_in_the_think_pool(tmp_path: Path) -> None:
    """The absent player's turn, skipped by vote, is decided where every computer decides (never
    on the event loop), by the strong player as any stand-in (D80), one turn only."""
    levels, _, seat, voted = _skip_by_vote(tmp_path)
    assert voted.turn is not None
    assert levels == [{seat: "strong"}]


def test_a_skip_vote_plays_at_the_stand_ins_level_through_the_computer_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn skipped by vote is played by the computer room as it plays every stand-in: at
    ``computers.STAND_IN_LEVEL`` (whatever it is), saved as the computer's for the absent
    player, the turn reported."""
    monkeypatch.setattr("bot.service.computers.STAND_IN_LEVEL", "easy")
    levels, absent, seat, voted = _skip_by_vote(tmp_path)
    assert levels == [{seat: "easy"}]
    assert voted.turn is not None and voted.turn.skipped
    assert voted.turn.player.user_id == absent
