"""Abandoning a league game, through the services on SQLite and PostgreSQL: only the league's
organisers (or Manage Threads) may, and the game counts for the league as it stood: places by
the scores at that moment, who resigned or withdrew last. Abandoning never voids a loss."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.league.standings import place_points
from bot.league_picture import standings_png
from bot.service import Member, ServiceError
from engine import games as engine_games
from render.text import measuring
from tests.league.season import (
    CHANNEL,
    GUILD,
    ORGANISER,
    PLAYERS,
    Leagues,
    open_round,
    run,
    with_leagues,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

ROLE = 4242
FOUR = PLAYERS[:4]


async def league_game(env: Leagues) -> int:
    """A Yamatai league of four players, one table, started by its creator; the table's game."""
    await env.leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=ORGANISER,
        name="Cup",
        game_key="yamatai",
        rounds=2,
        table_size=4,
        organiser_role=ROLE,
    )
    for user, name in FOUR:
        await env.leagues.join(GUILD, "Cup", user, name)
    progress = await env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)
    [game_id] = await open_round(env, progress.league.id)
    return game_id


async def play_some(env: Leagues, game_id: int, actions: int) -> None:
    """Play that many actions, each chosen by the game's computer player for its seat."""
    for step in range(actions):
        game = await env.repo.load_game(game_id)
        match = engine_games.from_json(game.snapshot)
        seat = match.current_seat
        assert seat is not None
        if game.stand_in_of(seat) is not None:
            async for _ in env.games.computers.computer_turns(game_id):
                pass
            continue
        action = engine_games.computer_player("yamatai")(match.view(seat), step)
        await env.games.playing.play(game.user_of(seat) or 0, action, game_id=game_id)


async def scores(env: Leagues, game_id: int) -> dict[int, int]:
    """Each player's score as the game stands now."""
    game = await env.repo.load_game(game_id)
    standing = engine_games.from_json(game.snapshot).standing
    return {game.user_of(r.seat) or 0: r.score for r in standing.results}


def expected(scored: dict[int, int], last: frozenset[int] = frozenset()) -> dict[int, float]:
    """League points by the scores (equal scores share their places), ``last`` after everyone."""
    points = place_points(len(scored))
    ranked = sorted((u for u in scored if u not in last), key=lambda u: -scored[u])
    order = ranked + [u for u in scored if u in last]
    result = {}
    for user in order:
        if user in last:
            places = range(len(scored) - len(last), len(scored))
        else:
            ahead = sum(scored[o] > scored[user] for o in ranked)
            tied = sum(scored[o] == scored[user] for o in ranked)
            places = range(ahead, ahead + tied)
        result[user] = round(sum(points[p] for p in places) / len(places), 4)
    return result


def test_only_the_league_s_organisers_or_manage_threads_may_abandon_a_league_game(
    tmp_path: Path,
) -> None:
    async def body(env: Leagues) -> None:
        game_id = await league_game(env)
        game = await env.repo.load_game(game_id)
        first = game.user_of(0) or 0  # would have been its "host"
        for member in (Member(first), Member(game.user_of(1) or 0), Member(7, roles=(1, 2))):
            with pytest.raises(ServiceError) as refused:
                await env.games.endings.may_abandon(member, thread_id=game.thread_id)
            assert refused.value.key == "abandon.league_only"
            assert refused.value.params["name"] == "Cup"
        for member in (
            Member(ORGANISER),
            Member(7, manage_guild=True),
            Member(7, roles=(ROLE,)),
            Member(first, manage_threads=True),
        ):
            found = await env.games.endings.may_abandon(member, thread_id=game.thread_id)
            assert found == (game_id, game.version, "Cup")
        with pytest.raises(ServiceError):
            await env.games.endings.abandon(Member(first), game_id=game_id)
        assert (await env.repo.load_game(game_id)).status == "active"

    run(lambda: with_leagues(tmp_path, body))


def test_an_abandoned_league_game_counts_as_it_stood(tmp_path: Path) -> None:
    """Every player is placed by the score at that moment; the one behind keeps the loss."""

    async def body(env: Leagues) -> None:
        game_id = await league_game(env)
        await play_some(env, game_id, 60)
        scored = await scores(env, game_id)
        assert len(set(scored.values())) > 1, scored  # somebody is behind
        await env.games.endings.abandon(Member(ORGANISER), game_id=game_id)
        assert (await env.repo.load_game(game_id)).status == "abandoned"
        league = await env.leagues.get(GUILD, "Cup")
        lines = (await env.leagues.standings(league)).lines
        assert {line.user_id: line.points for line in lines} == expected(scored)
        assert all(line.played == 1 for line in lines)
        behind = min(scored, key=lambda u: scored[u])
        assert next(line for line in lines if line.user_id == behind).rank == 4
        progress = await env.leagues.progress(league.id)
        assert progress.seated_round == 2  # the round is over: the next one is seated
        ended = await env.games.reports.pending_post(game_id)
        assert ended is not None and getattr(ended, "reason", None) == "abandoned_by_league"

    run(lambda: with_leagues(tmp_path, body))


def test_who_resigned_ranks_last_in_an_abandoned_league_game(tmp_path: Path) -> None:
    """Resigning (the computer plays on), then having the game abandoned, is still a loss."""

    async def body(env: Leagues) -> None:
        game_id = await league_game(env)
        await play_some(env, game_id, 60)
        scored = await scores(env, game_id)
        leader = max(scored, key=lambda u: scored[u])
        await env.games.endings.resign(leader, game_id=game_id)
        await env.games.endings.abandon(Member(ORGANISER), game_id=game_id)
        scored = await scores(env, game_id)
        league = await env.leagues.get(GUILD, "Cup")
        lines = (await env.leagues.standings(league)).lines
        points = {line.user_id: line.points for line in lines}
        assert points == expected(scored, frozenset({leader}))
        assert points[leader] == 0
        assert {line.user_id: line.resigned for line in lines} == {u: u == leader for u in points}
        catalog = default_catalog()
        standings = await env.leagues.standings(league)
        with measuring() as drawn:
            standings_png(lambda key, **p: catalog.text(key, "fr", **p), standings, "fr")
        notes = [d.text for d in drawn if d.text.startswith("(abandons")]
        assert notes == ["(abandons\xa0: 1)"]  # the picture marks who resigned

    run(lambda: with_leagues(tmp_path, body))
