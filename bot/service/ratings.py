"""Ratings: openskill's Plackett-Luce model over every finished game, per server and game.

Each finished game is rated once, in the order games ended (the store's ``rated_games`` mark
commits with the changes). Only human seats are rated; a game with fewer than two humans changes
nobody. A seat whose league player withdrew ranks last. The displayed rating is conservative:
``mu - 3 sigma`` (openskill's ordinal), 0 for a new player.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.store import Game, GameStatus, Rating, RatingBook, RatingChange, RatingsMoved

from .results import COMPUTER_USER_ID

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
RATING_ATTEMPTS = 5  # a game rated again from fresh ratings when another process moved them
MU, SIGMA = MODEL.mu, MODEL.sigma
RECENT_GAMES = 50  # a player's newest seats looked at for the game ``/rating`` shows


def displayed(mu: float, sigma: float) -> float:
    """The conservative rating players see: mu - 3 sigma."""
    return mu - 3 * sigma


def seat_ranks(game: Game, forfeits: set[int]) -> list[tuple[int, int]]:
    """(user, rank) of a finished game's human players; forfeited players after everyone."""
    ranked: dict[int, int] = {}
    for seat in game.seats:
        if seat.user_id == COMPUTER_USER_ID or seat.final_rank is None:
            continue
        rank = len(game.seats) + 1 if seat.user_id in forfeits else seat.final_rank
        ranked[seat.user_id] = min(rank, ranked.get(seat.user_id, rank))
    return sorted(ranked.items())


def rate(
    game_id: int, ranks: Sequence[tuple[int, int]], current: Mapping[int, Rating]
) -> list[RatingChange]:
    """The rating changes of one game: (user, rank) best rank 1, ties share a rank."""
    if len(ranks) < 2:
        return []
    before = [current.get(user) for user, _ in ranks]
    teams = [
        [MODEL.rating(mu=MU if r is None else r.mu, sigma=SIGMA if r is None else r.sigma)]
        for r in before
    ]
    after = MODEL.rate(teams, ranks=[float(rank) for _, rank in ranks])
    return [
        RatingChange(
            game_id,
            user,
            MU if old is None else old.mu,
            SIGMA if old is None else old.sigma,
            float(new[0].mu),
            float(new[0].sigma),
        )
        for (user, _), old, new in zip(ranks, before, after, strict=True)
    ]


@dataclass(frozen=True, kw_only=True)
class PlayerRating:
    """A player's rating in one game on one server, with its history (displayed values)."""

    user_id: int
    game_key: str
    rating: float
    games: int
    place: int | None  # on the server's leaderboard of that game (None: not rated yet)
    history: tuple[float, ...]  # displayed rating after each rated game, oldest first


@dataclass(frozen=True, kw_only=True)
class LeaderLine:
    """One line of a leaderboard."""

    place: int
    user_id: int
    rating: float
    games: int


