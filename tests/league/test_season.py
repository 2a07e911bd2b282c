"""A whole simulated season: 8 players, 4-player Yamatai tables, 3 Swiss-like rounds.

Checks pairings (everyone seated once a round, no avoidable repeat), standings (points per place
from the stored game results), ratings (the rebuild gives exactly the incremental ratings) and
the standings picture (a golden PNG).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from bot.league.seating import meetings, repeats
from bot.league.standings import place_points
from bot.service.leagues import LeagueService
from tests.league.season import (
    CHANNEL,
    GUILD,
    ORGANISER,
    PLAYERS,
    Leagues,
    open_round,
    play_out,
    run,
    with_leagues,
)


def fewest_repeats(players: list[int], met: dict[frozenset[int], int]) -> int:
    """The fewest repeats any split of 8 players into two tables of 4 can have (brute force)."""
    first = players[0]
    best = None
    for rest in combinations(players[1:], 3):
        a = [first, *rest]
        b = [p for p in players if p not in a]
        found = repeats([a, b], met)
        best = found if best is None else min(best, found)
    assert best is not None
    return best


def expected_points(tables: list[list[tuple[int, int]]]) -> dict[int, float]:
    """League points from (user, game rank) per table: 3/2/1/0, tied places share."""
    points: dict[int, float] = {}
    scale = place_points(4)
    for table in tables:
        for user, rank in table:
            tied = [r for _, r in table if r == rank]
            better = sum(1 for _, r in table if r < rank)
            share = sum(scale[better : better + len(tied)]) / len(tied)
            points[user] = points.get(user, 0.0) + share
    return points


async def season(env: Leagues) -> None:
    leagues: LeagueService = env.leagues
    league = await leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=ORGANISER,
        name="Spring Cup",
        game_key="yamatai",
        rounds=3,
        table_size=4,
    )
    for user, name in PLAYERS:
        await leagues.join(GUILD, "spring cup", user, name)
    progress = await leagues.start(GUILD, "Spring Cup", ORGANISER, organiser=True)
    assert progress.seated_round == 1
    everyone = sorted(u for u, _ in PLAYERS)
    results: list[list[tuple[int, int]]] = []
    for round_ in (1, 2, 3):
        tables = [t for t in await env.repo.league_tables(league.id) if t.round == round_]
        assert sorted(u for t in tables for u in t.user_ids) == everyone
        assert [len(t.user_ids) for t in tables] == [4, 4]
        earlier = meetings(
            [t.user_ids for t in await env.repo.league_tables(league.id) if t.round < round_]
        )
        assert repeats([t.user_ids for t in tables], earlier) == fewest_repeats(everyone, earlier)
        game_ids = await open_round(env, league.id)
        assert await open_round(env, league.id) == []  # opened once
        for n, game_id in enumerate(game_ids):
            await play_out(env, game_id)
            progress = await leagues.progress(league.id)
            if n < len(game_ids) - 1:
                assert progress.seated_round is None and not progress.finished
        if round_ < 3:
            assert progress.seated_round == round_ + 1
        else:
            assert progress.finished and progress.league.status == "finished"
        for game_id in game_ids:
            game = await env.repo.load_game(game_id)
            assert game.status == "finished"
            results.append([(s.user_id, s.final_rank or 0) for s in game.seats])
    final = await leagues.standings(progress.league)
    assert final.rounds_done == 3
    points = expected_points(results)
    assert {line.user_id: line.points for line in final.lines} == points
    assert all(line.played == 3 for line in final.lines)
    assert [line.rank for line in final.lines] == list(range(1, 9))
    ordered = [line.points for line in final.lines]
    assert ordered == sorted(ordered, reverse=True)
    # ratings: every game rated once; a rebuild from the finished games gives the same numbers
    incremental = await env.repo.all_ratings()
    assert len(incremental) == 8 and all(r.games == 3 for _, _, r in incremental)
    assert await env.ratings.rebuild() == 6
    assert await env.repo.all_ratings() == incremental
    assert await env.ratings.rate_pending() == 0
    exported = await leagues.export(progress.league)
    assert exported["games"].count("\n") == 1 + 6 * 4
    assert exported["standings"].splitlines()[1].startswith("1,")


def test_whole_season(tmp_path: Path) -> None:
    """Three rounds of two tables played to the end through the services."""
    run(lambda: with_leagues(tmp_path, season))
