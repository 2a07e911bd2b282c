"""The real bot against the Discord double with operations settings (``Settings.ops``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.ops.config import OpsConfig
from bot.settings import Settings
from tests.backends import database
from tests.discord_double import DiscordDouble
from tests.e2e.harness import Env, make_double, running_env


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

    def make(started: DiscordDouble) -> OpsEnv:
        return OpsEnv(started, database(tmp_path, "himiko.sqlite3"), ops)

    async with running_env(make_double(**double), make) as env:
        yield env
