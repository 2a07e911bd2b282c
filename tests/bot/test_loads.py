"""How often a game is read whole from the store (issue 36 item 2): a completed turn, its thread
message and its mark read it once; a due reminder once; a runner with nothing owed not at all.

``CountingStore`` wraps the real repository (SQLite or PostgreSQL) and counts, per game, every
read of a whole game (its row, seats and snapshot); the rooms are built on it as the bot builds
them, and the Discord side (the real ``Outbox`` and ``ReminderScheduler`` on the fake bot) goes
through them too.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from bot.background.scheduler import ReminderScheduler
from bot.service import GameSettings, PlayResult, Rooms, build_rooms
from bot.store import Game, GameRepository, LeagueStore, open_store
from bot.thread.door import announce
from engine import games
from engine.yamatai.players import greedy_player
from tests.backends import database

from .fakes import FakeBot, FakeThread
from .support import ANN, BO, CHANNEL, GUILD, _fake_picture

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

T = TypeVar("T")
DAY = 24 * 3600
NOW = 1_800_000_000

#: The store's reads of a whole game (its row, its seats, its snapshot or its log).
WHOLE_GAME_READS = frozenset(
    {
        "load_game",
        "load_game_by_thread",
        "load_latest_game_by_thread",
        "latest_game_head_by_thread",
        "load_game_with_actions",
    }
)


class CountingStore:
    """The real repository, every call delegated; the whole-game reads counted per game."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.loads: Counter[int] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.repo, name)
        if name not in WHOLE_GAME_READS:
            return found

        async def counted(*args: Any, **kwargs: Any) -> Any:
            result = await found(*args, **kwargs)
            game = result[0] if isinstance(result, tuple) else result
            assert isinstance(game, Game)
            self.loads[game.id] += 1
            return result

        return counted

    def reset(self) -> None:
        """Count from zero again."""
        self.loads.clear()


