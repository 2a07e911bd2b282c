"""The league standings picture (as posted in Discord and on the league's web page)."""

from __future__ import annotations

from typing import Any

from bot.present import decimal
from bot.service.league_results import LeagueStandings, StandingLine
from engine import games
from render.league import StandingRow, render_standings


def standing_columns(
    say: Any, line: StandingLine, locale: str | None
) -> tuple[str, str, str, str, str, str]:
    """A standings line's columns as shown (picture and web page): rank, player (marked if
    withdrawn), points, games played, rating, rating change (none under 0.05); numbers as
    ``locale`` writes them ("1,5" points in French)."""
    return (
        str(line.rank),
        line.name + (" " + say("league.withdrawn") if line.withdrawn else ""),
        decimal(line.points, locale, whole=True),
        str(line.played),
        "—" if line.rating is None else decimal(line.rating, locale),
        "" if abs(line.change) < 0.05 else decimal(line.change, locale, signed=True),
    )


def resigned_note(say: Any, line: StandingLine) -> str:
    """The mark after the name of a player still in the league who resigned games ("" if none)."""
    return (
        say("league.resigned", games=line.resigned) if line.resigned and not line.withdrawn else ""
    )


def standings_png(say: Any, standings: LeagueStandings, locale: str | None = None) -> bytes:
    """The standings picture, its texts from ``say(key, **params)``, numbers in ``locale``."""
    league = standings.league
    rows = [
        StandingRow(*standing_columns(say, line, locale), line.withdrawn, resigned_note(say, line))
        for line in standings.lines
    ]
    headers = [say(f"league.column.{c}") for c in ("rank", "player", "points", "played")]
    headers += [say("league.column.rating"), say("league.column.change")]
    title = say(
        "league.picture_title", name=league.name, game=games.rules_for(league.game_key).display_name
    )
    subtitle = say("league.picture_round", done=standings.rounds_done, rounds=league.rounds)
    return render_standings(title, subtitle, headers, rows)
