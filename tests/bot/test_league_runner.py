"""A league game's end is league work for the league runner, never for the player's ``/play``.

The rooms are built whole by ``build_rooms`` (leagues, ratings and the league rights included:
nothing is set on them afterwards); the door tells the league runner a game ended, and the
runner's own task (``league-<id>``) posts the standings, once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.background.league_runner import LeagueRunner
from bot.service import Member, Rooms, ServiceError, build_rooms
from bot.service.leagues import LeagueService
from bot.service.ratings import RatingService
from bot.store import GameRepository, open_store
from bot.thread.door import announce
from engine import games
from tests.backends import database

from .fakes import FakeBot, FakeLeagues, FakeThread, http_error

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

ANN, BO, ORGANISER = 101, 202, 900
GUILD, LEAGUE_CHANNEL, TABLE_THREAD = 9, 600, 700


def _picture(view: object, events: object, *more: object) -> bytes:
    return b"\x89PNG fake"


class Channel(FakeThread):
    """A channel that records which task sent each message; its messages are never found."""

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        """Record the message with the name of the task that sent it."""
        task = asyncio.current_task()
        sent = await super().send(content, task=None if task is None else task.get_name(), **kwargs)
        return sent

    async def fetch_message(self, message_id: int) -> Any:
        """A lobby message that is gone (a league table has its own message)."""
        raise http_error(404, discord.NotFound)


class LeagueBot(FakeBot):
    """The fake bot with two channels (the league's, the table's thread) and a real league
    runner."""

    def __init__(self, rooms: Rooms) -> None:
        super().__init__(Channel(TABLE_THREAD), rooms)
        self.league_channel = Channel(LEAGUE_CHANNEL)
        self.leagues: Any = LeagueRunner(self)  # type: ignore[arg-type]

    def get_channel(self, channel_id: int) -> Any:
        """The table's thread or the league's channel."""
        if channel_id == LEAGUE_CHANNEL:
            return self.league_channel
        return super().get_channel(channel_id)


async def _table(rooms: Rooms) -> tuple[int, int]:
    """A one-round Nim league for Ann and Bo, started, its one table opened: (league, game)."""
    league = await rooms.leagues.create(
        guild_id=GUILD,
        channel_id=LEAGUE_CHANNEL,
        creator_id=ORGANISER,
        name="Piles",
        game_key="nim",
        rounds=1,
        table_size=2,
    )
    for user in (ANN, BO):
        await rooms.leagues.join(GUILD, "Piles", user, f"U{user}")
    started = await rooms.leagues.start(GUILD, "Piles", ORGANISER, organiser=True)
    [table] = await rooms.leagues.tables_to_open(started.league)
    created = await rooms.leagues.open_table(table, TABLE_THREAD)
    assert created is not None
    return league.id, created.game_id


async def _play(bot: LeagueBot, rooms: Rooms, game_id: int) -> None:
    """One move of the player to act, as ``/play`` makes it: play, then announce."""
    game = await rooms.desk.repo.load_game(game_id)
    match = games.from_json(game.snapshot)
    seat = match.current_seat
    assert seat is not None
    action = games.computer_player("nim")(match.view(seat), game.seed + seat)
    result = await rooms.playing.play(game.user_of(seat) or 0, action, game_id=game_id)
    await announce(bot, result)  # type: ignore[arg-type]


async def _played_untold(repo: GameRepository) -> tuple[LeagueBot, int, int]:
    """The league's one table played to its end, the end told to nobody yet: the bot (whose
    league runner is a fake that only records), the league and the game."""
    rooms = build_rooms(repo, renderer=_picture, seed_source=lambda: 11)
    league_id, game_id = await _table(rooms)
    bot = LeagueBot(rooms)
    bot.leagues = FakeLeagues()
    while (await repo.load_game(game_id)).status == "active":
        await _play(bot, rooms, game_id)
    assert bot.leagues.ended == [game_id]
    return bot, league_id, game_id


def _standings(channel: Channel) -> list[dict[str, Any]]:
    """The standings posted in the league's channel."""
    return [m for m in channel.sent if getattr(m.get("file"), "filename", "") == "standings.png"]


