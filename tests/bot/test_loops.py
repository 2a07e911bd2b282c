"""The shared background loop: rounds at their interval, failures survived, one task, stop."""

from __future__ import annotations

import asyncio

import pytest

from bot.background.loops import Every


def test_a_failing_round_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    """A round that raises does not end the loop; the next round runs."""
    rounds: list[int] = []

    async def body() -> None:
        rounds.append(len(rounds))
        if len(rounds) == 1:
            raise RuntimeError("the database is busy")

    async def main() -> None:
        loop = Every(body, lambda: 0.001, name="test-loop")
        loop.start()
        loop.start()  # once: a second start changes nothing
        while len(rounds) < 3:
            await asyncio.sleep(0.001)
        assert [t.get_name() for t in asyncio.all_tasks()].count("test-loop") == 1
        await loop.stop()
        assert not loop.running

    asyncio.run(main())
    assert "test-loop failed" in caplog.text


def test_first_runs_before_the_rounds_and_at_once_false_waits_one_pause() -> None:
    """``first`` runs once before the first round; without ``at_once`` a pause comes first."""
    seen: list[str] = []
    at_pauses: list[list[str]] = []  # what had run each time the loop asked for its pause

    async def first() -> None:
        seen.append("first")

    async def body() -> None:
        seen.append("round")

    def interval() -> float:
        at_pauses.append(list(seen))
        return 0.0

    async def main() -> None:
        loop = Every(body, interval, name="test-wait", at_once=False, first=first)
        loop.start()
        while len(at_pauses) < 3:
            await asyncio.sleep(0)
        assert at_pauses[0] == ["first"]  # the first round waits one pause
        assert seen[:2] == ["first", "round"]
        await loop.stop()
        count = len(seen)
        for _ in range(20):
            await asyncio.sleep(0)
        assert len(seen) == count  # stopped: no more rounds

    asyncio.run(main())
