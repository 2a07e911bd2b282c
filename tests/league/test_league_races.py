"""Sign-ups racing the start, and withdrawals that must not rewrite finished games (issue 24).

On both databases: on SQLite the tasks interleave between transactions, on PostgreSQL they run
on separate pooled connections at once.
"""

from __future__ import annotations

import asyncio
import contextvars
import random
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import LOCALES, default_catalog
from bot.present import error_text
from bot.service import ServiceError, build_rooms
from bot.service.leagues import SEATING_ATTEMPTS, LeagueService
from bot.store import GameRepository, League, LeaguePlayersMoved, is_busy, open_store, queries
from bot.store.__main__ import main as store_main
from tests.backends import database
from tests.league.season import (
    CHANNEL,
    GUILD,
    ORGANISER,
    Leagues,
    open_round,
    play_out,
    run,
    with_leagues,
)

pytestmark = pytest.mark.usefixtures("backend")


async def _told(call: object) -> str:
    """What the user was told: ``joined``, ``left``, ``withdrew``, or the refusal's key (a
    database busy past every retry: ``error.busy``, as the bot answers it)."""
    try:
        result = await call  # type: ignore[misc]
    except ServiceError as error:
        return error.key
    except Exception as error:
        if is_busy(error):  # other writers won every retry: "busy, nothing changed" (present.py)
            return "error.busy"
        raise
    withdrawn = getattr(result, "withdrawn", None)
    return "joined" if withdrawn is None else ("withdrew" if withdrawn else "left")


async def _started_nim_league(env: Leagues, users: Sequence[int]) -> League:
    """A Nim league "Piles" of two-player tables, ``users`` signed up and its season started."""
    league = await env.leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=ORGANISER,
        name="Piles",
        game_key="nim",
        table_size=2,
    )
    for user in users:
        await env.leagues.join(GUILD, "Piles", user, f"U{user}")
    await env.leagues.start(GUILD, "Piles", ORGANISER, organiser=True)
    return league


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_joins_and_leaves_in_flight_during_the_start(tmp_path: Path, seed: int) -> None:
    """Whoever was told "You joined" is seated, whoever was told "You left" is not, nobody twice.

    Twelve players signed up; then, all at once, 24 newcomers join (a third of them leave
    again right after), 6 of the twelve leave, and the organiser starts the league. Half of
    them go through a second store on the same database, as another process would (its own
    connections: SQLite's busy timeout, PostgreSQL's conflicts between connections).
    """
    rng = random.Random(seed)

    async def body(env: Leagues) -> None:
        league = await env.leagues.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            creator_id=ORGANISER,
            name="Cup",
            game_key="yamatai",
        )
        first = list(range(2000, 2012))
        for user in first:
            await env.leagues.join(GUILD, "Cup", user, f"U{user}")
        told: dict[int, list[str]] = {}
        other_repo = await open_store(database(tmp_path, "league.sqlite3"))
        other = build_rooms(other_repo, renderer=lambda *a: b"", seed_source=lambda: 11).leagues

        def service(user: int) -> LeagueService:
            return other if user % 2 else env.leagues

        async def newcomer(user: int, leaves: bool) -> None:
            await asyncio.sleep(rng.random() / 50)
            told[user] = [await _told(service(user).join(GUILD, "Cup", user, f"U{user}"))]
            if leaves:
                told[user].append(await _told(service(user).leave(GUILD, "Cup", user)))

        async def leaver(user: int) -> None:
            await asyncio.sleep(rng.random() / 50)
            told[user] = [await _told(service(user).leave(GUILD, "Cup", user))]

        async def start() -> None:
            await asyncio.sleep(rng.random() / 100)
            while await _told(env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)) == (
                "error.busy"
            ):
                pass  # the organiser tries again, as the reply asks

        tasks = [newcomer(3000 + i, i % 3 == 0) for i in range(24)]
        tasks += [leaver(user) for user in first[:6]]
        try:
            await asyncio.gather(start(), *tasks)
        finally:
            await other_repo.close()

        seated = [u for t in await env.repo.league_tables(league.id) for u in t.user_ids]
        assert len(seated) == len(set(seated)), "someone is seated twice"
        players = {p.user_id: p for p in await env.repo.league_players(league.id)}
        for user, words in told.items():
            if words[-1] in ("joined", "withdrew"):
                assert user in seated, (user, words)
            if words[-1] == "left":
                assert user not in seated and user not in players, (user, words)
            if words[-1] == "withdrew":
                assert players[user].withdrawn_round == 1
        for user in first[6:]:
            assert user in seated
        assert set(seated) == set(players)
        outcomes = {w for words in told.values() for w in words}
        assert "joined" in outcomes  # the race really ran: some got in before the start

    run(lambda: with_leagues(tmp_path, body))


