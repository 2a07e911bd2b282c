"""The leagues part of the repository: leagues, sign-ups, rounds and their tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.league.names import name_key

from . import queries as q
from . import sqlite
from .base import StoreBase
from .errors import LeagueNameTaken, LeaguePlayersMoved
from .models import League, LeaguePlayer, LeagueTable, NewLeague, check_int64
from .rows import ints, league_from_row, league_player_from_row, only, optional_int


class LeaguesPart(StoreBase):
    """Leagues (issue 15): sign-up, seating rounds, tables and their games, withdrawals."""

    # -- leagues (issue 15) ----------------------------------------------------------------------

    async def create_league(self, new: NewLeague, *, now: int) -> League:
        """Store a new league open for sign-up (LeagueNameTaken if the server has that name)."""
        for name, value in (("guild_id", new.guild_id), ("creator_id", new.creator_id)):
            check_int64(name, value)
        try:
            async with self._write() as conn:
                rows = await conn.execute_fetchall(
                    q.INSERT_LEAGUE,
                    (
                        new.guild_id,
                        new.channel_id,
                        new.name,
                        name_key(new.name),
                        new.game_key,
                        new.rounds,
                        new.table_size,
                        new.pairing,
                        new.turn_deadline,
                        new.points,
                        new.organiser_role,
                        new.creator_id,
                        now,
                    ),
                )
                league_id = int(rows[0]["id"])
        except sqlite.IntegrityError as exc:
            raise LeagueNameTaken(f"a league named {new.name!r} exists: {exc}") from None
        found = await self.load_league_by_id(league_id)
        assert found is not None
        return found

    async def _leagues(self, sql: str, params: Sequence[Any]) -> list[League]:
        async with self._read() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return [league_from_row(r) for r in rows]

    async def load_league(self, guild_id: int, name: str) -> League | None:
        """The server's league of that name: exactly, else compared by key (without case,
        compatibility forms or invisible characters), if any."""
        found = await self._leagues(q.SELECT_LEAGUE_BY_NAME, (guild_id, name, name_key(name), name))
        return found[0] if found else None

    async def load_league_by_id(self, league_id: int) -> League | None:
        """A league by id, if it exists."""
        found = await self._leagues(q.SELECT_LEAGUE_BY_ID, (league_id,))
        return found[0] if found else None

    async def list_leagues(self, guild_id: int) -> list[League]:
        """A server's leagues, by name."""
        return await self._leagues(q.SELECT_GUILD_LEAGUES, (guild_id,))

    async def running_leagues(self) -> list[League]:
        """Every league whose season is under way."""
        return await self._leagues(q.SELECT_RUNNING_LEAGUES, ())

    async def join_league(self, league_id: int, user_id: int, name: str, *, now: int) -> bool:
        """Sign a player up while sign-up is open; False if they were or it is closed."""
        check_int64("user_id", user_id)
        async with self._write() as conn:
            cursor = await conn.execute(q.HOLD_LEAGUE, (league_id, "signup"))
            if cursor.rowcount != 1:
                return False
            cursor = await conn.execute(q.JOIN_LEAGUE, (user_id, name, now, league_id))
            return cursor.rowcount == 1

    async def leave_league(self, league_id: int, user_id: int) -> bool:
        """Remove a sign-up while sign-up is open; False if there was none or it is closed."""
        async with self._write() as conn:
            cursor = await conn.execute(q.HOLD_LEAGUE, (league_id, "signup"))
            if cursor.rowcount != 1:
                return False
            cursor = await conn.execute(q.LEAVE_LEAGUE, (league_id, user_id, league_id))
            return cursor.rowcount == 1

    async def withdraw_from_league(self, league_id: int, user_id: int) -> int | None:
        """Withdraw a player from a running league in its current round, and forfeit their
        seats from that round on whose game has not ended, at once; the round, or None if the
        league is not running or they are no playing player of it."""
        async with self._write() as conn:
            cursor = await conn.execute(q.HOLD_LEAGUE, (league_id, "running"))
            if cursor.rowcount != 1:
                return None
            rows = await conn.execute_fetchall(q.WITHDRAW_PLAYER, (league_id, league_id, user_id))
            if not rows:
                return None
            round_ = int(rows[0]["withdrawn_round"])
            await conn.execute(q.HOLD_RUNNING_GAMES, (league_id, user_id, round_))
            await conn.execute(q.FORFEIT_SEATS, (league_id, user_id, round_))
            return round_

    async def league_players(self, league_id: int) -> list[LeaguePlayer]:
        """A league's players in the order they joined."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_LEAGUE_PLAYERS, (league_id,))
        return [league_player_from_row(r) for r in rows]

    async def seat_league_round(
        self, league_id: int, round_: int, tables: Sequence[Sequence[int]]
    ) -> bool:
        """Store a round's tables and seats in one transaction; False if it was seated already.

        The tables must seat exactly the league's playing players, once each, as they are when
        the round is seated: LeaguePlayersMoved (nothing written) if one joined, left or
        withdrew since the tables were drawn up.
        """
        seated = [user for table in tables for user in table]
        async with self._write() as conn:
            cursor = await conn.execute(q.ADVANCE_ROUND, (round_, league_id, round_ - 1))
            if cursor.rowcount != 1:
                return False
            playing = ints(await conn.execute_fetchall(q.SELECT_PLAYING, (league_id,)), "user_id")
            if len(set(seated)) != len(seated) or set(seated) != set(playing):
                raise LeaguePlayersMoved(
                    f"league {league_id}: round {round_} seats {sorted(seated)}, "
                    f"the players are {sorted(playing)}; seat it again"
                )
            for number, table in enumerate(tables, start=1):
                await conn.execute(q.INSERT_LEAGUE_TABLE, (league_id, round_, number))
                await conn.executemany(
                    q.INSERT_LEAGUE_SEAT,
                    [(league_id, round_, number, seat, user) for seat, user in enumerate(table)],
                )
            return True

    async def league_tables(self, league_id: int) -> list[LeagueTable]:
        """Every table of a league, by round and number, with its players in seat order."""
        async with self._read() as conn:
            tables = await conn.execute_fetchall(q.SELECT_LEAGUE_TABLES, (league_id,))
            seats = await conn.execute_fetchall(q.SELECT_LEAGUE_SEATS, (league_id,))
        players: dict[tuple[int, int], list[tuple[int, bool]]] = {}
        for r in seats:
            players.setdefault((int(r["round"]), int(r["table_no"])), []).append(
                (int(r["user_id"]), bool(r["forfeited"]))
            )
        found = []
        for r in tables:
            key = (int(r["round"]), int(r["table_no"]))
            seated = players.get(key, [])
            found.append(
                LeagueTable(
                    round=key[0],
                    table_no=key[1],
                    user_ids=tuple(u for u, _ in seated),
                    forfeited=tuple(u for u, f in seated if f),
                    message_id=optional_int(r["message_id"]),
                    thread_id=optional_int(r["thread_id"]),
                    game_id=optional_int(r["game_id"]),
                )
            )
        return found

    async def set_table_message(
        self, league_id: int, round_: int, table_no: int, message_id: int
    ) -> bool:
        """Record the message a table's thread starts from (once)."""
        async with self._write() as conn:
            cursor = await conn.execute(
                q.SET_TABLE_MESSAGE, (message_id, league_id, round_, table_no)
            )
            return cursor.rowcount == 1

    async def set_table_game(
        self, league_id: int, round_: int, table_no: int, thread_id: int, game_id: int
    ) -> bool:
        """Record the thread and game opened for a table (once)."""
        async with self._write() as conn:
            cursor = await conn.execute(
                q.SET_TABLE_GAME, (thread_id, game_id, league_id, round_, table_no)
            )
            return cursor.rowcount == 1

    async def league_of_game(self, game_id: int) -> int | None:
        """The league a game was played for, if any."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_LEAGUE_OF_GAME, (game_id,))
        return optional_int(only(rows, "league_id"))

    async def finish_league(self, league_id: int) -> bool:
        """Mark a running league's season over; False if it was not running."""
        async with self._write() as conn:
            cursor = await conn.execute(q.FINISH_LEAGUE, (league_id,))
            return cursor.rowcount == 1

    async def mark_round_posted(self, league_id: int, round_: int) -> bool:
        """Record that a round's standings were posted; False if they already were."""
        async with self._write() as conn:
            cursor = await conn.execute(q.MARK_ROUND_POSTED, (round_, league_id, round_))
            return cursor.rowcount == 1

    async def forfeits_of_game(self, game_id: int) -> set[int]:
        """Users whose league seat in this game is forfeited (they withdrew)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GAME_FORFEITS, (game_id,))
        return set(ints(rows, "user_id"))
