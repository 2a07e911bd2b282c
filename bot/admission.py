"""Admission of commands under overload (issue 25 item 3, D115, D117, D134).

Every slash command that answers privately after some work (``/play``, ``/undo``, ``/turn``,
``/back``), and every click on a turn panel (``through_gate``: it plays, undoes or redraws the
panel with its picture, the same work), is looked at the moment it arrives. If its expected wait
for a place (the commands ahead of it times the recent time a command holds its place, divided
by the places) is over ``bound``, it is refused at once: its first and only answer says that
nothing was played and to try again in a few seconds, and it changes nothing (D117). Otherwise
it is deferred at once, so Discord's 3-second acknowledgement never fails, and then waits for
one of ``limit`` places: at most that many run at once, the others in the order they came. One
that waits longer than ``patience`` is told, once, that it is queued. An admitted command is
never dropped, refused or run twice by the gate: each runs once, when its turn comes; when the
bot stops, those still waiting are told that nothing was played (they changed nothing).

A command of ``DIRECT_COMMANDS`` that finds a place free is not deferred on arrival: it runs at
once and answers with its result as its first response (one call to Discord instead of a
deferral and an edit), unless ``ANSWER_WITHIN`` seconds pass first; then it is deferred and its
answer replaces the "thinking" message, as a waiting command's does (``AnswerSoon``, D139).

A click of which each player may have one in flight (the coach's Hint, D151) passes the gate
through ``one_in_flight``: while the player's previous one is admitted (waiting or running),
another is answered at once that the first is still being worked out, and runs nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Mapping
from contextlib import asynccontextmanager

import discord

from bot.internals import Interaction, set_response

log = logging.getLogger(__name__)

#: Slash commands whose first step is ``defer(ephemeral=True, thinking=True)``: deferring them
#: at once, before their turn, answers exactly as they would.
QUEUED_COMMANDS = frozenset({"play", "undo", "turn", "back"})
#: Of those, the ones whose handler gives its first answer only through ``bot.present.send``
#: (never a follow-up or an edit of its own before it), so it may answer directly (D139).
DIRECT_COMMANDS = frozenset({"play", "undo", "back"})
#: Seconds a command with a free place may take to answer directly before it is deferred: well
#: inside Discord's 3 s for the deferral, with a slow network's round trip to spare.
ANSWER_WITHIN = 1.5
LIMIT = 8  # commands at once: the render worker, the database and the loop stay busy, not swamped
PATIENCE = 2.0  # seconds a command waits before its player is told it is queued
#: The longest expected wait for a place a command is admitted with (seconds). An admitted
#: answer takes its wait plus the time it holds its place (its own work and answer: the
#: answers' p95 was 0.3-0.5 s at 80 commands/s on a loaded two-core machine, D117), so half a
#: second keeps its p95 under 1 s.
BOUND = 0.5
#: The weight of the latest command in the moving average of the time a place is held: about
#: the last ten commands count, so the estimate follows a change of load within a second.
SMOOTHING = 0.2

Notice = Callable[[Interaction, str], Awaitable[None]]


class Stopping(Exception):
    """The bot is stopping: a command still waiting is not run (it changed nothing)."""


class DeferredFirst(discord.InteractionResponse[discord.Client]):
    """The response of a command the gate deferred: the command's own ``defer`` is then done."""

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        """Defer once; a second call (the command's own) changes nothing."""
        if self.is_done():
            return
        await super().defer(ephemeral=ephemeral, thinking=thinking)


