"""The outbox of thread messages: post a game's turn message, then record it as announced.

A saved turn whose message was lost (a failed request, a killed process) is found again through
the store's ``announced_version`` and posted by ``flush``: one message for the latest state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.locks import KeyedLocks
from bot.service import Created, TurnReport
from bot.turns import fetch_thread, post_opening, post_turn

if TYPE_CHECKING:
    from bot.app import HimikoBot


class Outbox:
    """Posts thread messages at least once and, within this process, once per version."""

    def __init__(self, bot: HimikoBot) -> None:
        self.bot = bot
        self._locks = KeyedLocks()  # one message at a time per game

    async def _announced(self, game_id: int) -> int:
        return (await self.bot.service.repo.load_game(game_id)).announced_version

    async def deliver(self, report: TurnReport) -> None:
        """Post a completed turn unless it already was, then mark it announced."""
        async with self._locks.hold(report.game_id):
            if await self._announced(report.game_id) >= report.version:
                return
            await post_turn(self.bot, report)
            await self.bot.service.repo.mark_announced(report.game_id, report.version)

    async def opening(
        self, created: Created, channel: discord.abc.Messageable | None = None
    ) -> None:
        """Post a new game's first message unless it already was, then mark it announced."""
        async with self._locks.hold(created.game_id):
            if await self._announced(created.game_id) >= created.version:
                return
            channel = channel or await fetch_thread(self.bot, created.thread_id)
            await post_opening(self.bot, channel, created)
            await self.bot.service.repo.mark_announced(created.game_id, created.version)

    async def flush(self, game_id: int) -> bool:
        """Post the message a game still owes, if any; True if one was posted."""
        async with self._locks.hold(game_id):
            pending = await self.bot.service.pending_post(game_id)
            if pending is None:
                return False
            if isinstance(pending, Created):
                await post_opening(
                    self.bot, await fetch_thread(self.bot, pending.thread_id), pending
                )
            else:
                await post_turn(self.bot, pending)
            await self.bot.service.repo.mark_announced(game_id, pending.version)
            return True

    async def pending(self) -> list[int]:
        """Games that still owe their thread a message."""
        return await self.bot.service.repo.unannounced_games()
