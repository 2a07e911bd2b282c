"""After a saved move: the thread post may fail, the player still hears the move was saved."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot.catalog import default_catalog
from bot.present import AfterSave, after_save, played_text, report_error
from bot.service import PlayResult, Rooms, ServiceError
from bot.thread.door import announce, settle
from bot.thread.turns import message_nonce

from .fakes import FakeBot, FakeThread, fake_interaction, http_error
from .support import play_whole_turn, two_player_game, with_service


async def finished_turn(rooms: Rooms) -> PlayResult:
    """Create a game in thread 500 and play the first player's whole turn."""
    created = await two_player_game(rooms)
    return await play_whole_turn(rooms, created.game_id)


pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def test_a_failed_post_still_wakes_computers_and_reports_saved(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        result = replace(await finished_turn(rooms), computers_next=True)
        bot = FakeBot(FakeThread(fail=[http_error(503)]), rooms)
        assert await announce(bot, result) is False  # type: ignore[arg-type]
        assert bot.runner.kicked == [result.game_id]
        bot.thread.fail = [RuntimeError("boom")]
        assert await announce(bot, result) is False  # type: ignore[arg-type]
        assert bot.runner.kicked == [result.game_id] * 2
        interaction = fake_interaction(bot)
        text = played_text(interaction, result, posted=False)
        assert "saved" in text and "could not post" in text

    asyncio.run(with_service(tmp_path, body))


def test_a_successful_post_pings_the_next_player(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        result = await finished_turn(rooms)
        bot = FakeBot(FakeThread(), rooms)
        assert await announce(bot, result) is True  # type: ignore[arg-type]
        [message] = bot.thread.sent
        assert result.turn is not None and result.turn.next_player is not None
        assert [u.id for u in message["allowed_mentions"].users] == [
            result.turn.next_player.user_id
        ]
        assert bot.runner.kicked == []

    asyncio.run(with_service(tmp_path, body))


def test_failures_after_the_save_are_not_called_nothing_changed() -> None:
    async def body() -> None:
        bot = FakeBot()
        interaction = fake_interaction(bot)
        try:
            with after_save():
                raise http_error(500)
        except AfterSave as error:
            await report_error(interaction, error)
        [reply] = interaction.response.sent
        assert "was saved" in reply["content"] and "nothing was changed" not in reply["content"]
        before = fake_interaction(bot)
        await report_error(before, RuntimeError("before the save"))
        assert "nothing was changed" in before.response.sent[0]["content"]

    asyncio.run(body())


def test_a_database_that_stays_busy_is_answered_as_such_not_as_a_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Writers that kept the database busy past every retry: "nothing changed, try again",
    logged as a warning (no ERROR, no traceback), in the user's language."""

    async def body() -> None:
        interaction = fake_interaction(FakeBot())
        interaction.locale = discord.Locale.french
        await report_error(interaction, sqlite3.OperationalError("database is locked"))
        [reply] = interaction.response.sent
        assert reply["content"] == default_catalog().text("error.busy", "fr")
        assert reply["ephemeral"] is True

    with caplog.at_level(logging.WARNING):
        asyncio.run(body())
    assert [r.levelname for r in caplog.records] == ["WARNING"]


def test_settle_posts_what_the_store_says_is_owed_once(tmp_path: Path) -> None:
    """``settle``: the owed message is read from the store, posted, recorded; again: nothing."""

    async def body(rooms: Rooms) -> None:
        result = await finished_turn(rooms)  # its turn message is owed (never announced)
        bot = FakeBot(FakeThread(), rooms)
        assert await settle(bot, result.game_id) is True  # type: ignore[arg-type]
        [message] = bot.thread.sent
        assert message["nonce"] == message_nonce(result.game_id, result.version)
        assert await rooms.reading.announced_version(result.game_id) == result.version
        assert await settle(bot, result.game_id) is True  # type: ignore[arg-type]
        assert len(bot.thread.sent) == 1 and bot.runner.kicked == []

    asyncio.run(with_service(tmp_path, body))


def test_settle_leaves_a_failed_post_to_the_runner(tmp_path: Path) -> None:
    """A post that fails wakes the runner (it retries); so does ``computers``."""

    async def body(rooms: Rooms) -> None:
        result = await finished_turn(rooms)
        bot = FakeBot(FakeThread(fail=[http_error(503)]), rooms)
        assert await settle(bot, result.game_id) is False  # type: ignore[arg-type]
        assert bot.runner.kicked == [result.game_id]
        assert await rooms.reading.announced_version(result.game_id) < result.version
        assert await settle(bot, result.game_id, computers=True) is True  # type: ignore[arg-type]
        assert bot.runner.kicked == [result.game_id] * 2

    asyncio.run(with_service(tmp_path, body))


def test_a_refusal_that_cannot_be_put_in_words_is_still_answered(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """B3: a refusal whose words failed (a typed `net` once) left the player with no answer."""

    def broken(*args: object) -> str:
        raise IndexError("list index out of range")

    monkeypatch.setattr("bot.present.error_text", broken)

    async def body() -> None:
        interaction = fake_interaction(FakeBot())
        interaction.locale = discord.Locale.french
        await report_error(interaction, ServiceError("error.engine.illegal"))
        [reply] = interaction.response.sent
        assert reply["content"] == default_catalog().text("error.generic", "fr")
        assert reply["ephemeral"] is True

    with caplog.at_level(logging.ERROR):
        asyncio.run(body())
    assert "could not be put in words" in caplog.text
