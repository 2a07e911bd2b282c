"""Where the slash commands are synced, and what the start-up log says about it."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest

from bot.settings import Settings
from tests.backends import database
from tests.discord_double import DiscordDouble

from .harness import GUILD, Env, make_double, run, running_env

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


class GlobalEnv(Env):
    """The bot as ``python -m bot`` runs it without DEV_GUILD_ID: commands synced globally."""

    def settings(self) -> Settings:
        """The harness's settings, without the development server."""
        return replace(super().settings(), dev_guild_id=None)


def _sync_lines(tmp_path: Path, env_class: type[Env], caplog: pytest.LogCaptureFixture) -> str:
    """The bot's log lines about its command sync, once it started with ``env_class``."""

    def make(double: DiscordDouble) -> Env:
        return env_class(double, database(tmp_path, "himiko.sqlite3"))

    async def body() -> None:
        async with running_env(make_double(), make) as env:
            guild = None if env_class is GlobalEnv else GUILD
            assert await env.double.wait_for_commands(guild)

    with caplog.at_level(logging.INFO, logger="bot.app"):
        run(body)
    return "\n".join(r.getMessage() for r in caplog.records if "slash commands" in r.getMessage())


def test_a_global_sync_says_it_can_take_up_to_an_hour(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 38 item 14: without DEV_GUILD_ID the commands are synced globally, which Discord can
    take up to an hour to show; the start-up log says so and how to have them at once."""
    lines = _sync_lines(tmp_path, GlobalEnv, caplog)
    assert "globally" in lines and "up to an hour" in lines and "DEV_GUILD_ID" in lines


def test_a_development_server_sync_says_nothing_of_an_hour(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lines = _sync_lines(tmp_path, Env, caplog)
    assert f"guild {GUILD}" in lines and "hour" not in lines
