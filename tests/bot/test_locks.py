"""Keyed locks: one holder at a time per key, forgotten when nobody holds or awaits them."""

from __future__ import annotations

import asyncio

from bot.locks import KeyedLocks


def test_one_holder_per_key_and_nothing_left_behind() -> None:
    async def body() -> None:
        locks = KeyedLocks()
        order: list[str] = []

        async def use(key: int, name: str) -> None:
            async with locks.hold(key):
                order.append(f"{name} in")
                await asyncio.sleep(0.01)
                order.append(f"{name} out")

        await asyncio.gather(use(1, "a"), use(1, "b"), use(2, "c"))
        assert order.index("a out") < order.index("b in")  # same key: one after the other
        assert order.index("c in") < order.index("a out")  # another key: no waiting
        assert locks.locks == {} and locks._users == {}

    asyncio.run(body())
