"""The outbox: lost thread messages are posted again; the runner retries and survives."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import discord
import pytest
from discord import ui

from bot.app import create_bot
from bot.background.runner import ComputerRunner
from bot.present import NO_MENTIONS
from bot.service import Rooms
from bot.settings import Settings
from bot.thread.turns import message_nonce

from .fakes import FakeBot, FakeRunner, FakeThread, http_error
from .support import ANN, GUILD, play_whole_turn, two_player_game, with_service


def test_a_lost_turn_message_is_posted_once_by_flush(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        bot = FakeBot(FakeThread(), rooms)
        assert await bot.outbox.pending() == [created.game_id]  # the opening is owed
        assert await bot.outbox.flush(created.game_id)
        assert "begins" in bot.thread.sent[0]["content"]
        result = await play_whole_turn(rooms, created.game_id)  # saved, never posted
        assert await bot.outbox.pending() == [created.game_id]
        assert await bot.outbox.flush(created.game_id)
        assert len(bot.thread.sent) == 2 and bot.thread.sent[1]["content"].startswith("**")
        assert await bot.outbox.pending() == []
        assert not await bot.outbox.flush(created.game_id)
        assert result.turn is not None
        await bot.outbox.flush(created.game_id, result.turn)  # the late original changes nothing
        assert len(bot.thread.sent) == 2

    asyncio.run(with_service(tmp_path, body, fast=True))


async def _computer_due(rooms: Rooms) -> int:
    """A game of Ann and a computer where the computer is to act (and nothing is owed)."""
    created = await rooms.playing.create_game(
        game_key="yamatai",
        guild_id=GUILD,
        channel_id=10,
        thread_id=500,
        players=[(ANN, "Ann"), (None, "Computer 1")],
    )
    await rooms.reading.store.mark_announced(created.game_id, created.version)
    if not created.computers_next:
        result = await play_whole_turn(rooms, created.game_id)
        assert result.turn is not None
        await rooms.reading.store.mark_announced(created.game_id, result.version)
    return created.game_id


def test_the_runner_retries_transient_failures_then_posts(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        game_id = await _computer_due(rooms)
        bot = FakeBot(FakeThread(fail=[http_error(503), http_error(502)]), rooms)
        bot.runner = ComputerRunner(bot, 0, first_retry=0.001)  # type: ignore[arg-type]
        bot.runner.kick(game_id)
        await bot.runner.idle()
        assert bot.thread.sent and bot.thread.fail == []
        assert await bot.outbox.pending() == []
        game = await rooms.desk.repo.load_game(game_id)
        assert game.current_user_id == ANN or game.status == "finished"

    asyncio.run(with_service(tmp_path, body, fast=True))


@pytest.mark.parametrize(
    "error", [http_error(404, discord.NotFound), http_error(403, discord.Forbidden)]
)
def test_a_thread_that_is_gone_stops_the_runner_quietly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, error: Exception
) -> None:
    async def body(rooms: Rooms) -> None:
        game_id = await _computer_due(rooms)
        bot = FakeBot(FakeThread(fail=[error]), rooms)
        bot.runner = ComputerRunner(bot, 0, first_retry=0.001)  # type: ignore[arg-type]
        with caplog.at_level(logging.WARNING):
            bot.runner.kick(game_id)
            await bot.runner.idle()
        assert bot.thread.sent == []
        assert "cannot post in its thread" in caplog.text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert await bot.outbox.pending() == [game_id]  # kept for the next start

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_the_runner_gives_up_for_now_after_its_attempts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body(rooms: Rooms) -> None:
        game_id = await _computer_due(rooms)
        bot = FakeBot(FakeThread(fail=[http_error(503)] * 5), rooms)
        bot.runner = ComputerRunner(bot, 0, first_retry=0.001, attempts=3)  # type: ignore[arg-type]
        bot.runner.kick(game_id)
        await bot.runner.idle()
        assert bot.thread.sent == [] and len(bot.thread.fail) == 2
        assert "the next sweep retries" in caplog.text
        assert all(r.levelname == "WARNING" for r in caplog.records)  # the sweep takes over

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_a_kick_during_the_last_failing_attempt_is_one_more_try(tmp_path: Path) -> None:
    """A sweep that kicks the game while its last attempt is failing (the thread came back,
    a reconnect) is not lost: the runner tries once more instead of giving up until the next
    sweep."""

    async def body(rooms: Rooms) -> None:
        game_id = await _computer_due(rooms)
        thread = FakeThread(fail=[http_error(503)])
        bot = FakeBot(thread, rooms)
        runner = ComputerRunner(bot, 0, first_retry=0.001, attempts=1)  # type: ignore[arg-type]
        bot.runner = runner
        thread.while_failing = lambda: runner.kick(game_id)
        runner.kick(game_id)
        await runner.idle()
        assert thread.sent and thread.fail == []
        assert await bot.outbox.pending() == []

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_start_up_kicks_games_that_owe_a_message(tmp_path: Path) -> None:
    async def body() -> None:
        settings = Settings(token="t", database_path=tmp_path / "db.sqlite3", sync_commands=False)
        bot = create_bot(settings)
        await bot.setup_hook()
        try:
            owed = await two_player_game(bot.rooms, thread_id=700)
            posted = await two_player_game(bot.rooms, thread_id=701)
            await bot.rooms.reading.store.mark_announced(posted.game_id, posted.version)
            real, runner = bot.runner, FakeRunner()
            bot.runner = runner  # type: ignore[assignment]
            await bot.on_ready()
            bot.runner = real
            assert runner.kicked == [owed.game_id]
        finally:
            await bot.close()

    asyncio.run(body())


@pytest.mark.parametrize(
    ("reason", "words"),
    [("resigned:1", "**Bo** resigned"), ("cancelled", "host cancelled"), ("x", "without a winner")],
)
def test_an_abandoned_game_owes_its_thread_the_reason(
    tmp_path: Path, reason: str, words: str
) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        bot = FakeBot(FakeThread(fail=[http_error(503)]), rooms)
        await rooms.reading.store.mark_announced(created.game_id, created.version)
        await rooms.desk.repo.abandon_game(created.game_id, reason=reason)
        assert await bot.outbox.pending() == [created.game_id]
        with pytest.raises(discord.HTTPException):
            await bot.outbox.flush(created.game_id)
        assert await bot.outbox.flush(created.game_id)  # retried: posted once
        [note] = bot.thread.sent  # an ending is posted as its card at once (D200)
        said = [c.content for c in note["view"].walk_children() if isinstance(c, ui.TextDisplay)]
        assert note["content"] is None and note["allowed_mentions"] == NO_MENTIONS
        assert words in said[1]
        assert note["nonce"] == message_nonce(created.game_id, created.version + 1)
        assert await bot.outbox.pending() == []

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_a_stopped_runner_starts_nothing(tmp_path: Path) -> None:
    """A sweep that ends after the bot began closing must not play on a closing store."""

    async def body(rooms: Rooms) -> None:
        game_id = await _computer_due(rooms)
        bot = FakeBot(FakeThread(), rooms)
        bot.runner = ComputerRunner(bot, 0, first_retry=0.001)  # type: ignore[arg-type]
        await bot.runner.stop()
        bot.runner.kick(game_id)
        await bot.runner.idle()
        assert bot.thread.sent == []
        game = await rooms.desk.repo.load_game(game_id)
        assert game.current_user_id != ANN  # the computer did not play

    asyncio.run(with_service(tmp_path, body, fast=True))
