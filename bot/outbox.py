"""The outbox of thread messages: post a game's message, then record it as announced.

A saved turn whose message was lost (a failed request, a killed process) is found again through
the store's ``announced_version`` and posted by ``flush``: one message for the latest state.

Each message carries a nonce made from (game id, version) and Discord de-duplicates it
(``enforce_nonce``), so a post whose answer was lost and is sent again stays one message. A post
that went through but could not be recorded is remembered in-process and only recorded on the
next try (``NotRecorded``); it is never posted twice by this process. The end of a game also
owes a line in the lobby's channel (its own nonce) and an edit of the lobby message
(idempotent); the version is recorded once all three are done, each done once per process.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.context import Himiko
from bot.locks import KeyedLocks
from bot.service import Created, Ended, TurnReport
from bot.turns import (
    NotRecorded,
    Step,
    fetch_thread,
    post_ending,
    post_opening,
    post_turn,
    result_steps,
)


class Outbox:
    """Posts thread messages at least once and, within this process, once per version."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot
        self._locks = KeyedLocks()  # one message at a time per game
        self._posted: dict[int, int] = {}  # game -> version posted but not recorded yet
        self._steps: set[tuple[int, int, str]] = set()  # (game, version, step) done, unrecorded

    async def _announced(self, game_id: int) -> int:
        return await self.bot.service.announced_version(game_id)

    async def _post(
        self,
        game_id: int,
        version: int,
        send: Callable[[], Awaitable[None]],
        steps: Sequence[Step] = (),
    ) -> None:
        """Send (unless this process already did), then record; NotRecorded if that fails.

        ``steps`` (the end of a game: the lobby channel's line, the lobby edit) follow the
        thread message, each once per process; the version is recorded after the last.
        """
        if self._posted.get(game_id, 0) < version:
            await send()
            self._posted[game_id] = version
        for name, step in steps:
            if (game_id, version, name) not in self._steps:
                await step()
                self._steps.add((game_id, version, name))
        try:
            await self.bot.service.mark_announced(game_id, version)
        except Exception as error:
            raise NotRecorded(f"game {game_id} version {version}") from error
        self._steps -= {(game_id, version, name) for name, _ in steps}
        if self._posted.get(game_id, 0) <= version:
            del self._posted[game_id]

    async def deliver(self, report: TurnReport) -> None:
        """Post a completed turn unless it already was, then mark it announced."""
        async with self._locks.hold(report.game_id):
            if await self._announced(report.game_id) >= report.version:
                return
            await self._post(
                report.game_id,
                report.version,
                lambda: post_turn(self.bot, report),
                result_steps(self.bot, report),
            )

    async def opening(
        self, created: Created, channel: discord.abc.Messageable | None = None
    ) -> None:
        """Post a new game's first message unless it already was, then mark it announced."""
        async with self._locks.hold(created.game_id):
            if await self._announced(created.game_id) >= created.version:
                return
            await self._post(
                created.game_id, created.version, lambda: self._opening(created, channel)
            )

    async def _opening(self, created: Created, channel: discord.abc.Messageable | None) -> None:
        channel = channel or await fetch_thread(self.bot, created.thread_id)
        await post_opening(self.bot, channel, created)

    async def flush(self, game_id: int) -> bool:
        """Post the message a game still owes, if any; True if one was posted."""
        async with self._locks.hold(game_id):
            pending = await self.bot.service.pending_post(game_id)
            if pending is None:
                return False
            steps = result_steps(self.bot, pending) if isinstance(pending, TurnReport) else []
            await self._post(game_id, pending.version, lambda: self._send(pending), steps)
            return True

    async def _send(self, pending: TurnReport | Created | Ended) -> None:
        if isinstance(pending, Created):
            await self._opening(pending, None)
        elif isinstance(pending, Ended):
            await post_ending(self.bot, pending)
        else:
            await post_turn(self.bot, pending)

    async def pending(self) -> list[int]:
        """Games of this process's shards that still owe their thread a message (turns,
        openings, endings)."""
        return await self.bot.service.owing_games(self.bot.served_shards)
