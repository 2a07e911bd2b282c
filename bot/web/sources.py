"""What the web pages read: a small store protocol and the league standings."""

from __future__ import annotations

from typing import Protocol

from bot.service.league_results import LeagueStandings
from bot.store import Action, Game, League, LeaguePlayer, LeagueTable, RatingChange


class WebStore(Protocol):
    """The store calls the web pages make (all reads)."""

    async def load_game(self, game_id: int) -> Game:
        """A game by id (GameNotFound)."""
        ...

    async def load_actions(self, game_id: int) -> list[Action]:
        """A game's whole action log in order (with the time of each action)."""
        ...

    async def computer_played(self, game_id: int) -> set[int]:
        """Sequence numbers of the actions a computer played for a human seat."""
        ...

    async def old_turn_keys(self, game_id: int) -> int | None:
        """For a game active at migration 0012: how many actions it had then; else None."""
        ...

    async def standing_deadline(self, game_id: int, turn: str) -> int | None:
        """The deadline of a game's turn unless it was cancelled (the computer took over)."""
        ...

    async def load_league_by_id(self, league_id: int) -> League | None:
        """A league by id, if it exists."""
        ...

    async def league_tables(self, league_id: int) -> list[LeagueTable]:
        """Every table of a league, by round and number, with its players in seat order."""
        ...

    async def league_players(self, league_id: int) -> list[LeaguePlayer]:
        """A league's players in the order they joined."""
        ...

    async def rating_history(
        self, guild_id: int, game_key: str, user_id: int
    ) -> list[RatingChange]:
        """A player's rating changes in one game on one server, oldest first."""
        ...

    async def guild_language(self, guild_id: int) -> str | None:
        """The server's default language, or None if none is set."""
        ...


class StandingsSource(Protocol):
    """Where a league's standings come from (``bot.service.leagues.LeagueService``)."""

    async def standings(self, league: League) -> LeagueStandings:
        """The league's standings over every ended game so far."""
        ...
