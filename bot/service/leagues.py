"""Leagues: sign-up, seating rounds, withdrawals, standings and exports, without Discord.

What its calls return is in ``league_results``.

A game's end is told through ``game_ended`` (its ratings, its league); what a league then owes
its channel (standings, tables to open) is asked for with ``owed``. The Discord side
(``bot/league_runner.py``, in the background) posts the standings, opens a thread per table and
starts its game through ``open_table``; seating and standings are pure (``bot/league``), stored
through the ``LeagueBook``.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Mapping, Sequence
from contextlib import suppress

from bot.league.names import (
    code_point,
    collapse_spaces,
    name_key,
    refused_character,
    without_invisible,
)
from bot.league.seating import SeatingError, divisions, meetings, seat_swiss, table_sizes
from bot.league.standings import (
    MOST_POINTS,
    SeatOutcome,
    TableOutcome,
    parse_points,
    placements,
    standings,
)
from bot.store import (
    Game,
    GameNotFound,
    GameStatus,
    League,
    LeagueBook,
    LeagueNameTaken,
    LeaguePlayer,
    LeaguePlayersMoved,
    LeagueTable,
    NewLeague,
)
from engine import games
from engine.errors import CorruptGame

from .endings import EndingService
from .errors import ServiceError
from .league_results import (
    LeagueOwed,
    LeagueStandings,
    Left,
    Progress,
    StandingLine,
    TableSeat,
    TableToOpen,
    spreadsheet_text,
)
from .playing import PlayService
from .ratings import RatingService
from .reading import ReadingService
from .results import Created
from .tables import RESIGNED, Clock

PAIRINGS = ("swiss", "round-robin")
MAX_NAME = 64
MAX_ROUNDS = 50
MAX_DEADLINE_HOURS = 24 * 30
DEFAULT_POINTS = "3,2,1,0"
SEATING_ATTEMPTS = 20  # tables drawn up again while sign-ups keep moving under a start


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
        self.reading = reading
        self.playing = playing
        self.endings = endings
        self.clock = clock

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
                return Left(league, withdrawn=False)
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
        return Left(league, withdrawn=True, resigned_games=tuple(resigned))

    # -- seating ----------------------------------------------------------------------------------

    async def start(self, guild_id: int, name: str, user_id: int, *, organiser: bool) -> Progress:
        """Close sign-up and seat round 1 (organisers only; enough players needed)."""
        league = await self.get(guild_id, name)
        if not organiser:
            raise ServiceError("league.not_organiser", name=league.name)
        if league.status != "signup":
            raise ServiceError("league.already_started", name=league.name)
        seated = await self._seat(league, 1)
        if seated is None:
            raise ServiceError("league.already_started", name=league.name)
        return Progress(seated, seated_round=1)

    async def _seat(self, league: League, round_: int) -> League | None:
        """Seat ``round_`` (the store refuses a round seated twice); the league after it.

        The store seats only tables drawn up from the players as they are at that moment: if
        one joined, left or withdrew meanwhile, the tables are drawn up again.
        """
        for _ in range(SEATING_ATTEMPTS):
            tables = await self._tables(league)
            try:
                if not await self.repo.seat_league_round(league.id, round_, tables):
                    return None
            except LeaguePlayersMoved:
                continue
            return await self.repo.load_league_by_id(league.id)
        raise ServiceError("league.busy", name=league.name)

    async def _tables(self, league: League) -> list[list[int]]:
        """The next round's tables from the playing players, standings and past meetings."""
        players = [
            p for p in await self.repo.league_players(league.id) if p.withdrawn_round is None
        ]
        rules = games.rules_for(league.game_key)
        past = await self.repo.league_tables(league.id)
        met = meetings([t.user_ids for t in past])
        order = [s.user_id for s in (await self._standings(league, past)) if not s.withdrawn]
        try:
            if league.pairing == "round-robin":
                joined = [p.user_id for p in await self.repo.league_players(league.id)]
                active = set(order)
                tables: list[list[int]] = []
                for division in divisions(joined, league.table_size):
                    members = [u for u in order if u in set(division) & active]
                    sizes = table_sizes(
                        len(members), league.table_size, rules.min_players, rules.max_players
                    )
                    tables += seat_swiss(members, sizes, met)
            else:
                sizes = table_sizes(
                    len(order), league.table_size, rules.min_players, rules.max_players
                )
                tables = seat_swiss(order, sizes, met)
        except SeatingError:
            raise ServiceError(
                "league.too_few_players",
                name=league.name,
                count=len(players),
                min=rules.min_players,
            ) from None
        return tables

    async def progress(self, league_id: int) -> Progress:
        """Seat the next round once every game of the current one ended, or end the season."""
        league = await self.repo.load_league_by_id(league_id)
        if league is None or league.status != "running":
            raise ServiceError("league.not_running")
        tables = [t for t in await self.repo.league_tables(league.id)]
        current = [t for t in tables if t.round == league.current_round]
        if not current or not all([await self._ended(t) for t in current]):
            return Progress(league)
        await self.ratings.rate_pending()
        if league.current_round >= league.rounds:
            await self.repo.finish_league(league.id)
            done = await self.repo.load_league_by_id(league.id)
            assert done is not None
            return Progress(done, finished=True)
        seated = await self._seat(league, league.current_round + 1)
        if seated is None:  # another caller seated it
            again = await self.repo.load_league_by_id(league.id)
            assert again is not None
            return Progress(again)
        return Progress(seated, seated_round=seated.current_round)

    async def _ended(self, table: LeagueTable) -> bool:
        if table.game_id is None:
            return False
        game = await self.repo.load_game(table.game_id)
        return game.status != GameStatus.ACTIVE

    async def running(self) -> list[League]:
        """Every league whose season is under way."""
        return await self.repo.running_leagues()

    async def game_ended(self, game_id: int) -> int | None:
        """A game ended: rate the finished games not rated yet; the game's league, if any (what
        is owed there: ``owed``)."""
        await self.ratings.rate_pending()
        return await self.repo.league_of_game(game_id)

    async def owed(self, league_id: int) -> LeagueOwed | None:
        """Move a running league on (``progress``) and say what it owes its channel: the
        standings of a round that ended, not posted yet (rated first), and the tables to open;
        a finished league only its last standings until they are posted. None for a league
        unknown or in sign-up."""
        try:
            league = (await self.progress(league_id)).league
        except ServiceError:  # not running: finished (its last standings may be owed) or not yet
            found = await self.repo.load_league_by_id(league_id)
            if found is None or found.status != "finished":
                return None
            league = found
        standings = await self.standings(league)
        tables = await self.tables_to_open(league) if league.status == "running" else []
        return LeagueOwed(
            league=league,
            standings=standings if standings.rounds_done > league.posted_round else None,
            tables=tuple(tables),
        )

    async def tables_to_open(self, league: League) -> list[TableToOpen]:
        """The current round's tables whose game is not open yet."""
        names = {p.user_id: p.name for p in await self.repo.league_players(league.id)}
        return [
            TableToOpen(league, t, tuple(TableSeat(u, names.get(u, "?")) for u in t.user_ids))
            for t in await self.repo.league_tables(league.id)
            if t.round == league.current_round and t.game_id is None
        ]

    async def table_message(self, table: TableToOpen, message_id: int) -> None:
        """Record the message a table's thread starts from."""
        t = table.table
        await self.repo.set_table_message(table.league.id, t.round, t.table_no, message_id)

    async def table_game(self, table: TableToOpen, thread_id: int, game_id: int) -> None:
        """Record the thread and game opened for a table."""
        t = table.table
        await self.repo.set_table_game(table.league.id, t.round, t.table_no, thread_id, game_id)

    async def open_table(
        self, table: TableToOpen, thread_id: int, language: str | None = None
    ) -> Created | None:
        """Start a table's game in its thread (or find the one an interrupted try started).

        Returns the new game, or None if the thread already had it; either way the table
        records it, so a retry after a crash neither loses nor duplicates the table's game.
        A player who withdrew after the round was seated resigns it at once (their seat is
        forfeited; their withdrawal could not resign a game that did not exist yet).
        ``language``: the game's (the league's posts are in the server's language).
        """
        league = table.league
        existing = await self.reading.active_game_id(thread_id)
        created = None
        if existing is None:
            created = await self.playing.create_game(
                guild_id=league.guild_id,
                channel_id=league.channel_id,
                thread_id=thread_id,
                players=[(s.user_id, s.name) for s in table.players],
                game_key=league.game_key,
                turn_deadline=league.turn_deadline,
                language=language,
            )
            existing = created.game_id
        await self.table_game(table, thread_id, existing)
        for user in sorted(await self.repo.forfeits_of_game(existing)):
            with suppress(ServiceError):  # already resigned, or the game is over
                await self.endings.resign(user, game_id=existing)
        return created

    async def mark_posted(self, league: League, round_: int) -> bool:
        """Record that a round's standings were posted; False if they already were."""
        return await self.repo.mark_round_posted(league.id, round_)

    # -- results ----------------------------------------------------------------------------------

    async def _outcome(self, table: LeagueTable) -> TableOutcome | None:
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

    async def _standings(self, league: League, tables: Sequence[LeagueTable]) -> list[StandingLine]:
        players = await self.repo.league_players(league.id)
        outcomes = [o for t in tables if (o := await self._outcome(t)) is not None]
        ratings = await self.ratings.displayed_ratings(league.guild_id, league.game_key)
        done = _rounds_done(tables, outcomes)
        latest = [t.game_id for t in tables if t.round == done and t.game_id is not None]
        change = await self.ratings.changes_of(latest)
        lines = standings(
            [p.user_id for p in players],
            outcomes,
            withdrawn=frozenset(p.user_id for p in players if p.withdrawn_round is not None),
            ratings=ratings,
            points=parse_points(league.points),
        )
        names = {p.user_id: p.name for p in players}
        return [
            StandingLine(
                s.rank,
                s.user_id,
                names[s.user_id],
                s.points,
                s.played,
                s.wins,
                ratings.get(s.user_id),
                change.get(s.user_id, 0.0),
                s.withdrawn,
                s.resigned,
            )
            for s in lines
        ]

    async def standings(self, league: League) -> LeagueStandings:
        """The league's standings over every ended game so far."""
        await self.ratings.rate_pending()
        tables = await self.repo.league_tables(league.id)
        outcomes = [o for t in tables if (o := await self._outcome(t)) is not None]
        lines = await self._standings(league, tables)
        return LeagueStandings(league, _rounds_done(tables, outcomes), tuple(lines))

    async def export(self, league: League) -> dict[str, str]:
        """CSV texts: ``games`` (one line per seat) and ``standings``."""
        table_out = io.StringIO()
        out = csv.writer(table_out, lineterminator="\r\n")
        out.writerow(
            [
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
            ]
        )
        names = {p.user_id: p.name for p in await self.repo.league_players(league.id)}
        point_list = parse_points(league.points)
        for table in await self.repo.league_tables(league.id):
            game = None if table.game_id is None else await self.repo.load_game(table.game_id)
            outcome = await self._outcome(table)
            placed = (
                {} if outcome is None else {p.user_id: p for p in placements(outcome, point_list)}
            )
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
        standing_out = io.StringIO()
        out = csv.writer(standing_out, lineterminator="\r\n")
        out.writerow(
            [
                "rank",
                "user_id",
                "player",
                "points",
                "played",
                "wins",
                "rating",
                "rating_change",
                "withdrawn",
            ]
        )
        for line in (await self.standings(league)).lines:
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
        return {"games": table_out.getvalue(), "standings": standing_out.getvalue()}


def _in_code(text: str) -> str:
    """User text shown inside a code span: one line, no backtick to close the span early."""
    return " ".join(text.replace("`", "'").split())


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


def _rounds_done(tables: Sequence[LeagueTable], outcomes: Sequence[TableOutcome]) -> int:
    """The latest round every table of which ended."""
    ended = {(o.round, o.table) for o in outcomes}
    done = 0
    for round_ in sorted({t.round for t in tables}):
        if all((t.round, t.table_no) in ended for t in tables if t.round == round_):
            done = round_
        else:
            break
    return done
