"""One click in flight per player (D151): ``one_in_flight`` turns away a player's click while
their previous one is admitted, and frees the player whatever became of it."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.admission import Admission, one_in_flight

BUSY = "coach.hint_in_flight"


class Click:
    """A component interaction as the gate reads it."""

    type = discord.InteractionType.component
    data: dict[str, Any] = {"custom_id": "himiko:panel:hint:1:1"}  # noqa: RUF012 (read only)


def test_a_click_while_the_owner_s_previous_one_is_admitted_is_told_and_runs_nothing() -> None:
    """While an owner is in flight, their clicks get ``busy`` as their only answer and run
    nothing; another owner's click is not concerned; once the first is over the owner is
    free again."""

    async def body() -> None:
        gate = Admission(limit=1, bound=0.5)
        said: list[str] = []
        ran: list[str] = []

        async def notice(_: Any, key: str) -> None:
            said.append(key)

        def run(name: str) -> Any:
            async def job() -> None:
                ran.append(name)

            return job

        gate.in_flight.add(("hint", 1))  # the first click, admitted and not over
        for _ in range(3):
            await one_in_flight(gate, Click(), ("hint", 1), run("again"), notice, busy=BUSY)  # type: ignore[arg-type]
        assert said == [BUSY] * 3 and ran == [] and gate.doubled == 3
        gate.running, gate.held = 1, 1.0  # the gate full: another owner's click is refused
        await one_in_flight(gate, Click(), ("hint", 2), run("other"), notice, busy=BUSY)  # type: ignore[arg-type]
        assert said[-1] == "busy.refused" and ran == []
        assert gate.in_flight == {("hint", 1)}  # the refused owner is not left in flight

    asyncio.run(body())