def test_a_league_games_end_is_posted_from_the_runner_once(tmp_path: Path) -> None:
    """The standings of a league game's end are posted by the league's own task, not by the
    player's ``/play`` (which awaits no league work); told again, the runner posts nothing."""

    async def body() -> None:
        repo = await open_store(database(tmp_path, "league.sqlite3"))
        try:
            rooms = build_rooms(repo, renderer=_picture, seed_source=lambda: 11)
            league_id, game_id = await _table(rooms)
            bot = LeagueBot(rooms)
            plays = 0
            while (await repo.load_game(game_id)).status == "active":
                await asyncio.create_task(_play(bot, rooms, game_id), name="play")
                plays += 1
                assert plays < 100
            await bot.leagues.idle()
            [posted] = _standings(bot.league_channel)
            assert posted["task"] == f"league-{league_id}"
            assert "Piles" in posted["content"]
            league = await repo.load_league_by_id(league_id)
            assert league is not None and league.status == "finished"
            assert league.posted_round == 1
            assert await rooms.ratings.rate_pending() == 0  # the end was rated by the runner
            bot.leagues.after_game(game_id)  # told again (another shard, the sweep): nothing
            await bot.leagues.idle()
            assert len(_standings(bot.league_channel)) == 1
            await bot.leagues.stop()
        finally:
            await repo.close()

    asyncio.run(body())


def test_the_last_standings_are_posted_again_after_a_failed_post(tmp_path: Path) -> None:
    """The post of a season's last standings fails once (Discord 503): the league runner's
    retry posts them, although the season finished with the pass that failed (D178)."""

    async def body() -> None:
        repo = await open_store(database(tmp_path, "league.sqlite3"))
        try:
            bot, league_id, game_id = await _played_untold(repo)
            bot.league_channel.fail = [http_error(503)]
            runner = bot.leagues = LeagueRunner(bot, first_retry=0.01)  # type: ignore[arg-type]
            runner.after_game(game_id)
            await runner.idle()
            assert bot.league_channel.fail == []  # the first try failed
            [posted] = _standings(bot.league_channel)
            assert posted["task"] == f"league-{league_id}"
            league = await repo.load_league_by_id(league_id)
            assert league is not None and league.status == "finished"
            assert league.posted_round == 1
            await runner.stop()
        finally:
            await repo.close()

    asyncio.run(body())


def test_a_kick_during_the_last_failing_pass_is_one_more_try(tmp_path: Path) -> None:
    """The league's last attempt fails while the sweep kicks it: the kick is not lost, the
    runner tries once more and posts the standings (no wait for the next sweep)."""

    async def body() -> None:
        repo = await open_store(database(tmp_path, "league.sqlite3"))
        try:
            bot, league_id, game_id = await _played_untold(repo)
            channel = bot.league_channel
            channel.fail = [http_error(503)]
            runner = LeagueRunner(bot, first_retry=0.01, attempts=1)  # type: ignore[arg-type]
            bot.leagues = runner
            channel.while_failing = lambda: runner.kick(league_id)
            runner.after_game(game_id)
            await runner.idle()
            assert channel.fail == [] and len(_standings(channel)) == 1
            await runner.stop()
        finally:
            await repo.close()

    asyncio.run(body())


def test_the_rooms_are_built_whole_leagues_ratings_and_rights_included(tmp_path: Path) -> None:
    """``build_rooms`` alone gives the league and rating rooms (one rating room for both) and
    the league rights: a league game's host may not abandon it (its organisers decide), with
    nothing set on a room afterwards; no game-over listener is left on the desk."""

    async def body() -> None:
        repo = await open_store(database(tmp_path, "rooms.sqlite3"))
        try:
            rooms = build_rooms(repo, renderer=_picture, seed_source=lambda: 11)
            assert isinstance(rooms.leagues, LeagueService)
            assert isinstance(rooms.ratings, RatingService)
            assert rooms.leagues.ratings is rooms.ratings
            assert not hasattr(rooms.desk, "game_over_listeners")
            assert not hasattr(rooms.desk, "game_over")
            _, game_id = await _table(rooms)
            host = (await repo.load_game(game_id)).seats[0].user_id
            with pytest.raises(ServiceError) as refused:
                await rooms.endings.may_abandon(Member(host), thread_id=TABLE_THREAD)
            assert refused.value.key == "abandon.league_only"
            assert await rooms.desk.league_of(game_id) == "Piles"
        finally:
            await repo.close()

    asyncio.run(body())