def test_a_withdrawal_keeps_finished_games_and_ratings_equal_a_rebuild(tmp_path: Path) -> None:
    """Withdrawing forfeits only games not ended: a rated game keeps its result.

    Round 1 of a Nim league: table 1 is played out and rated; its winner then withdraws (their
    win stands, in the standings and in the ratings), and a player of table 2, still running,
    withdraws too (that game is resigned and forfeited). Live ratings equal a rebuild.
    """
    state: dict[str, object] = {}

    async def body(env: Leagues) -> None:
        league = await _started_nim_league(env, (4001, 4002, 4003, 4004))
        finished, running = await open_round(env, league.id)
        await play_out(env, finished)
        game = await env.repo.load_game(finished)
        [winner] = [s.user_id for s in game.seats if s.final_rank == 1]
        [loser] = [s.user_id for s in game.seats if s.final_rank == 2]
        before = await env.repo.all_ratings()
        assert {r.user_id for _, _, r in before} == {winner, loser}

        left = await env.leagues.leave(GUILD, "Piles", winner)
        assert left.withdrawn and left.resigned_games == ()
        quitter = (await env.repo.load_game(running)).seats[0].user_id
        left = await env.leagues.leave(GUILD, "Piles", quitter)
        assert left.withdrawn and left.resigned_games == (running,)
        await env.leagues.game_ended(running)  # as /league leave's settle tells the runner
        assert (await env.repo.load_game(running)).status != "active"

        assert await env.repo.forfeits_of_game(finished) == set()
        assert await env.repo.forfeits_of_game(running) == {quitter}
        stored = await env.repo.all_ratings()
        assert [r for r in stored if r[2].user_id in (winner, loser)] == before
        standings = await env.leagues.standings(left.league)
        line = {s.user_id: s for s in standings.lines}
        assert line[winner].points == 3 and line[winner].wins == 1 and line[winner].withdrawn
        assert line[loser].points == 0 and not line[loser].withdrawn
        assert line[quitter].points == 0 and line[quitter].withdrawn
        state["live"] = stored

    run(lambda: with_leagues(tmp_path, body))
    assert (
        store_main(["ratings", "--db", str(database(tmp_path, "league.sqlite3")), "--rebuild"]) == 0
    )

    async def rebuilt(env: Leagues) -> None:
        state["rebuilt"] = await env.repo.all_ratings()

    run(lambda: with_leagues(tmp_path, rebuilt))
    assert state["rebuilt"] == state["live"]


def test_a_player_who_withdrew_before_their_table_opened_resigns_it_when_it_opens(
    tmp_path: Path,
) -> None:
    """The round was seated, the table not opened yet (Discord slow, a restart) when the player
    withdrew: the game opens with their seat resigned, not waiting for their moves."""

    async def body(env: Leagues) -> None:
        league = await _started_nim_league(env, (4001, 4002, 4003, 4004))
        left = await env.leagues.leave(GUILD, "Piles", 4001)
        assert left.withdrawn and left.resigned_games == ()  # no game to resign yet
        game_ids = await open_round(env, league.id)
        [table] = [t for t in await env.repo.league_tables(league.id) if 4001 in t.user_ids]
        assert table.game_id in game_ids and table.forfeited == (4001,)
        game = await env.repo.load_game(table.game_id)
        assert game.status == "finished"  # two seats: the other player wins at once
        [mine] = game.seats_of(4001)
        assert game.stand_in_of(mine) == "resigned" and game.seats[mine].final_rank == 2
        others = [g for g in game_ids if g != table.game_id]
        assert [(await env.repo.load_game(g)).status for g in others] == ["active"]

    run(lambda: with_leagues(tmp_path, body))


def test_sign_ups_that_never_settle_give_a_clear_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the players keep moving under every try, the start says so and changes nothing."""

    async def body(env: Leagues) -> None:
        await env.leagues.create(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=ORGANISER, name="Cup", game_key="nim"
        )
        for user in (1, 2):
            await env.leagues.join(GUILD, "Cup", user, f"U{user}")
        tries = []

        async def moved(league_id: int, round_: int, tables: object) -> bool:
            tries.append(round_)
            raise LeaguePlayersMoved("someone joined meanwhile")

        monkeypatch.setattr(env.repo, "seat_league_round", moved)
        with pytest.raises(ServiceError) as caught:
            await env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)
        assert caught.value.key == "league.busy" and len(tries) == SEATING_ATTEMPTS
        for locale in LOCALES:
            assert "Cup" in error_text(default_catalog(), caught.value, locale)
        league = await env.leagues.get(GUILD, "Cup")
        assert league.status == "signup" and await env.repo.league_tables(league.id) == []

    run(lambda: with_leagues(tmp_path, body))


class _Landing:
    """A store connection that, just before running ``sql`` the first time, starts another
    process's call and gives it a moment, as an unlucky schedule would."""

    def __init__(
        self, conn: Any, sql: str, call: Callable[[], Coroutine[Any, Any, Any]], calls: list[Any]
    ) -> None:
        self._conn = conn
        self._sql = sql
        self._call = call
        self._calls = calls

    async def _land(self, sql: str) -> None:
        if sql == self._sql and not self._calls:
            # a context of its own, as another process's call would have
            loop = asyncio.get_running_loop()
            self._calls.append(loop.create_task(self._call(), context=contextvars.Context()))
            await asyncio.wait(self._calls, timeout=0.5)

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        await self._land(sql)
        return await self._conn.execute(sql, parameters)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, parameters)

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        await self._land(sql)
        rows: list[Any] = await self._conn.execute_fetchall(sql, parameters)
        return rows


