"""The queue runner's task per server: a kick while a pass fails is one more pass (D306)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.background.queue_runner import QueueRunner

GUILD = 9


class FailingOnce:
    """The queue room, whose first match fails (the database busy) while a join kicks."""

    def __init__(self) -> None:
        self.passes = 0
        self.kick: Any = None

    async def match(self, guild_id: int, language: str | None) -> None:
        self.passes += 1
        if self.passes == 1:
            self.kick(guild_id)  # a /queue join while this pass runs
            raise OSError("database is busy")

    async def owed(self) -> list[Any]:
        return []

    async def expired(self) -> list[Any]:
        return []


def _bot(queue: FailingOnce) -> Any:
    async def server_language(guild_id: int) -> None:
        return None

    settings = SimpleNamespace(server_language=server_language)
    client = SimpleNamespace(get_guild=lambda guild_id: None)
    return SimpleNamespace(rooms=SimpleNamespace(queue=queue, settings=settings), client=client)


def test_a_kick_while_a_pass_fails_is_one_more_pass(caplog: pytest.LogCaptureFixture) -> None:
    async def body() -> None:
        queue = FailingOnce()
        runner = QueueRunner(_bot(queue))
        queue.kick = runner.kick
        runner.kick(GUILD)
        await runner.idle()
        assert queue.passes == 2
        assert "a pass failed; once more" in caplog.text
        assert "the sweep retries" not in caplog.text

    asyncio.run(body())


def test_a_pass_that_fails_unkicked_is_left_to_the_sweep(caplog: pytest.LogCaptureFixture) -> None:
    async def body() -> None:
        queue = FailingOnce()
        runner = QueueRunner(_bot(queue))
        queue.kick = lambda guild_id: None  # nobody joins meanwhile
        runner.kick(GUILD)
        await runner.idle()
        assert queue.passes == 1
        assert "the sweep retries" in caplog.text

    asyncio.run(body())
