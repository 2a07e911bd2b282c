"""What the league service returns: tables to open, standings, what a league owes its
channel, a player leaving, progress, and the text cells of its exports."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import League, LeagueTable

# What makes a spreadsheet read a cell as a formula; the full-width forms as a precaution.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def spreadsheet_text(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula (OWASP's advice).

    A cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
    single quote. Only text from users goes through here; the numbers the bot writes itself
    (``-1.25``, ``+0.50``) stay numbers (docs/decisions.md D39).
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


@dataclass(frozen=True, kw_only=True)
class TableSeat:
    """A player at a league table."""

    user_id: int
    name: str


@dataclass(frozen=True, kw_only=True)
class TableToOpen:
    """A seated table whose game is not open yet (or whose opening was interrupted)."""

    league: League
    table: LeagueTable
    players: tuple[TableSeat, ...]


@dataclass(frozen=True, kw_only=True)
class StandingLine:
    """One line of a league's standings, ready to show."""

    rank: int
    user_id: int
    name: str
    points: float
    played: int
    wins: int
    rating: float | None  # None: no rating yet (no finished game against another player)
    change: float  # rating change over the games of the latest finished round
    withdrawn: bool
    resigned: int = 0  # games forfeited (resigned, or left by the withdrawal)


@dataclass(frozen=True, kw_only=True)
class LeagueStandings:
    """A league's standings after its finished rounds."""

    league: League
    rounds_done: int
    lines: tuple[StandingLine, ...]


@dataclass(frozen=True, kw_only=True)
class Left:
    """A player left a league: before the season (``withdrawn`` False) or during it."""

    league: League
    withdrawn: bool
    resigned_games: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Progress:
    """What moving a league on did: a round seated, the season finished, or nothing."""

    league: League
    seated_round: int | None = None
    finished: bool = False


@dataclass(frozen=True, kw_only=True)
class LeagueOwed:
    """What a running league owes its channel once moved on (``LeagueService.owed``): the
    standings of a round that ended and were not posted yet, and the tables to open."""

    league: League
    standings: LeagueStandings | None  # None: nothing new to post
    tables: tuple[TableToOpen, ...]
