"""/board public:true: refusals and failures are answered privately, the board publicly."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import pytest

from bot.cogs.info import InfoCog
from bot.service import Rooms

from .fakes import FakeBot, fake_interaction, invoke
from .support import ANN, two_player_game, with_service

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def _interaction(bot: FakeBot, channel_id: int) -> Any:
    interaction = fake_interaction(bot, user_id=ANN, channel_id=channel_id)
    interaction.deleted = []

    async def delete() -> None:
        interaction.deleted.append(True)

    interaction.delete_original_response = delete
    return interaction


def test_public_board_refusals_and_failures_stay_private(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        await two_player_game(rooms)
        bot = FakeBot(rooms=rooms)
        cog = InfoCog(bot)  # type: ignore[arg-type]
        board: Any = cog.board

        nowhere = _interaction(bot, 777)
        await invoke(board, cog, nowhere, public=True)
        assert nowhere.response.deferred == []  # refused before any public answer
        assert nowhere.response.sent[0]["ephemeral"] is True

        shown = _interaction(bot, 500)
        await invoke(board, cog, shown, public=True)
        assert shown.response.deferred == [{"ephemeral": False, "thinking": True}]
        [message] = shown.followup.sent
        assert message["ephemeral"] is False and "Round 1" in message["content"]

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("render failed")

        rooms.reading.board = cast(Any, broken)  # type: ignore[method-assign]
        failing = _interaction(bot, 500)
        await invoke(board, cog, failing, public=True)
        assert failing.deleted == [True]
        [error] = failing.followup.sent
        assert error["ephemeral"] is True and "Something went wrong" in error["content"]

    asyncio.run(with_service(tmp_path, body, fast=True))
