"""A league's export: its games (one line per seat) and its standings as CSV texts."""

from __future__ import annotations

import csv
import io

from bot.league.standings import parse_points, placements
from bot.store import League, LeagueBook

from .league_results import spreadsheet_text
from .league_standings import LeagueTally

GAME_COLUMNS = (
    "round",
    "table",
    "game_id",
    "status",
    "seat",
    "user_id",
    "player",
    "game_rank",
    "score",
    "place",
    "points",
    "forfeited",
)
STANDING_COLUMNS = (
    "rank",
    "user_id",
    "player",
    "points",
    "played",
    "wins",
    "rating",
    "rating_change",
    "withdrawn",
)


async def export(repo: LeagueBook, tally: LeagueTally, league: League) -> dict[str, str]:
    """CSV texts: ``games`` (one line per seat) and ``standings``."""
    return {
        "games": await _games(repo, tally, league),
        "standings": await _standings(tally, league),
    }


async def _games(repo: LeagueBook, tally: LeagueTally, league: League) -> str:
    """One line per seat of every table, opened or not, with its place and points if ended."""
    text = io.StringIO()
    out = csv.writer(text, lineterminator="\r\n")
    out.writerow(GAME_COLUMNS)
    names = {p.user_id: p.name for p in await repo.league_players(league.id)}
    point_list = parse_points(league.points)
    for table in await repo.league_tables(league.id):
        game = None if table.game_id is None else await repo.load_game(table.game_id)
        outcome = await tally.outcome(table)
        placed = {} if outcome is None else {p.user_id: p for p in placements(outcome, point_list)}
        for index, user in enumerate(table.user_ids):
            seat = None if game is None or index >= len(game.seats) else game.seats[index]
            place = placed.get(user)
            out.writerow(
                [
                    table.round,
                    table.table_no,
                    "" if table.game_id is None else table.game_id,
                    "unopened" if game is None else game.status.value,
                    index + 1,
                    user,
                    spreadsheet_text(names.get(user, "")),
                    "" if seat is None or seat.final_rank is None else seat.final_rank,
                    "" if seat is None or seat.final_score is None else seat.final_score,
                    "" if place is None else place.place,
                    "" if place is None else f"{place.points:g}",
                    int(user in table.forfeited),
                ]
            )
    return text.getvalue()


async def _standings(tally: LeagueTally, league: League) -> str:
    """One line per player of the standings."""
    text = io.StringIO()
    out = csv.writer(text, lineterminator="\r\n")
    out.writerow(STANDING_COLUMNS)
    for line in (await tally.standings(league)).lines:
        out.writerow(
            [
                line.rank,
                line.user_id,
                spreadsheet_text(line.name),
                f"{line.points:g}",
                line.played,
                line.wins,
                "" if line.rating is None else f"{line.rating:.2f}",
                f"{line.change:+.2f}",
                int(line.withdrawn),
            ]
        )
    return text.getvalue()
