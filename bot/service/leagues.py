"""Leagues: sign-up, seating rounds, withdrawals, standings and exports, without Discord.

``LeagueService`` is the room (``rooms.leagues``): sign-up and withdrawals here, a season's
rounds in ``league_season`` (seating, moving on, what a league owes its channel, opening a
table's game), its standings in ``league_standings``, its CSV export in ``league_export``. What
its calls return is in ``league_results``.

A game's end is told through ``game_ended`` (its ratings, its league); what a league then owes
its channel (standings, tables to open) is asked for with ``owed``. The Discord side
(``bot/background/league_runner.py``, in the background) posts the standings, opens a thread per
table and starts its game through ``open_table``; seating and standings are pure
(``bot/league``), stored through the ``LeagueBook``.
"""

from __future__ import annotations

import time

from bot.league.names import (
    code_point,
    collapse_spaces,
    name_key,
    refused_character,
    without_invisible,
)
from bot.league.standings import MOST_POINTS, parse_points
from bot.store import League, LeagueBook, LeagueNameTaken, LeaguePlayer, NewLeague
from engine import games

from .endings import EndingService
from .errors import ServiceError
from .league_export import export
from .league_results import LeagueOwed, LeagueStandings, Left, Progress, TableToOpen
from .league_season import SEATING_ATTEMPTS as SEATING_ATTEMPTS
from .league_season import LeagueSeason
from .league_standings import LeagueTally
from .playing import PlayService
from .ratings import RatingService
from .reading import ReadingService
from .results import Created
from .tables import Clock

PAIRINGS = ("swiss", "round-robin")
MAX_NAME = 64
MAX_ROUNDS = 50
MAX_DEADLINE_HOURS = 24 * 30
DEFAULT_POINTS = "3,2,1,0"


def clean_name(name: str) -> str:
    """A league name as stored: trimmed, one line, 1 to 64 characters (league.bad_name), text
    only: no control, format or other invisible character (league.name_invisible)."""
    name = collapse_spaces(name)
    refused = refused_character(name)
    if refused is not None:
        raise ServiceError("league.name_invisible", character=code_point(refused))
    if not name or len(name) > MAX_NAME or not name_key(name):
        raise ServiceError("league.bad_name", most=MAX_NAME)
    return name


