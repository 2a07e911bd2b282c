"""A league's season: its rounds seated, moved on once every game of one ended, and what it
then owes its channel (the standings of a round that ended, the tables to open).

Seating is pure (``bot.league.seating``); the store refuses a round seated twice and tables
drawn up from players who moved meanwhile. The Discord side
(``bot/background/league_runner.py``) asks ``owed``, posts, then records what it posted
(``mark_posted``, ``table_message``) and opens each table's game with ``open_table``.
"""

from __future__ import annotations

from contextlib import suppress

from bot.league.seating import SeatingError, divisions, meetings, seat_swiss, table_sizes
from bot.store import GameSettings, GameStatus, League, LeagueBook, LeaguePlayersMoved, LeagueTable
from engine import games

from .endings import EndingService
from .errors import ServiceError
from .league_results import LeagueOwed, Progress, TableSeat, TableToOpen
from .league_standings import LeagueTally
from .playing import PlayService
from .ratings import RatingService
from .reading import ReadingService
from .results import Created

SEATING_ATTEMPTS = 20  # tables drawn up again while sign-ups keep moving under a start


class LeagueSeason:
    """A league's rounds: seating them, moving the season on, opening the tables."""

    def __init__(
        self,
        repo: LeagueBook,
        *,
        tally: LeagueTally,
        ratings: RatingService,
        reading: ReadingService,
        playing: PlayService,
        endings: EndingService,
    ) -> None:
        self.repo = repo
        self.tally = tally
        self.ratings = ratings
        self.reading = reading
        self.playing = playing
        self.endings = endings

    # -- seating ----------------------------------------------------------------------------------

    async def seat(self, league: League, round_: int) -> League | None:
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
        order = [s.user_id for s in (await self.tally.lines(league, past)) if not s.withdrawn]
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

    # -- moving on --------------------------------------------------------------------------------

    async def progress(self, league_id: int) -> Progress:
        """Seat the next round once every game of the current one ended, or end the season."""
        league = await self.repo.load_league_by_id(league_id)
        if league is None or league.status != "running":
            raise ServiceError("league.not_running")
        tables = [t for t in await self.repo.league_tables(league.id)]
        current = [t for t in tables if t.round == league.current_round]
        if not current or not all([await self._ended(t) for t in current]):
            return Progress(league=league)
        await self.ratings.rate_pending()
        if league.current_round >= league.rounds:
            await self.repo.finish_league(league.id)
            done = await self.repo.load_league_by_id(league.id)
            assert done is not None
            return Progress(league=done, finished=True)
        seated = await self.seat(league, league.current_round + 1)
        if seated is None:  # another caller seated it
            again = await self.repo.load_league_by_id(league.id)
            assert again is not None
            return Progress(league=again)
        return Progress(league=seated, seated_round=seated.current_round)

    async def _ended(self, table: LeagueTable) -> bool:
        if table.game_id is None:
            return False
        game = await self.repo.load_game(table.game_id)
        return game.status != GameStatus.ACTIVE

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
        standings = await self.tally.standings(league)
        tables = await self.tables_to_open(league) if league.status == "running" else []
        return LeagueOwed(
            league=league,
            standings=standings if standings.rounds_done > league.posted_round else None,
            tables=tuple(tables),
        )

    async def mark_posted(self, league: League, round_: int) -> bool:
        """Record that a round's standings were posted; False if they already were."""
        return await self.repo.mark_round_posted(league.id, round_)

    # -- tables -----------------------------------------------------------------------------------

    async def tables_to_open(self, league: League) -> list[TableToOpen]:
        """The current round's tables whose game is not open yet."""
        names = {p.user_id: p.name for p in await self.repo.league_players(league.id)}
        return [
            TableToOpen(
                league=league,
                table=t,
                players=tuple(TableSeat(user_id=u, name=names.get(u, "?")) for u in t.user_ids),
            )
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
                settings=GameSettings(turn_deadline=league.turn_deadline, language=language),
            )
            existing = created.game_id
        await self.table_game(table, thread_id, existing)
        for user in sorted(await self.repo.forfeits_of_game(existing)):
            with suppress(ServiceError):  # already resigned, or the game is over
                await self.endings.resign(user, game_id=existing)
        return created
