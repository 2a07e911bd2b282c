"""Admission of commands under overload (issue 25 item 3, D115).

Every slash command that answers privately after some work (``/play``, ``/undo``, ``/turn``,
``/back``) is deferred the moment it arrives, so Discord's 3-second acknowledgement never
fails, and then waits for one of ``limit`` places: at most that many run at once, the others in
the order they came. One that waits longer than ``patience`` is told, once, that it is queued.
A command is never dropped or run twice by the gate: each runs once, when its turn comes; when
the bot stops, those still waiting are told that nothing was played (they changed nothing).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import discord

log = logging.getLogger(__name__)

#: Slash commands whose first step is ``defer(ephemeral=True, thinking=True)``: deferring them
#: at once, before their turn, answers exactly as they would.
QUEUED_COMMANDS = frozenset({"play", "undo", "turn", "back"})
LIMIT = 8  # commands at once: the render worker, the database and the loop stay busy, not swamped
PATIENCE = 2.0  # seconds a command waits before its player is told it is queued

Notice = Callable[[discord.Interaction[Any], str], Awaitable[None]]


class Stopping(Exception):
    """The bot is stopping: a command still waiting is not run (it changed nothing)."""


class DeferredFirst(discord.InteractionResponse[Any]):
    """The response of a command the gate deferred: the command's own ``defer`` is then done."""

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        """Defer once; a second call (the command's own) changes nothing."""
        if self.is_done():
            return
        await super().defer(ephemeral=ephemeral, thinking=thinking)


def queued_command(interaction: discord.Interaction[Any]) -> bool:
    """Whether the gate admits this interaction (a slash command of ``QUEUED_COMMANDS``)."""
    if interaction.type is not discord.InteractionType.application_command:
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    return data.get("type", 1) == 1 and data.get("name") in QUEUED_COMMANDS


async def defer_now(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge the command at once, privately and "thinking", as the command itself would."""
    response = DeferredFirst(interaction)
    # discord.py caches the response in this slot; the command then finds the deferred one
    interaction._cs_response = response  # type: ignore[attr-defined]
    await response.defer(ephemeral=True, thinking=True)


class Admission:
    """At most ``limit`` commands run at once; the rest wait in arrival order."""

    def __init__(self, limit: int = LIMIT, patience: float = PATIENCE) -> None:
        if limit < 1:
            raise ValueError(f"at least one command must run at once, not {limit}")
        self.limit = limit
        self.patience = patience
        self.running = 0
        self.waiting: deque[asyncio.Future[None]] = deque()
        self.stopping = False
        self.most_waiting = 0  # the longest queue seen (the benchmark and the log read it)

    @asynccontextmanager
    async def place(self, on_long_wait: Callable[[], Awaitable[None]]) -> AsyncIterator[None]:
        """Hold one place while the block runs; ``on_long_wait`` once if the wait is long.

        Raises ``Stopping`` if the bot stops before the place comes.
        """
        await self._enter(on_long_wait)
        try:
            yield
        finally:
            self._leave()

    async def _enter(self, on_long_wait: Callable[[], Awaitable[None]]) -> None:
        if self.stopping:
            raise Stopping
        if self.running < self.limit and not self.waiting:
            self.running += 1
            return
        turn = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        self.most_waiting = max(self.most_waiting, len(self.waiting))
        try:
            try:
                await asyncio.wait_for(asyncio.shield(turn), self.patience)
            except TimeoutError:
                await _quietly(on_long_wait)
                await turn
        except BaseException:
            if turn.done() and not turn.cancelled() and turn.exception() is None:
                self._leave()  # the place was handed over just as the wait ended: pass it on
            elif not turn.done():
                turn.cancel()
                self.waiting.remove(turn)
            raise

    def _leave(self) -> None:
        """Hand the place to the first waiting command, or free it."""
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # the place passes on: ``running`` is unchanged
                return
        self.running -= 1

    def stop(self) -> int:
        """Run nothing more: every waiting command gets ``Stopping``; how many were waiting."""
        self.stopping = True
        told = 0
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_exception(Stopping())
                told += 1
        return told


async def _quietly(call: Callable[[], Awaitable[None]]) -> None:
    """A courtesy message: its failure (Discord 5xx, a lost token) must not cost the command."""
    try:
        await call()
    except (TimeoutError, discord.HTTPException):
        log.warning("could not tell a queued command that it waits", exc_info=True)


async def admitted(
    gate: Admission,
    interaction: discord.Interaction[Any],
    run: Callable[[], Awaitable[None]],
    notice: Notice,
) -> None:
    """Run one interaction's handling through the gate: deferred at once, then in its turn.

    ``notice(interaction, key)`` sends the catalog text ``key`` to the player (privately).
    """
    if not queued_command(interaction):
        await run()
        return
    try:
        await defer_now(interaction)
    except discord.HTTPException:
        # Not acknowledged (Discord 5xx, or the 3 s had passed): the command runs anyway, as
        # it would have without the gate; its own answer then fails the same way.
        log.warning("could not defer a command on arrival", exc_info=True)
    try:
        async with gate.place(lambda: notice(interaction, "busy.queued")):
            await run()
    except Stopping:
        await _quietly(lambda: notice(interaction, "busy.stopping"))
