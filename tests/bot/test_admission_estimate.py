"""The admission gate's expected wait (D117): a moving average of the time a place is held,
timed with an injected clock, and the refusal on arrival it decides."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.admission import BOUND, SMOOTHING, Admission, admitted


class Clock:
    """Monotonic seconds that move only when the test moves them."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def nothing() -> None:
    """No notice."""


async def hold(gate: Admission, clock: Clock, seconds: float) -> None:
    """One command that holds its place ``seconds`` by the clock."""
    async with gate.place(nothing):
        clock.now += seconds


def test_the_moving_average_follows_the_times_places_are_held() -> None:
    """The first command sets it, each later one moves it by SMOOTHING of the difference."""

    async def body() -> None:
        clock = Clock()
        gate = Admission(limit=2, clock=clock)
        assert gate.held is None
        await hold(gate, clock, 1.0)
        assert gate.held == pytest.approx(1.0)
        await hold(gate, clock, 2.0)
        assert gate.held == pytest.approx(1.0 + SMOOTHING * 1.0)
        await hold(gate, clock, 0.0)
        assert gate.held == pytest.approx(1.2 - SMOOTHING * 1.2)

    asyncio.run(body())


def test_the_expected_wait_counts_the_commands_ahead_past_the_places() -> None:
    """Two places held 1.2 s lately: nothing while a place is free; 0.6 s once both are taken
    (one place to free up, two freeing in parallel), 0.6 s more per command ahead (waiting or
    still being deferred); refused past the bound, never while stopping."""

    async def body() -> None:
        clock = Clock()
        gate = Admission(limit=2, bound=1.0, clock=clock)
        gate.running = 2
        assert gate.expected_wait() == 0.0 and not gate.refuses()  # nothing timed yet
        gate.held = 1.2
        gate.running = 1
        assert gate.expected_wait() == 0.0
        gate.running = 2
        assert gate.expected_wait() == pytest.approx(0.6) and not gate.refuses()
        gate.arriving = 1
        assert gate.expected_wait() == pytest.approx(1.2) and gate.refuses()
        gate.arriving = 0
        gate.waiting.append(asyncio.get_running_loop().create_future())
        assert gate.expected_wait() == pytest.approx(1.2) and gate.refuses()
        gate.stopping = True
        assert not gate.refuses()

    asyncio.run(body())


def test_a_fresh_gate_refuses_nothing_and_the_bound_keeps_answers_under_a_second() -> None:
    """Before any command was timed nothing is refused, however long the queue; the module's
    bound leaves an admitted command half a second for its own work within the second."""

    async def body() -> None:
        gate = Admission(limit=1)
        gate.running = 1
        for _ in range(100):
            gate.waiting.append(asyncio.get_running_loop().create_future())
        assert not gate.refuses()

    asyncio.run(body())
    assert 0 < BOUND <= 0.5


class Command:
    """A slash command interaction as ``admitted`` reads it."""

    type = discord.InteractionType.application_command
    data: dict[str, Any] = {"type": 1, "name": "play"}  # noqa: RUF012 (read only)


def test_a_refusal_is_the_only_answer_and_runs_nothing_even_when_discord_fails() -> None:
    """Refused on arrival: the notice ``busy.refused`` once, the command not run, not deferred;
    a Discord failure of that notice is logged, not raised (nothing was played either way)."""

    async def body() -> None:
        gate = Admission(limit=1, bound=0.5)
        gate.running, gate.held = 1, 1.0
        said: list[str] = []
        ran: list[bool] = []

        async def run() -> None:
            ran.append(True)

        async def notice(_: Any, key: str) -> None:
            said.append(key)

        async def failing(_: Any, key: str) -> None:
            said.append(key)
            raise discord.HTTPException(FakeResponse(), "503: Service Unavailable")

        await admitted(gate, Command(), run, notice)  # type: ignore[arg-type]
        await admitted(gate, Command(), run, failing)  # type: ignore[arg-type]
        assert said == ["busy.refused", "busy.refused"] and not ran
        assert gate.refused == 2 and gate.running == 1 and not gate.waiting

    asyncio.run(body())


class FakeResponse:
    """Enough of an aiohttp response for ``discord.HTTPException``."""

    status = 503
    reason = "Service Unavailable"