class LeagueService:
    """Everything a league command does, on the store, the game rooms and the ratings."""

    def __init__(
        self,
        repo: LeagueBook,
        *,
        ratings: RatingService,
        reading: ReadingService,
        playing: PlayService,
        endings: EndingService,
        clock: Clock = time.time,
    ) -> None:
        self.repo = repo
        self.ratings = ratings
        self.endings = endings
        self.clock = clock
        self.tally = LeagueTally(repo, ratings)
        self.season = LeagueSeason(
            repo,
            tally=self.tally,
            ratings=ratings,
            reading=reading,
            playing=playing,
            endings=endings,
        )

    # -- sign-up ----------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        name: str,
        game_key: str,
        rounds: int = 3,
        table_size: int | None = None,
        pairing: str = "swiss",
        deadline_hours: int = 48,
        points: str = DEFAULT_POINTS,
        organiser_role: int | None = None,
    ) -> League:
        """Create a league open for sign-up; every bad option is refused with what is allowed."""
        name = clean_name(name)
        if game_key not in games.GAMES:
            raise ServiceError("league.bad_game", games=", ".join(games.GAMES))
        rules = games.rules_for(game_key)
        size = min(4, rules.max_players) if table_size is None else table_size
        if not rules.min_players <= size <= rules.max_players:
            raise ServiceError(
                "league.bad_table_size",
                game=rules.display_name,
                min=rules.min_players,
                max=rules.max_players,
            )
        if not 1 <= rounds <= MAX_ROUNDS:
            raise ServiceError("league.bad_rounds", most=MAX_ROUNDS)
        if pairing not in PAIRINGS:
            raise ServiceError("league.bad_pairing", pairings=", ".join(PAIRINGS))
        if not 0 <= deadline_hours <= MAX_DEADLINE_HOURS:
            raise ServiceError("league.bad_deadline", most=MAX_DEADLINE_HOURS)
        try:
            point_list = parse_points(points)
        except ValueError:
            raise ServiceError(
                "league.bad_points", points=_in_code(points[:40]), most=MOST_POINTS
            ) from None
        new = NewLeague(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            game_key=game_key,
            rounds=rounds,
            table_size=size,
            pairing=pairing,
            turn_deadline=deadline_hours * 3600 or None,
            points=",".join(f"{p:g}" for p in point_list),
            organiser_role=organiser_role,
            creator_id=creator_id,
        )
        try:
            return await self.repo.create_league(new, now=int(self.clock()))
        except LeagueNameTaken:
            existing = await self.repo.load_league(guild_id, name)  # a look-alike, maybe
            taken = name if existing is None else existing.name
            raise ServiceError("league.name_taken", name=taken) from None

    async def get(self, guild_id: int, name: str) -> League:
        """The server's league of that name (league.unknown)."""
        league = await self.repo.load_league(guild_id, collapse_spaces(name))
        if league is None:
            raise ServiceError("league.unknown", name=without_invisible(name)[:MAX_NAME])
        return league

    async def names(self, guild_id: int, typed: str = "") -> list[str]:
        """The server's league names containing what is typed (for autocomplete), compared in
        their normalized form."""
        wanted = name_key(typed)
        return [
            g.name for g in await self.repo.list_leagues(guild_id) if wanted in name_key(g.name)
        ]

    async def join(self, guild_id: int, name: str, user_id: int, player: str) -> League:
        """Sign a player up while sign-up is open."""
        league = await self.get(guild_id, name)
        if league.status != "signup":
            raise ServiceError("league.signup_closed", name=league.name)
        if not await self.repo.join_league(league.id, user_id, player, now=int(self.clock())):
            joined = any(p.user_id == user_id for p in await self.repo.league_players(league.id))
            raise ServiceError(
                "league.already_joined" if joined else "league.signup_closed", name=league.name
            )
        return league

    async def players(self, league: League) -> list[LeaguePlayer]:
        """A league's players in the order they joined."""
        return await self.repo.league_players(league.id)

    async def leave(self, guild_id: int, name: str, user_id: int) -> Left:
        """Leave before the season, or withdraw during it (remaining games forfeited)."""
        league = await self.get(guild_id, name)
        if league.status == "signup":
            if await self.repo.leave_league(league.id, user_id):
                return Left(league=league, withdrawn=False)
            league = await self.get(guild_id, name)  # the season may have started meanwhile
            if league.status == "signup":
                raise ServiceError("league.not_joined", name=league.name)
        return await self._withdraw(league, user_id)

    async def _withdraw(self, league: League, user_id: int) -> Left:
        """Withdraw a seated player: their games not ended yet are resigned and forfeited."""
        players = {p.user_id: p for p in await self.repo.league_players(league.id)}
        player = players.get(user_id)
        if player is None:
            raise ServiceError("league.not_joined", name=league.name)
        if league.status == "finished":
            raise ServiceError("league.season_over", name=league.name)
        if player.withdrawn_round is not None:
            raise ServiceError("league.already_withdrawn", name=league.name)
        round_ = await self.repo.withdraw_from_league(league.id, user_id)
        if round_ is None:  # the season ended, or they withdrew, meanwhile
            again = await self.repo.load_league_by_id(league.id)
            finished = again is None or again.status == "finished"
            key = "league.season_over" if finished else "league.already_withdrawn"
            raise ServiceError(key, name=league.name)
        resigned = []
        for table in await self.repo.league_tables(league.id):
            if table.game_id is None or user_id not in table.forfeited or table.round < round_:
                continue
            try:
                await self.endings.resign(user_id, game_id=table.game_id)
            except ServiceError:
                continue  # already over: the forfeit still places them last
            resigned.append(table.game_id)
        return Left(league=league, withdrawn=True, resigned_games=tuple(resigned))

    # -- the season's start ------------------------------------------------------------------------

    async def start(self, guild_id: int, name: str, user_id: int, *, organiser: bool) -> Progress:
        """Close sign-up and seat round 1 (organisers only; enough players needed)."""
        league = await self.get(guild_id, name)
        if not organiser:
            raise ServiceError("league.not_organiser", name=league.name)
        if league.status != "signup":
            raise ServiceError("league.already_started", name=league.name)
        seated = await self.season.seat(league, 1)
        if seated is None:
            raise ServiceError("league.already_started", name=league.name)
        return Progress(league=seated, seated_round=1)

    # -- the season (league_season) ---------------------------------------------------------------

    async def progress(self, league_id: int) -> Progress:
        """Seat the next round once every game of the current one ended, or end the season."""
        return await self.season.progress(league_id)

    async def running(self) -> list[League]:
        """Every league whose season is under way."""
        return await self.repo.running_leagues()

    async def game_ended(self, game_id: int) -> int | None:
        """A game ended: rate the finished games not rated yet; the game's league, if any."""
        return await self.season.game_ended(game_id)

    async def owed(self, league_id: int) -> LeagueOwed | None:
        """What a league owes its channel once moved on (``LeagueSeason.owed``)."""
        return await self.season.owed(league_id)

    async def tables_to_open(self, league: League) -> list[TableToOpen]:
        """The current round's tables whose game is not open yet."""
        return await self.season.tables_to_open(league)

    async def table_message(self, table: TableToOpen, message_id: int) -> None:
        """Record the message a table's thread starts from."""
        await self.season.table_message(table, message_id)

    async def table_game(self, table: TableToOpen, thread_id: int, game_id: int) -> None:
        """Record the thread and game opened for a table."""
        await self.season.table_game(table, thread_id, game_id)

    async def open_table(
        self, table: TableToOpen, thread_id: int, language: str | None = None
    ) -> Created | None:
        """Start a table's game in its thread, or find it (``LeagueSeason.open_table``)."""
        return await self.season.open_table(table, thread_id, language)

    async def mark_posted(self, league: League, round_: int) -> bool:
        """Record that a round's standings were posted; False if they already were."""
        return await self.season.mark_posted(league, round_)

    # -- results (league_standings, league_export) ------------------------------------------------

    async def standings(self, league: League) -> LeagueStandings:
        """The league's standings over every ended game so far."""
        return await self.tally.standings(league)

    async def export(self, league: League) -> dict[str, str]:
        """CSV texts: ``games`` (one line per seat) and ``standings``."""
        return await export(self.repo, self.tally, league)


def _in_code(text: str) -> str:
    """User text shown inside a code span: one line, no backtick to close the span early."""
    return " ".join(text.replace("`", "'").split())
