"""A league's standings: each table's outcome once its game ended, the points and places over
every ended game, and the latest round every table of which ended.

The points and places are pure (``bot.league.standings``); this module reads the tables' games
and the ratings through the ``LeagueBook`` and the ratings room.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.league.standings import SeatOutcome, TableOutcome, parse_points, standings
from bot.store import Game, GameNotFound, GameStatus, League, LeagueBook, LeagueTable
from engine import games
from engine.errors import CorruptGame

from .league_results import LeagueStandings, StandingLine
from .ratings import RatingService
from .tables import RESIGNED


class LeagueTally:
    """A league's ended games counted: table outcomes and standings."""

    def __init__(self, repo: LeagueBook, ratings: RatingService) -> None:
        self.repo = repo
        self.ratings = ratings

    async def outcome(self, table: LeagueTable) -> TableOutcome | None:
        """A table's result once its game ended (None while it runs or was never opened)."""
        if table.game_id is None:
            return None
        try:
            game = await self.repo.load_game(table.game_id)
        except GameNotFound:
            return None
        if game.status == GameStatus.ACTIVE:
            return None
        forfeited = set(table.forfeited) | _resigned_users(game, table)
        ranks: Mapping[int, int | None] = {s.seat: s.final_rank for s in game.seats}
        if game.status == GameStatus.ABANDONED:  # ranked as it stood; who resigned ranks last
            ranks = _ranks_as_it_stood(game)
            forfeited |= {
                u for i, u in enumerate(table.user_ids) if game.stand_in_of(i) == "resigned"
            }
        seats = [
            SeatOutcome(user, ranks.get(index), user in forfeited)
            for index, user in enumerate(table.user_ids)
        ]
        return TableOutcome(table.round, table.table_no, tuple(seats))

    async def lines(self, league: League, tables: Sequence[LeagueTable]) -> list[StandingLine]:
        """The standings' lines over these tables' ended games, best first."""
        players = await self.repo.league_players(league.id)
        outcomes = [o for t in tables if (o := await self.outcome(t)) is not None]
        ratings = await self.ratings.displayed_ratings(league.guild_id, league.game_key)
        done = rounds_done(tables, outcomes)
        latest = [t.game_id for t in tables if t.round == done and t.game_id is not None]
        change = await self.ratings.changes_of(latest)
        counted = standings(
            [p.user_id for p in players],
            outcomes,
            withdrawn=frozenset(p.user_id for p in players if p.withdrawn_round is not None),
            ratings=ratings,
            points=parse_points(league.points),
        )
        names = {p.user_id: p.name for p in players}
        return [
            StandingLine(
                rank=s.rank,
                user_id=s.user_id,
                name=names[s.user_id],
                points=s.points,
                played=s.played,
                wins=s.wins,
                rating=ratings.get(s.user_id),
                change=change.get(s.user_id, 0.0),
                withdrawn=s.withdrawn,
                resigned=s.resigned,
            )
            for s in counted
        ]

    async def standings(self, league: League) -> LeagueStandings:
        """The league's standings over every ended game so far."""
        await self.ratings.rate_pending()
        tables = await self.repo.league_tables(league.id)
        outcomes = [o for t in tables if (o := await self.outcome(t)) is not None]
        lines = await self.lines(league, tables)
        return LeagueStandings(
            league=league, rounds_done=rounds_done(tables, outcomes), lines=tuple(lines)
        )


def _resigned_users(game: Game, table: LeagueTable) -> set[int]:
    """The league player whose resignation ended this game, if one did (abandoned, or won by
    the one other human left: both are a forfeit)."""
    reason = game.end_reason or ""
    if not reason.startswith(RESIGNED):
        return set()
    seat = int(reason.removeprefix(RESIGNED))
    return {table.user_ids[seat]} if seat < len(table.user_ids) else set()


def _ranks_as_it_stood(game: Game) -> dict[int, int]:
    """An abandoned game's places by the scores when it was abandoned (equal scores share a
    place); none if its snapshot cannot be read."""
    try:
        standing = games.from_json(game.snapshot).standing
    except CorruptGame:
        return {}
    scores = [r.score for r in standing.results]
    return {r.seat: 1 + sum(s > r.score for s in scores) for r in standing.results}


def rounds_done(tables: Sequence[LeagueTable], outcomes: Sequence[TableOutcome]) -> int:
    """The latest round every table of which ended."""
    ended = {(o.round, o.table) for o in outcomes}
    done = 0
    for round_ in sorted({t.round for t in tables}):
        if all((t.round, t.table_no) in ended for t in tables if t.round == round_):
            done = round_
        else:
            break
    return done