class Clock:
    """The rooms' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = float(NOW)

    def __call__(self) -> float:
        return self.now


async def counted_rooms(
    tmp_path: Path, body: Callable[[Rooms, CountingStore, Clock], Awaitable[T]]
) -> T:
    """Run ``body`` with rooms built on a counting store over a real one."""
    repo = await open_store(database(tmp_path, "games.sqlite3"))
    counting = CountingStore(repo)
    clock = Clock()
    try:
        rooms = build_rooms(
            cast(LeagueStore, counting),
            renderer=_fake_picture,
            seed_source=lambda: 7,
            clock=clock,
        )
        return await body(rooms, counting, clock)
    finally:
        await repo.close()


async def deadline_game(rooms: Rooms, *, game_key: str = "yamatai", takeover: bool = False) -> int:
    """A game of Ann and Bo in thread 500 with a two-day deadline; its opening posted (its
    first turn's reminders scheduled)."""
    created = await rooms.playing.create_game(
        game_key=game_key,
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=500,
        players=[(ANN, "Ann"), (BO, "Bo")],
        settings=GameSettings(turn_deadline=2 * DAY, computer_takeover=takeover),
    )
    opening = await rooms.messages.prepare(created.game_id, created)
    assert opening is not None and opening.deadline == NOW + 2 * DAY
    await rooms.messages.posted(opening)
    return created.game_id


async def whole_turn(counting: CountingStore, game_id: int) -> tuple[int, str]:
    """The player to act and the whole turn the greedy player plays for them (read from the
    store behind the count)."""
    game = await counting.repo.load_game(game_id)
    match = games.from_json(game.snapshot)
    seat = match.current_seat
    assert seat is not None
    before = len(match.log)
    while not match.milestones(match.play(greedy_player(match.view(seat), 1))).turn_ended:
        pass
    return game.user_of(seat) or 0, "; ".join(t for _, t in match.log[before:])


async def nim_move(counting: CountingStore, game_id: int) -> tuple[int, str, bool]:
    """The Nim player to act, the most they may take, and whether that ends the game."""
    game = await counting.repo.load_game(game_id)
    match = games.from_json(game.snapshot)
    seat = match.current_seat
    assert seat is not None
    action = max(match.legal_actions(), key=lambda a: int(a.split()[1]))
    match.play(action, seat=seat)
    return game.user_of(seat) or 0, action, match.outcome is not None


def test_a_completed_turn_loads_its_game_once(tmp_path: Path) -> None:
    """A whole turn played, its thread message prepared (deadline, the next player's delivery)
    and marked posted (the next turn's reminders begin): one read of the game (3 before)."""

    async def body(rooms: Rooms, counting: CountingStore, clock: Clock) -> None:
        game_id = await deadline_game(rooms)
        user, text = await whole_turn(counting, game_id)
        clock.now += 3600
        counting.reset()
        result = await rooms.playing.play(user, text, game_id=game_id)
        assert result.turn is not None and result.turn.next_player is not None
        prepared = await rooms.messages.prepare(game_id, result.turn)
        assert prepared is not None and prepared.message == result.turn
        assert prepared.deadline == NOW + 3600 + 2 * DAY
        assert prepared.delivery is not None and prepared.delivery.ping
        await rooms.messages.posted(prepared)
        assert counting.loads == {game_id: 1}
        assert await rooms.reading.announced_version(game_id) == result.version
        reminders = await counting.repo.list_reminders(game_id)
        assert {r.user_id for r in reminders if r.cancelled_at is None} == {
            result.turn.next_player.user_id
        }
        assert await rooms.messages.prepare(game_id, result.turn) is None  # posted: nothing

    asyncio.run(counted_rooms(tmp_path, body))


def test_the_last_turn_of_a_game_loads_it_once(tmp_path: Path) -> None:
    """Nim played to its end: the last turn, its final message (board drawn first, the recap,
    whether a coach is offered) and its mark read the game once (7 before)."""

    async def body(rooms: Rooms, counting: CountingStore, clock: Clock) -> None:
        game_id = await deadline_game(rooms, game_key="nim")
        for _ in range(100):
            user, action, ends = await nim_move(counting, game_id)
            if ends:
                break
            played = await rooms.playing.play(user, action, game_id=game_id)
            assert played.turn is not None
            await rooms.messages.posted(await prepared_of(rooms, played))
        else:
            pytest.fail("Nim did not end")
        counting.reset()
        result = await rooms.playing.play(user, action, game_id=game_id)
        assert result.turn is not None and result.turn.final is not None
        prepared = await rooms.messages.prepare(game_id, result.turn)
        assert prepared is not None and prepared.final is not None
        assert prepared.deadline is None and prepared.delivery is None
        assert prepared.final.coach is False
        await rooms.messages.posted(prepared)
        assert counting.loads == {game_id: 1}
        reminders = await counting.repo.list_reminders(game_id)
        assert reminders and all(r.cancelled_at is not None for r in reminders)  # clocks stopped

    asyncio.run(counted_rooms(tmp_path, body))


async def prepared_of(rooms: Rooms, played: PlayResult) -> Any:
    """The prepared thread message of a completed turn."""
    prepared = await rooms.messages.prepare(played.game_id, played.turn)
    assert prepared is not None
    return prepared


def test_the_saved_game_is_the_stored_game(tmp_path: Path) -> None:
    """The game a save keeps (what the thread message is prepared from) is the game the store
    reads back, but for the times it stamped and the announced version: mid-game and at the
    end (status, result, seats' scores)."""

    async def body(rooms: Rooms, counting: CountingStore, clock: Clock) -> None:
        def same(kept: Game, stored: Game) -> None:
            unstamped = {"updated_at": None, "ended_at": None, "announced_version": 0}
            assert replace(kept, **unstamped) == replace(stored, **unstamped)  # type: ignore[arg-type]

        game_id = await deadline_game(rooms, game_key="nim")
        for _ in range(100):
            user, action, ends = await nim_move(counting, game_id)
            played = await rooms.playing.play(user, action, game_id=game_id)
            kept = rooms.desk.known.get(game_id, played.version)
            assert kept is not None and kept.game is not None
            same(kept.game, await counting.repo.load_game(game_id))
            if ends:
                assert kept.game.status == "finished"
                break
        else:
            pytest.fail("Nim did not end")

    asyncio.run(counted_rooms(tmp_path, body))


def test_a_due_reminder_loads_its_game_once(tmp_path: Path) -> None:
    """A deadline in a game with the take-over option: one read of the game decides the
    message (thread, language, delivery) and stores the take-over (3 reads before)."""

    async def body(rooms: Rooms, counting: CountingStore, clock: Clock) -> None:
        game_id = await deadline_game(rooms, takeover=True)
        clock.now += 2 * DAY
        rows = await rooms.deadlines.claim_due_reminders(lease=300)
        latest = max(rows, key=lambda r: (r.due_at, r.id))
        assert latest.kind == "deadline"
        counting.reset()
        due = await rooms.deadlines.due(rows)
        assert counting.loads == {game_id: 1}
        assert due.thread_id == 500 and due.handed is not None and due.vote_turn is None
        assert due.handed.user_id == latest.user_id and due.delivery is not None
        game = await counting.repo.load_game(game_id)
        assert game.stand_in_of(latest.seat) == "away"  # stored before any text was made

    asyncio.run(counted_rooms(tmp_path, body))


def test_the_runner_finds_nothing_owed_without_a_load(tmp_path: Path) -> None:
    """The runner's first step, a flush of a game that owes nothing: no read of the game (one
    before, to read one integer)."""

    async def body(rooms: Rooms, counting: CountingStore, clock: Clock) -> None:
        game_id = await deadline_game(rooms)
        bot = FakeBot(FakeThread(), rooms)
        counting.reset()
        assert await bot.outbox.flush(game_id) is False
        assert counting.loads == {}
        assert bot.thread.sent == []

    asyncio.run(counted_rooms(tmp_path, body))


def test_a_turn_posted_through_the_door_loads_once(tmp_path: Path) -> None:
    """``/play`` as the cog runs it: the play, then the door posts the turn through the real
    outbox (deadline, ping, buttons, reminders, mark): one read of the game, one message."""

    async def body(rooms: Rooms, counting: CountingStore, clock: Clock) -> None:
        game_id = await deadline_game(rooms)
        bot = FakeBot(FakeThread(), rooms)
        user, text = await whole_turn(counting, game_id)
        counting.reset()
        result = await rooms.playing.play(user, text, game_id=game_id)
        assert await announce(bot, result)  # type: ignore[arg-type]
        assert counting.loads == {game_id: 1}
        [message] = bot.thread.sent
        assert f"<t:{NOW + 2 * DAY}:R>" in message["content"] and "view" in message
        assert await rooms.reading.announced_version(game_id) == result.version

    asyncio.run(counted_rooms(tmp_path, body))


def test_a_reminder_delivered_through_the_scheduler_loads_once(tmp_path: Path) -> None:
    """The real scheduler delivers a deadline's message with its votes: one read of the game
    (3 before: the thread, the language, the take-over option)."""

    async def body(rooms: Rooms, counting: CountingStore, clock: Clock) -> None:
        game_id = await deadline_game(rooms)
        bot = FakeBot(FakeThread(), rooms)
        scheduler = ReminderScheduler(bot, 60)  # type: ignore[arg-type]
        clock.now += 2 * DAY
        counting.reset()
        assert await scheduler.tick() == 1
        assert counting.loads == {game_id: 1}
        [message] = bot.thread.sent
        assert "view" in message  # skip the turn, or hand the seat over
        assert bot.runner.kicked == []

    asyncio.run(counted_rooms(tmp_path, body))


def test_the_last_turn_posted_through_the_door_loads_once(tmp_path: Path) -> None:
    """Nim's last turn as the cog plays it, posted by the door through the real outbox (final
    buttons, recap, the lobby's steps, the clocks stopped): one read of the game."""

    async def body(rooms: Rooms, counting: CountingStore, clock: Clock) -> None:
        game_id = await deadline_game(rooms, game_key="nim")
        bot = FakeBot(FakeThread(), rooms)
        for _ in range(100):
            user, action, ends = await nim_move(counting, game_id)
            if ends:
                break
            assert await announce(bot, await rooms.playing.play(user, action, game_id=game_id))  # type: ignore[arg-type]
        else:
            pytest.fail("Nim did not end")
        counting.reset()
        sent = len(bot.thread.sent)
        result = await rooms.playing.play(user, action, game_id=game_id)
        assert await announce(bot, result)  # type: ignore[arg-type]
        assert counting.loads == {game_id: 1}
        [final] = bot.thread.sent[sent:]
        assert "view" in final and bot.leagues.ended == [game_id]
        assert await rooms.reading.announced_version(game_id) == result.version

    asyncio.run(counted_rooms(tmp_path, body))
