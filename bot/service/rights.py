"""Who may abandon a game: the rule, without Discord.

A casual game's host (seat 0: the lobby's host sits first) may abandon it while they play in it;
a host who resigned has no host rights left over the game the others play on. A league game has
no host: its league's organisers decide (the league's own rule, ``LeagueService``). A member who
can manage threads may abandon any game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store import Game

from .errors import ServiceError


@dataclass(frozen=True)
class Member:
    """Who asks, with what Discord lets them do: Manage Threads where the game is, Manage
    Server, and their roles (a league's organiser role)."""

    user_id: int
    manage_threads: bool = False
    manage_guild: bool = False
    roles: tuple[int, ...] = ()


@dataclass(frozen=True)
class LeagueRole:
    """The league a game was played for, and whether the member organises it."""

    league: str
    organiser: bool


class LeagueRights(Protocol):
    """The leagues' side of the rule (``LeagueService`` registers itself with the game service)."""

    async def league_role(self, game_id: int, member: Member) -> LeagueRole | None:
        """The game's league and the member's part in it; None for a game outside leagues."""
        ...

    async def league_name(self, game_id: int) -> str | None:
        """The name of the league the game was played for; None for a game outside leagues."""
        ...


def abandon_refusal(game: Game, member: Member, league: LeagueRole | None) -> ServiceError | None:
    """Why the member may not abandon the game, or None if they may."""
    if member.manage_threads:
        return None
    if league is not None:
        return None if league.organiser else ServiceError("abandon.league_only", name=league.league)
    host = game.seats[0]
    if game.stand_in_of(host.seat) == "resigned":
        return ServiceError("abandon.host_resigned")
    if member.user_id != host.user_id:
        return ServiceError("abandon.not_allowed", host=host.player)
    return None