class AnswerSoon(discord.InteractionResponse[discord.Client]):
    """The response of a command that may answer directly: the handler's own ``defer`` sends
    nothing; if no answer was given ``within`` seconds after ``start``, the command is deferred
    (privately, "thinking") then. ``answering`` keeps that late deferral and the first answer
    from crossing: the answer waits for a deferral under way and then follows it up."""

    def __init__(self, parent: Interaction) -> None:
        super().__init__(parent)
        self.answering = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._late: asyncio.Task[None] | None = None  # held: the loop keeps only weak refs

    def start(self, within: float) -> None:
        """Defer the command if it has not answered ``within`` seconds from now."""
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(within, self._defer_late)

    def settle(self) -> None:
        """The command ended: no late deferral from now on."""
        if self._timer is not None:
            self._timer.cancel()

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        """The handler's own deferral: nothing (a fast answer needs none, a slow one is
        deferred by the timer)."""

    def _defer_late(self) -> None:
        self._late = asyncio.get_running_loop().create_task(self._deferral())

    async def _deferral(self) -> None:
        async with self.answering:
            if self.is_done():
                return
            try:
                await super().defer(ephemeral=True, thinking=True)
            except discord.HTTPException:
                # As a deferral on arrival that failed: the answer is still tried (directly).
                log.warning("could not defer a slow command", exc_info=True)


def _command_name(interaction: Interaction) -> str | None:
    """The slash command's name (None for anything else)."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    data: Mapping[str, object] = interaction.data or {}
    name = data.get("name")
    return str(name) if data.get("type", 1) == 1 and name is not None else None


async def defer_now(interaction: Interaction, *, thinking: bool = True) -> None:
    """Acknowledge the interaction at once as its handler itself would: a command privately
    and "thinking"; a panel click (``thinking=False``) as an update of the panel's message."""
    response = DeferredFirst(interaction)
    set_response(interaction, response)  # the handler then finds the deferred one
    if thinking:
        await response.defer(ephemeral=True, thinking=True)
    else:
        await response.defer()


class Admission:
    """At most ``limit`` commands run at once; the rest wait in arrival order, unless their
    expected wait would pass ``bound`` (then they are refused on arrival).

    ``clock`` (monotonic seconds) times how long a place is held: the running loop's clock
    unless a test gives its own.
    """

    def __init__(
        self,
        limit: int = LIMIT,
        patience: float = PATIENCE,
        bound: float = BOUND,
        clock: Callable[[], float] | None = None,
        answer_within: float = ANSWER_WITHIN,
    ) -> None:
        if limit < 1:
            raise ValueError(f"at least one command must run at once, not {limit}")
        self.limit = limit
        self.patience = patience
        self.bound = bound
        self.clock = clock
        self.answer_within = answer_within
        self.running = 0
        self.waiting: deque[asyncio.Future[None]] = deque()
        self.stopping = False
        self.most_waiting = 0  # the longest queue seen (the benchmark and the log read it)
        self.held: float | None = None  # moving average of the seconds a place is held
        self.arriving = 0  # admitted commands still being deferred (not yet in the queue)
        self.refused = 0  # commands refused on arrival (logged when the bot stops)
        self.in_flight: set[Hashable] = set()  # owners with a ``one_in_flight`` click admitted
        self.doubled = 0  # clicks turned away because their owner had one in flight

    def now(self) -> float:
        """Monotonic seconds: the injected clock, else the running loop's."""
        return self.clock() if self.clock is not None else asyncio.get_running_loop().time()

    def expected_wait(self) -> float:
        """Seconds a command arriving now would wait for its place: none while a place is
        free; else the places it needs freed (one per command ahead of it past the places, and
        its own) times the recent time a place is held, divided by the places (they free up in
        parallel). Nothing is expected before a command has been timed."""
        ahead = self.running + len(self.waiting) + self.arriving
        if self.held is None or ahead < self.limit:
            return 0.0
        return (ahead - self.limit + 1) * self.held / self.limit

    def free(self) -> bool:
        """Whether a command arriving now takes a place at once (none waits or is arriving
        for the places left)."""
        return not self.waiting and self.running + self.arriving < self.limit

    def refuses(self) -> bool:
        """Whether a command arriving now must be turned away (its wait would pass ``bound``);
        never while the bot stops (``busy.stopping`` is that answer)."""
        return not self.stopping and self.expected_wait() > self.bound

    def _timed(self, began: float) -> None:
        """Fold one command's time in its place into the moving average."""
        held = max(0.0, self.now() - began)
        self.held = held if self.held is None else self.held + SMOOTHING * (held - self.held)

    @asynccontextmanager
    async def place(self, on_long_wait: Callable[[], Awaitable[None]]) -> AsyncIterator[None]:
        """Hold one place while the block runs; ``on_long_wait`` once if the wait is long.

        Raises ``Stopping`` if the bot stops before the place comes.
        """
        await self._enter(on_long_wait)
        began = self.now()
        try:
            yield
        finally:
            self._timed(began)
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
        log.warning("could not give a command the gate's word", exc_info=True)