class RatingService:
    """Rates finished games exactly once and answers rating questions."""

    def __init__(self, repo: RatingBook) -> None:
        self.repo = repo
        self._lock = asyncio.Lock()

    async def rate_pending(self) -> int:
        """Rate every finished game not rated yet, in the order they ended; how many.

        If a game that ended before an already rated one is found (it finished while its rating
        was interrupted), every game is rated again from the start so the order stays the one
        a rebuild uses.
        """
        async with self._lock:
            pending = await self.repo.unrated_games()
            if not pending:
                return 0
            latest = await self.repo.latest_rated_end()
            first = await self.repo.load_game(pending[0])
            if latest is not None and first.ended_at is not None and first.ended_at < latest:
                await self.repo.clear_ratings()
                pending = await self.repo.unrated_games()
            for game_id in pending:
                await self._rate(game_id)
            return len(pending)

    async def rebuild(self) -> int:
        """Forget every rating and rate every finished game again; how many games."""
        async with self._lock:
            await self.repo.clear_ratings()
            pending = await self.repo.unrated_games()
            for game_id in pending:
                await self._rate(game_id)
            return len(pending)

    async def _rate(self, game_id: int) -> None:
        game = await self.repo.load_game(game_id)
        if game.status != GameStatus.FINISHED:
            return
        ranks = seat_ranks(game, await self.repo.forfeits_of_game(game_id))
        for _ in range(RATING_ATTEMPTS):  # another process may rate the same players meanwhile
            ratings = await self.repo.game_ratings(game.guild_id, game.game_key)
            changes = rate(game.id, ranks, {r.user_id: r for r in ratings})
            try:
                await self.repo.record_ratings(game.id, game.guild_id, game.game_key, changes)
                return
            except RatingsMoved:
                continue
        log.warning("game %d: ratings kept moving; left for the next catch-up", game_id)

    async def leaderboard(self, guild_id: int, game_key: str, limit: int = 10) -> list[LeaderLine]:
        """The best displayed ratings of a game on a server (ties: more games, then user id)."""
        ratings = await self.repo.game_ratings(guild_id, game_key)
        ratings.sort(key=lambda r: (-displayed(r.mu, r.sigma), -r.games, r.user_id))
        return [
            LeaderLine(
                place=i + 1, user_id=r.user_id, rating=displayed(r.mu, r.sigma), games=r.games
            )
            for i, r in enumerate(ratings[:limit])
        ]

    async def player(self, guild_id: int, game_key: str, user_id: int) -> PlayerRating:
        """A player's rating, leaderboard place and history in one game on one server."""
        board = await self.leaderboard(guild_id, game_key, limit=1 << 30)
        line = next((b for b in board if b.user_id == user_id), None)
        history = await self.repo.rating_history(guild_id, game_key, user_id)
        return PlayerRating(
            user_id=user_id,
            game_key=game_key,
            rating=displayed(MU, SIGMA) if line is None else line.rating,
            games=0 if line is None else line.games,
            place=None if line is None else line.place,
            history=tuple(displayed(h.mu, h.sigma) for h in history),
        )

    async def displayed_ratings(self, guild_id: int, game_key: str) -> dict[int, float]:
        """Every player's displayed rating in a game on a server."""
        return {
            r.user_id: displayed(r.mu, r.sigma)
            for r in await self.repo.game_ratings(guild_id, game_key)
        }

    async def changes_of(self, game_ids: Sequence[int]) -> dict[int, float]:
        """Per player, how much the given games changed their displayed rating in total."""
        total: dict[int, float] = {}
        for game_id in game_ids:
            for c in await self.repo.game_rating_changes(game_id):
                delta = displayed(c.mu, c.sigma) - displayed(c.mu_before, c.sigma_before)
                total[c.user_id] = total.get(c.user_id, 0.0) + delta
        return total

    async def most_played(self, guild_id: int, game_keys: Sequence[str]) -> str:
        """Of ``game_keys``, the one with most rated seats on a server (else the first)."""
        seats = {
            key: sum(r.games for r in await self.repo.game_ratings(guild_id, key))
            for key in game_keys
        }
        return max(game_keys, key=lambda key: (seats[key], -game_keys.index(key)))

    async def rated_guilds(self, user_id: int) -> list[int]:
        """The servers where a player has a rating (``/rating`` in a direct message)."""
        return await self.repo.rated_guilds(user_id)

    async def rated_games_of(self, guild_id: int, user_id: int) -> list[str]:
        """The games a player is rated in on a server, most played first."""
        return await self.repo.rated_game_keys(guild_id, user_id)

    async def shown_game(self, guild_id: int, user_id: int, game_keys: Sequence[str]) -> str:
        """The game ``/rating`` shows when none is asked (D216): of ``game_keys``, the one the
        player last played among those they are rated in, else their most played rated one,
        else the one they last played at all (a player who only played another game than the
        first against the computer sees that game), else the first."""
        rated = [k for k in await self.repo.rated_game_keys(guild_id, user_id) if k in game_keys]
        recent = await self.repo.player_games(guild_id, user_id, RECENT_GAMES)
        played = [seat.game_key for seat in recent if seat.game_key in game_keys]
        return next(
            (key for key in played if key in rated),
            rated[0] if rated else next(iter(played), game_keys[0]),
        )
