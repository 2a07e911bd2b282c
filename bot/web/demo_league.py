"""The demo's league (``python -m bot.web.demo``): four players, two rounds of two tables, in the
first registered game.

Played through the league service as the bot plays a season (sign-up, start, each round's
tables opened, rated, the next round seated), with the computer players in every seat: round 1
to its end, round 2 under way. Each step is stored before the next, and a start on a file that
has the league goes on from where it stands.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from bot.service import Rooms, ServiceError
from bot.store import GameRepository, League
from engine import games

LEAGUE_NAME = "Himiko"
LEAGUE_GAME = next(iter(games.GAMES))  # the first registered game
LEAGUE_LANGUAGE = "fr"  # the demo server's language: the league's page and its games
LEAGUE_ROUNDS = 2
PLAYERS = {101: "Iyo", 102: "Nashime", 103: "Tsushima", 104: "Aiko"}
ORGANISER = 101

#: plays a stored game on: ``turns`` more turns (None: to its end)
PlayOn = Callable[[int, int | None], Awaitable[None]]


async def demo_league(repo: GameRepository, rooms: Rooms, play_on: PlayOn, turns: int) -> League:
    """The demo's league, created and played on as far as the demo shows it (round 1 over,
    ``turns`` turns of each round-2 game)."""
    leagues = rooms.leagues
    league = await repo.load_league(1, LEAGUE_NAME)
    if league is None:
        await repo.set_guild_language(1, LEAGUE_LANGUAGE, by=ORGANISER, now=0)
        league = await leagues.create(
            guild_id=1,
            channel_id=2,
            creator_id=ORGANISER,
            name=LEAGUE_NAME,
            game_key=LEAGUE_GAME,
            rounds=LEAGUE_ROUNDS,
            table_size=2,
            deadline_hours=0,
        )
    if league.status == "signup":
        for user, name in PLAYERS.items():
            with contextlib.suppress(ServiceError):  # joined on an earlier, interrupted start
                await leagues.join(1, LEAGUE_NAME, user, name)
        await leagues.start(1, LEAGUE_NAME, ORGANISER, organiser=True)
    for _ in range(LEAGUE_ROUNDS):
        owed = await leagues.owed(league.id)  # seats the next round once this one ended
        if owed is None:
            break
        for table in owed.tables:
            thread = 2000 + 10 * table.table.round + table.table.table_no
            await leagues.open_table(table, thread, LEAGUE_LANGUAGE)
        for seated in await repo.league_tables(league.id):
            if seated.game_id is None:
                continue
            if seated.round < LEAGUE_ROUNDS:
                await play_on(seated.game_id, None)
                await leagues.game_ended(seated.game_id)
            elif (await repo.load_game(seated.game_id)).action_count == 0:
                await play_on(seated.game_id, turns)
    found = await repo.load_league_by_id(league.id)
    assert found is not None  # leagues are never deleted
    return found