async def admitted(
    gate: Admission,
    interaction: Interaction,
    run: Callable[[], Awaitable[None]],
    notice: Notice,
) -> None:
    """Run one interaction's handling through the gate: refused at once if it would wait too
    long, else deferred at once, then run in its turn.

    ``notice(interaction, key)`` sends the catalog text ``key`` to the player (privately):
    as the first response when nothing answered yet (a refusal), else as a follow-up.
    """
    name = _command_name(interaction)
    if name not in QUEUED_COMMANDS:
        await run()
        return
    if name in DIRECT_COMMANDS and gate.free() and not gate.stopping:
        await _answer_directly(gate, interaction, run)
        return
    await through_gate(gate, interaction, run, notice)


async def _answer_directly(
    gate: Admission, interaction: Interaction, run: Callable[[], Awaitable[None]]
) -> None:
    """Run a command in the place free now, answering directly unless it is slow (D139)."""
    response = AnswerSoon(interaction)
    set_response(interaction, response)  # the handler's answers go through it
    response.start(gate.answer_within)
    try:
        async with gate.place(_nothing):  # free: entered at once, never waits
            await run()
    finally:
        response.settle()


async def _nothing() -> None:
    """No word for a wait that cannot happen."""


async def through_gate(
    gate: Admission,
    interaction: Interaction,
    run: Callable[[], Awaitable[None]],
    notice: Notice,
    *,
    thinking: bool = True,
) -> None:
    """``admitted`` for any interaction the gate admits: a gated command, or a turn panel's
    click (``thinking=False``: deferred as an update of the panel, as its handler would)."""
    if gate.refuses():
        # Turned away before any answer: this is the interaction's first and only response
        # (one HTTP call, never a deferral), and the command is not run, so nothing changed.
        gate.refused += 1
        log.debug("refused a command: expected wait %.2f s", gate.expected_wait())
        await _quietly(lambda: notice(interaction, "busy.refused"))
        return
    gate.arriving += 1  # ahead of the next arrivals while its deferral is under way
    try:
        await defer_now(interaction, thinking=thinking)
    except discord.HTTPException:
        # Not acknowledged (Discord 5xx, or the 3 s had passed): the command runs anyway, as
        # it would have without the gate; its own answer then fails the same way.
        log.warning("could not defer a command on arrival", exc_info=True)
    finally:
        gate.arriving -= 1
    try:
        async with gate.place(lambda: notice(interaction, "busy.queued")):
            await run()
    except Stopping:
        await _quietly(lambda: notice(interaction, "busy.stopping"))


async def one_in_flight(
    gate: Admission,
    interaction: Interaction,
    owner: Hashable,
    run: Callable[[], Awaitable[None]],
    notice: Notice,
    *,
    busy: str,
    thinking: bool = True,
) -> None:
    """``through_gate`` for a click of which each ``owner`` (a player) may have one in flight:
    while their previous one is admitted (waiting for its place or running), another is
    answered at once with the catalog text ``busy`` (privately, its first and only response)
    and runs nothing (D151)."""
    if owner in gate.in_flight:
        gate.doubled += 1
        await _quietly(lambda: notice(interaction, busy))
        return
    gate.in_flight.add(owner)
    try:
        await through_gate(gate, interaction, run, notice, thinking=thinking)
    finally:
        gate.in_flight.discard(owner)
