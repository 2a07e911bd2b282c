"""Leagues under random interleavings (hypothesis stateful), on SQLite and PostgreSQL.

Each step runs a batch of league operations at once, each after a random number of yields:
sign-ups and leaves (withdrawals once the season runs), the start, moving the league on, and
games ending (a resignation or a game played out). After every step the store must agree with
what each user was told, and the ratings with a rebuild:

- whoever was last told "You joined" is a player and, once the season started, seated in
  round 1; whoever was last told "You left" is neither;
- nobody sits twice in a round, and round r seats exactly the players who had not withdrawn
  before it was seated; a withdrawn player is never seated after their round;
- a league is open for sign-up exactly when it has no tables;
- every ended game is rated, and the live ratings equal `ratings --rebuild`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from bot.service import ServiceError, build_rooms
from bot.store import GameRepository, GameStatus, Target, open_store
from engine import games as engine_games
from tests.backends import database

pytestmark = pytest.mark.usefixtures("backend")

T = TypeVar("T")
USERS = tuple(range(1, 11))
ORGANISER = 99
_guilds = itertools.count(10_000)
_threads = itertools.count(1_000_000)

Op = tuple[str, int, int]  # (kind, user or game choice, yields before it runs)
OPS = st.tuples(
    st.sampled_from(["join", "join", "leave", "start", "progress", "end"]),
    st.sampled_from(USERS),
    st.integers(0, 3),
)


def _picture(view: object, events: object, *more: object) -> bytes:
    return b"\x89PNG fake"


class LeagueMachine(RuleBasedStateMachine):
    """One league of Nim (tables of two) on a fresh server of the test's database."""

    target: Target

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.repo: GameRepository = self.run(open_store(self.target))
        self.games = build_rooms(self.repo, renderer=_picture, seed_source=lambda: 11)
        self.ratings = self.games.ratings
        self.leagues = self.games.leagues
        self.guild = next(_guilds)
        self.told: dict[int, str] = {}  # user -> the last sign-up answer: joined, left, withdrew
        league = self.run(
            self.leagues.create(
                guild_id=self.guild,
                channel_id=1,
                creator_id=ORGANISER,
                name="Cup",
                game_key="nim",
                rounds=3,
                table_size=2,
            )
        )
        self.league_id = league.id

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the machine's loop."""
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        """Close the store and the loop."""
        self.run(self.repo.close())
        self.loop.close()

    # -- operations -----------------------------------------------------------------------------

    async def _open_tables(self) -> None:
        league = await self.repo.load_league_by_id(self.league_id)
        assert league is not None
        for table in await self.leagues.tables_to_open(league):
            created = await self.leagues.open_table(table, next(_threads))
            if created is not None:  # a withdrawn player's forfeit may have ended it at once
                await self.leagues.game_ended(created.game_id)

    async def _running_games(self) -> list[int]:
        found = []
        for table in await self.repo.league_tables(self.league_id):
            if table.game_id is not None:
                game = await self.repo.load_game(table.game_id)
                if game.status == GameStatus.ACTIVE:
                    found.append(game.id)
        return sorted(found)

    async def _end_game(self, choice: int) -> None:
        running = await self._running_games()
        if not running:
            return
        game = await self.repo.load_game(running[choice % len(running)])
        if choice % 2:
            await self.games.endings.resign(game.seats[0].user_id, game_id=game.id)
            await self.leagues.game_ended(game.id)
            return
        for _ in range(200):
            game = await self.repo.load_game(game.id)
            if game.status != GameStatus.ACTIVE:
                await self.leagues.game_ended(game.id)
                return
            match = engine_games.from_json(game.snapshot)
            seat = match.current_seat
            assert seat is not None
            action = engine_games.computer_player("nim")(match.view(seat), game.seed + seat)
            await self.games.playing.play(game.user_of(seat) or 0, action, game_id=game.id)

    async def _one(self, op: Op) -> None:
        kind, user, yields = op
        for _ in range(yields):
            await asyncio.sleep(0)
        try:
            if kind == "join":
                await self.leagues.join(self.guild, "Cup", user, f"U{user}")
                self.told[user] = "joined"
            elif kind == "leave":
                left = await self.leagues.leave(self.guild, "Cup", user)
                self.told[user] = "withdrew" if left.withdrawn else "left"
                for game_id in left.resigned_games:
                    await self.leagues.game_ended(game_id)
            elif kind == "start":
                await self.leagues.start(self.guild, "Cup", ORGANISER, organiser=True)
                await self._open_tables()
            elif kind == "progress":
                await self.leagues.progress(self.league_id)
                await self._open_tables()
            else:
                await self._end_game(user)
        except ServiceError:
            pass  # a refusal: the user was told why, and nothing changed for them

    @rule(batch=st.lists(OPS, min_size=1, max_size=6, unique_by=lambda op: op[1]))
    def at_once(self, batch: list[Op]) -> None:
        """Run a batch of operations concurrently (one per user at most)."""

        async def all_of() -> None:
            await asyncio.gather(*(self._one(op) for op in batch))

        self.run(all_of())

    # -- invariants -----------------------------------------------------------------------------

    @invariant()
    def sign_ups_match_what_users_were_told(self) -> None:
        """Told joined: a player (seated once started); told left: neither."""

        async def check() -> None:
            league = await self.repo.load_league_by_id(self.league_id)
            assert league is not None
            players = {p.user_id: p for p in await self.repo.league_players(self.league_id)}
            tables = await self.repo.league_tables(self.league_id)
            assert (league.status == "signup") == (not tables)
            first = {u for t in tables if t.round == 1 for u in t.user_ids}
            for user, words in self.told.items():
                if words == "left":
                    assert user not in players and user not in first, (user, words)
                else:
                    assert user in players, (user, words)
                    if league.status != "signup":
                        assert user in first, (user, words)
                    assert (players[user].withdrawn_round is not None) == (words == "withdrew")

        self.run(check())

    @invariant()
    def each_round_seats_the_players_not_withdrawn_before_it_once(self) -> None:
        """Nobody twice in a round; round r seats exactly those not withdrawn before r."""

        async def check() -> None:
            players = await self.repo.league_players(self.league_id)
            tables = await self.repo.league_tables(self.league_id)
            for round_ in {t.round for t in tables}:
                seated = [u for t in tables if t.round == round_ for u in t.user_ids]
                assert len(seated) == len(set(seated)), f"seated twice in round {round_}"
                expected = {
                    p.user_id
                    for p in players
                    if p.withdrawn_round is None or p.withdrawn_round >= round_
                }
                assert set(seated) == expected, round_
            for table in tables:
                if table.game_id is not None:
                    game = await self.repo.load_game(table.game_id)
                    assert tuple(s.user_id for s in game.seats) == table.user_ids
                    if game.status == GameStatus.ACTIVE:  # a withdrawn player plays no more
                        for user in table.forfeited:
                            assert all(
                                game.stand_in_of(s) == "resigned" for s in game.seats_of(user)
                            ), (table, user)

        self.run(check())

    @invariant()
    def live_ratings_equal_a_rebuild(self) -> None:
        """Every ended game rated; the ratings are what rating every game again gives."""

        async def check() -> None:
            assert await self.ratings.rate_pending() == 0
            live = await self.repo.all_ratings()
            await self.ratings.rebuild()
            assert await self.repo.all_ratings() == live

        self.run(check())


def test_league_operations_in_random_interleavings(tmp_path: Path) -> None:
    """The league machine on this test's backend."""
    LeagueMachine.target = database(tmp_path, "machine.sqlite3")
    run_state_machine_as_test(
        LeagueMachine,
        settings=settings(
            max_examples=12,
            stateful_step_count=10,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