@asynccontextmanager
async def _landing(
    repo: GameRepository, sql: str, call: Callable[[], Coroutine[Any, Any, Any]], calls: list[Any]
) -> AsyncIterator[None]:
    """While inside, ``repo``'s write transactions let ``call`` land before ``sql``."""
    plain = repo._write

    @asynccontextmanager
    async def write() -> AsyncIterator[Any]:
        async with plain() as conn:
            yield _Landing(conn, sql, call, calls)

    repo._write = write  # type: ignore[method-assign]
    try:
        yield
    finally:
        repo._write = plain  # type: ignore[method-assign]


def test_a_join_landing_while_the_round_is_seated_is_refused(tmp_path: Path) -> None:
    """Another connection's join lands between the seating's first write and its read of the
    players. On PostgreSQL the two wrote different rows before, so both committed: "You
    joined", not seated (write skew). Now the join waits for the league's row, and is refused:
    sign-up closed."""

    async def body(env: Leagues) -> None:
        league = await env.leagues.create(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=ORGANISER, name="Cup", game_key="nim"
        )
        for user in (1, 2):
            await env.leagues.join(GUILD, "Cup", user, f"U{user}")
        other = await open_store(database(tmp_path, "league.sqlite3"))
        joins: list[asyncio.Task[bool]] = []

        def join() -> Coroutine[Any, Any, bool]:
            return other.join_league(league.id, 3, "U3", now=0)

        try:
            async with _landing(env.repo, queries.SELECT_PLAYING, join, joins):
                assert await env.repo.seat_league_round(league.id, 1, [[1, 2]])
            told = await joins[0]
        finally:
            await other.close()
        seated = {u for t in await env.repo.league_tables(league.id) for u in t.user_ids}
        players = {p.user_id for p in await env.repo.league_players(league.id)}
        assert (told, seated, players) == (False, {1, 2}, {1, 2})

    run(lambda: with_leagues(tmp_path, body))


def test_a_game_ending_while_its_player_withdraws_keeps_ratings_equal_a_rebuild(
    tmp_path: Path,
) -> None:
    """Another process ends the withdrawing player's game (their opponent resigns: they win)
    just before the withdrawal forfeits their seats. The ended game must keep its result: on
    PostgreSQL the withdrawal used to forfeit it from its older snapshot, after it was rated."""
    state: dict[str, object] = {}

    async def body(env: Leagues) -> None:
        league = await _started_nim_league(env, (4001, 4002))
        [game_id] = await open_round(env, league.id)
        other = await open_store(database(tmp_path, "league.sqlite3"))
        other_games = build_rooms(other, renderer=lambda *a: b"", seed_source=lambda: 11)
        calls: list[Any] = []

        async def opponent_resigns() -> None:
            await other_games.endings.resign(4002, game_id=game_id)
            await other_games.leagues.game_ended(game_id)  # as the other process's runner does

        try:
            async with _landing(env.repo, queries.FORFEIT_SEATS, opponent_resigns, calls):
                left = await env.leagues.leave(GUILD, "Piles", 4001)
            with suppress(ServiceError):  # the game ended by the withdrawal first: too late
                await calls[0]
        finally:
            await other.close()
        assert left.withdrawn
        game = await env.repo.load_game(game_id)
        assert game.status == "finished"
        await env.ratings.rate_pending()
        state["live"] = await env.repo.all_ratings()

    run(lambda: with_leagues(tmp_path, body))
    assert (
        store_main(["ratings", "--db", str(database(tmp_path, "league.sqlite3")), "--rebuild"]) == 0
    )

    async def rebuilt(env: Leagues) -> None:
        state["rebuilt"] = await env.repo.all_ratings()

    run(lambda: with_leagues(tmp_path, rebuilt))
    assert state["rebuilt"] == state["live"]
