"""Shard filters: each process's sweeps only see the games of its shards' guilds."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.store import GameRepository, Shards
from tests.backends import database

from .store_helpers import seats, with_repo

pytestmark = pytest.mark.usefixtures("backend")

T0 = 1_800_000_000
# Discord ids carry their shard in the bits above the 22nd: guild A is on shard 0 of 2, B on 1
GUILD_A = (700_000_000 << 22) | 5
GUILD_B = (700_000_001 << 22) | 5
FIRST, SECOND, BOTH = (
    Shards(2, frozenset({0})),
    Shards(2, frozenset({1})),
    Shards(2, frozenset({0, 1})),
)


async def _game(repo: GameRepository, guild_id: int, thread_id: int, *, computer: bool) -> int:
    """A game whose seat to act is a computer's (user 0) or a human's; owes its opening."""
    game = await repo.create_game(
        guild_id=guild_id,
        channel_id=20,
        thread_id=thread_id,
        game_key="yamatai",
        seed=7,
        options=None,
        seats=seats(2, first_user=0 if computer else 100),
        snapshot='{"n":0}',
        current_seat=0,
    )
    return game.id


def test_sweeps_return_only_the_games_of_the_process_shards(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        a = await _game(repo, GUILD_A, 31, computer=True)
        b = await _game(repo, GUILD_B, 32, computer=True)
        await repo.abandon_game(b)
        c = await _game(repo, GUILD_B, 33, computer=False)
        assert await repo.unannounced_games() == [a, c]
        assert await repo.unannounced_games(FIRST) == [a]
        assert await repo.unannounced_games(SECOND) == [c]
        assert await repo.unannounced_games(BOTH) == [a, c]
        assert await repo.unannounced_abandoned_games(FIRST) == []
        assert await repo.unannounced_abandoned_games(SECOND) == [b]
        assert await repo.computer_due_games(now=T0) == [a]
        assert await repo.computer_due_games(now=T0, shards=FIRST) == [a]
        assert await repo.computer_due_games(now=T0, shards=SECOND) == []

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_a_reminder_is_claimed_only_by_the_process_of_its_guild(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        games = {GUILD_A: await _game(repo, GUILD_A, 31, computer=False)}
        games[GUILD_B] = await _game(repo, GUILD_B, 32, computer=False)
        for game_id in games.values():
            await repo.schedule_turn(
                game_id,
                turn="1.0",
                seat=0,
                user_id=100,
                deadline_at=T0 + 200,
                reminders=[("half", T0 + 100)],
                now=T0,
            )
        [second] = await repo.claim_due_reminders(now=T0 + 100, lease=60, shards=SECOND)
        assert second.game_id == games[GUILD_B]
        assert await repo.claim_due_reminders(now=T0 + 100, lease=60, shards=SECOND) == []
        [first] = await repo.claim_due_reminders(now=T0 + 100, lease=60, shards=FIRST)
        assert first.game_id == games[GUILD_A]

    with_repo(database(tmp_path, "db.sqlite3"), body)


@given(st.integers(min_value=0, max_value=2**63 - 1), st.integers(min_value=1, max_value=64))
def test_every_guild_belongs_to_exactly_one_shard(guild_id: int, count: int) -> None:
    owners = [i for i in range(count) if Shards(count, frozenset({i})).owns(guild_id)]
    assert owners == [(guild_id >> 22) % count]
    assert Shards(count, frozenset(range(count))).everything


def test_shard_ids_outside_the_count_are_refused() -> None:
    with pytest.raises(ValueError, match=r"out of 0\.\.1"):
        Shards(2, frozenset({2}))
