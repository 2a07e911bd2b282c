"""The real bot against the Discord double with operations settings (``Settings.ops``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.ops.config import OpsConfig
from bot.settings import Settings
from tests.backends import database
from tests.discord_double import DiscordDouble
from tests.e2e.harness import Env, make_double


class OpsEnv(Env):
    """The harness's bot with the given operations settings."""

    def __init__(self, double: DiscordDouble, target: Any, ops: OpsConfig) -> None:
        super().__init__(double, target)
        self.ops = ops

    def settings(self) -> Settings:
        """The harness's settings with ``ops``."""
        return replace(super().settings(), ops=self.ops)


@contextlib.asynccontextmanager
async def ops_env(tmp_path: Path, ops: OpsConfig, **double: Any) -> AsyncIterator[OpsEnv]:
    """The double and the bot (``ops`` settings); no unknown route may be hit, and nothing
    logged at ERROR unless the test clears ``env.log`` after checking it."""
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    double_ = make_double(**double)
    await double_.start()
    env = OpsEnv(double_, database(tmp_path, "himiko.sqlite3"), ops)
    root = logging.getLogger()
    root.addHandler(env.log)
    try:
        await env.start_bot()
        yield env
        assert double_.unexpected_requests == []
        assert env.log.messages() == []
    finally:
        root.removeHandler(env.log)
        try:
            await env.stop_bot()
        finally:
            await double_.stop()
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
