"""The queue (migration 0017, issue 39 item 1): entries joined, replaced, left and expired; a
group matched takes its entries out in the same transaction, so two processes matching the
same players at once match them once; on both databases."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from bot.store import GameRepository, InvalidRequest, QueueEntry, QueueMoved
from tests.backends import database

from .store_helpers import create_plain, with_repo

pytestmark = pytest.mark.usefixtures("backend")

WEEK = 7 * 24 * 3600


def entry(user: int, *, game: str = "yamatai", guild: int = 1, at: int = 100) -> QueueEntry:
    """A player waiting for 2 to 4 players since ``at``."""
    return QueueEntry(
        guild_id=guild, user_id=user, game_key=game, name=f"Player {user}", fewest=2, most=4,
        channel_id=10 + guild, joined_at=at, expires_at=at + WEEK,
    )  # fmt: skip


def test_join_replace_leave_and_expire(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        await repo.join_queue(entry(5, at=100))
        await repo.join_queue(entry(6, at=90, game="namiji"))
        await repo.join_queue(entry(7, guild=2))
        await repo.join_queue(replace(entry(5, at=120), fewest=3, name="Ann"))  # joins again
        assert await repo.queue_of(1) == [
            entry(6, at=90, game="namiji"),
            replace(entry(5, at=120), fewest=3, name="Ann"),
        ]
        assert await repo.queue_guilds() == [1, 2]
        assert await repo.expired_queue(120 + WEEK - 1) == [
            entry(6, at=90, game="namiji"),
            entry(7, guild=2),
        ]
        # an expired entry is dropped only as it was read: a newer join of the player stays
        assert not await repo.drop_queue_entry(entry(5, at=100))
        assert await repo.drop_queue_entry(entry(6, at=90, game="namiji"))
        assert await repo.leave_queue(1, 5) == 1
        assert await repo.leave_queue(1, 5) == 0
        assert await repo.queue_of(1) == [] and await repo.queue_guilds() == [2]

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_a_match_takes_its_entries_out_and_follows_its_game(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        group = [entry(5, at=100), entry(6, at=101), entry(7, at=102)]
        for waiting in group:
            await repo.join_queue(waiting)
        await repo.join_queue(entry(8, game="namiji"))
        match = await repo.match_queue(group, channel_id=44, language="fr", now=200)
        assert match.players == ((5, "Player 5"), (6, "Player 6"), (7, "Player 7"))
        assert (match.guild_id, match.channel_id, match.game_key) == (1, 44, "yamatai")
        assert (match.language, match.created_at, match.message_id) == ("fr", 200, None)
        assert await repo.queue_of(1) == [entry(8, game="namiji")]
        assert await repo.owed_matches() == [match]
        await repo.set_match_message(match.id, 900)
        await repo.set_match_message(match.id, 901)  # a retry's message: the first stays
        game = await create_plain(repo, thread_id=900)
        await repo.set_match_game(match.id, 900, game.id)
        done = await repo.queue_match(match.id)
        assert done is not None
        assert (done.message_id, done.thread_id, done.game_id) == (900, 900, game.id)
        assert await repo.owed_matches() == []
        # a player no longer waiting as read: nothing is written
        gone = [entry(8, game="namiji"), entry(9, game="namiji")]
        with pytest.raises(QueueMoved):
            await repo.match_queue(gone, channel_id=1, language=None, now=3)
        assert await repo.queue_of(1) == [entry(8, game="namiji")]
        with pytest.raises(InvalidRequest):
            await repo.match_queue([entry(8, game="namiji")], channel_id=1, language="de", now=3)

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_two_matches_of_the_same_players_at_once_match_them_once(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        group = [entry(5), entry(6, at=101)]
        for waiting in group:
            await repo.join_queue(waiting)
        tries = await asyncio.gather(
            *(repo.match_queue(group, channel_id=1, language=None, now=5) for _ in range(4)),
            return_exceptions=True,
        )
        matched = [t for t in tries if not isinstance(t, BaseException)]
        assert len(matched) == 1, tries
        assert all(isinstance(t, QueueMoved) for t in tries if t not in matched)
        assert await repo.owed_matches() == matched

    with_repo(database(tmp_path, "db.sqlite3"), body)


def test_the_queue_channel_is_a_server_setting_beside_its_language(tmp_path: Path) -> None:
    async def body(repo: GameRepository) -> None:
        assert await repo.queue_channel(1) is None
        await repo.set_guild_language(1, "pl", by=3, now=1)
        await repo.set_queue_channel(1, 55, by=4, now=2)
        assert (await repo.queue_channel(1), await repo.guild_language(1)) == (55, "pl")
        await repo.set_queue_channel(1, None, by=4, now=3)
        await repo.set_queue_channel(2, 66, by=4, now=3)
        assert (await repo.queue_channel(1), await repo.guild_language(1)) == (None, "pl")
        assert await repo.queue_channel(2) == 66 and await repo.guild_language(2) is None

    with_repo(database(tmp_path, "db.sqlite3"), body)
