"""A league season through the service layer: a real SQLite store, computer-chosen moves."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bot.service import Rooms, build_rooms
from bot.service.leagues import LeagueService
from bot.service.ratings import RatingService
from bot.store import GameRepository, open_store
from engine import games as engine_games
from tests.backends import database

T = TypeVar("T")
GUILD, CHANNEL, ORGANISER = 77, 78, 900
PLAYERS = [(1000 + i, f"P{i}") for i in range(1, 9)]


@dataclass
class Leagues:
    """The services a league uses, on one store."""

    repo: GameRepository
    games: Rooms
    ratings: RatingService
    leagues: LeagueService
    next_thread: int = 5000

    def thread(self) -> int:
        """A new thread id for a table."""
        self.next_thread += 1
        return self.next_thread


def _picture(view: object, events: object, *more: object) -> bytes:
    return b"\x89PNG fake"


async def with_leagues(tmp_path: Path, body: Callable[[Leagues], Awaitable[T]]) -> T:
    """Open a store, build the rooms as the bot does, run ``body``, close the store."""
    repo = await open_store(database(tmp_path, "league.sqlite3"))
    try:
        games = build_rooms(repo, renderer=_picture, seed_source=lambda: 11, clock=lambda: 1e9)
        return await body(Leagues(repo, games, games.ratings, games.leagues))
    finally:
        await repo.close()


async def open_round(env: Leagues, league_id: int) -> list[int]:
    """Open every seated, unopened table of the league's current round; their game ids."""
    league = await env.repo.load_league_by_id(league_id)
    assert league is not None
    ids = []
    for table in await env.leagues.tables_to_open(league):
        created = await env.leagues.open_table(table, env.thread())
        assert created is not None
        ids.append(created.game_id)
    return ids


async def play_out(env: Leagues, game_id: int) -> None:
    """Play a game to its end, each action chosen by the game's computer player for the seat;
    its end is told to the league room as the bot's league runner does."""
    for _ in range(3000):
        game = await env.repo.load_game(game_id)
        if game.status != "active":
            await env.leagues.game_ended(game_id)
            return
        match = engine_games.from_json(game.snapshot)
        seat = match.current_seat
        assert seat is not None
        if game.stand_in_of(seat) is not None:  # a withdrawn player's seat: the computer plays
            async for _ in env.games.computers.computer_turns(game_id):
                pass
            continue
        action = engine_games.computer_player(game.game_key)(match.view(seat), game.seed + seat)
        await env.games.playing.play(game.user_of(seat) or 0, action, game_id=game_id)
    raise AssertionError(f"game {game_id} did not end")


def run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async test body."""
    asyncio.run(body())
