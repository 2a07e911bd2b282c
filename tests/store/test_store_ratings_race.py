"""Ratings from several processes: changes computed from ratings that moved are refused whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import GameRepository, RatingChange, RatingsMoved
from tests.backends import database

from .store_helpers import seats, with_repo

pytestmark = pytest.mark.usefixtures("backend")

GUILD, USER = 10, 1001


async def _game(repo: GameRepository, thread_id: int) -> int:
    game = await repo.create_game(
        guild_id=GUILD,
        channel_id=20,
        thread_id=thread_id,
        game_key="yamatai",
        seed=7,
        options=None,
        seats=seats(2),
        snapshot='{"n":0}',
        current_seat=0,
    )
    return game.id


def test_changes_from_a_rating_that_moved_are_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    """Two processes rate two games of one player from the same starting rating: the second
    write is refused (RatingsMoved), leaving its game unrated, until computed again."""

    async def body(repo: GameRepository) -> None:
        first, second = await _game(repo, 30), await _game(repo, 31)
        start = (25.0, 8.25)
        won = RatingChange(first, USER, *start, 27.0, 8.0)
        assert await repo.record_ratings(first, GUILD, "yamatai", [won])
        stale = RatingChange(second, USER, *start, 26.0, 8.125)
        with pytest.raises(RatingsMoved):
            await repo.record_ratings(second, GUILD, "yamatai", [stale])
        [rating] = await repo.game_ratings(GUILD, "yamatai")
        assert (rating.mu, rating.sigma, rating.games) == (27.0, 8.0, 1)
        assert await repo.game_rating_changes(second) == []
        fresh = RatingChange(second, USER, 27.0, 8.0, 28.0, 7.75)
        assert await repo.record_ratings(second, GUILD, "yamatai", [fresh])
        [rating] = await repo.game_ratings(GUILD, "yamatai")
        assert (rating.mu, rating.games) == (28.0, 2)

    with_repo(database(tmp_path, "db.sqlite3"), body)
