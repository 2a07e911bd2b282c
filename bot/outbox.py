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

from bot.context import Himiko, Owed
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
        return await self.bot.rooms.reading.announced_version(game_id)

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
            await self.bot.rooms.reading.mark_announced(game_id, version)
        except Exception as error:
            raise NotRecorded(f"game {game_id} version {version}") from error
        self._steps -= {(game_id, version, name) for name, _ in steps}
        if self._posted.get(game_id, 0) <= version:
            del self._posted[game_id]

    # Each message is posted with the reminders its turn owes: scheduled (or, at an ending,
    # cancelled) once its thread is found, just before the message that states the deadline.

    async def _opening(self, created: Created, channel: discord.abc.Messageable | None) -> None:
        channel = channel or await fetch_thread(self.bot, created.thread_id)
        deadline = await self.bot.rooms.deadlines.schedule_reminders(created.game_id, created.turn)
        await post_opening(self.bot, channel, created, deadline)

    async def _turn(self, report: TurnReport) -> None:
        channel = await fetch_thread(self.bot, report.thread_id)
        deadline = await self.bot.rooms.deadlines.schedule_reminders(
            report.game_id, report.next_turn
        )
        await post_turn(self.bot, channel, report, deadline)

    async def _ending(self, ended: Ended) -> None:
        channel = await fetch_thread(self.bot, ended.thread_id)
        # no turn: cancels its reminders
        await self.bot.rooms.deadlines.schedule_reminders(ended.game_id, None)
        await post_ending(self.bot, channel, ended)

    async def flush(
        self,
        game_id: int,
        known: Owed | None = None,
        channel: discord.abc.Messageable | None = None,
    ) -> bool:
        """Post the message a game still owes, if any; True if one was posted.

        What is owed is read from the store, unless the change just made it (``known``: a
        completed turn, a new game's opening), then it is posted unless already announced;
        ``channel``: the opening's thread, in hand.
        """
        async with self._locks.hold(game_id):
            if known is not None and await self._announced(game_id) >= known.version:
                return False
            pending = (
                known if known is not None else await self.bot.rooms.reports.pending_post(game_id)
            )
            if pending is None:
                return False
            steps = result_steps(self.bot, pending) if isinstance(pending, TurnReport) else []
            await self._post(game_id, pending.version, lambda: self._send(pending, channel), steps)
            return True

    async def _send(self, pending: Owed, channel: discord.abc.Messageable | None) -> None:
        if isinstance(pending, Created):
            await self._opening(pending, channel)
        elif isinstance(pending, Ended):
            await self._ending(pending)
        else:
            await self._turn(pending)

    async def pending(self) -> list[int]:
        """Games of this process's shards that still owe their thread a message (turns,
        openings, endings)."""
        return await self.bot.rooms.reading.owing_games(self.bot.served_shards)
