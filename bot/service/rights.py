"""Who may abandon a game: the rule, without Discord.

A casual game's host (seat 0: the lobby's host sits first) may abandon it while they play in it;
a host who resigned has no host rights left over the game the others play on. A league game has
no host: its league's organisers decide (the league's own rule, ``LeagueRightsBook``). A member
who can manage threads may abandon any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.store import Game, League, LeagueBook

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
    """The leagues' side of the rule (``LeagueRightsBook``, given to the game desk when built)."""

    async def league_role(self, game_id: int, member: Member) -> LeagueRole | None:
        """The game's league and the member's part in it; None for a game outside leagues."""
        ...

    async def league_name(self, game_id: int) -> str | None:
        """The name of the league the game was played for; None for a game outside leagues."""
        ...


def is_organiser(league: League, user_id: int, *, manage_guild: bool, roles: Sequence[int]) -> bool:
    """Whether a member may run a league: its creator, Manage Server, or its organiser role."""
    if user_id == league.creator_id or manage_guild:
        return True
    return league.organiser_role is not None and league.organiser_role in roles


class LeagueRightsBook:
    """The leagues' side of the rule, read from the store: a game's league and its organisers."""

    def __init__(self, repo: LeagueBook) -> None:
        self.repo = repo

    async def _league_by_game(self, game_id: int) -> League | None:
        league_id = await self.repo.league_of_game(game_id)
        return None if league_id is None else await self.repo.load_league_by_id(league_id)

    async def league_role(self, game_id: int, member: Member) -> LeagueRole | None:
        """The game's league and whether the member organises it (as ``/league start``
        decides); None for a game outside leagues."""
        league = await self._league_by_game(game_id)
        if league is None:
            return None
        organiser = is_organiser(
            league, member.user_id, manage_guild=member.manage_guild, roles=list(member.roles)
        )
        return LeagueRole(league.name, organiser)

    async def league_name(self, game_id: int) -> str | None:
        """The name of the league the game was played for, if any."""
        league = await self._league_by_game(game_id)
        return None if league is None else league.name


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
