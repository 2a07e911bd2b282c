"""One asyncio lock per key (a game, a lobby message), dropped when nobody holds or awaits it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class KeyedLocks:
    """Locks by key that do not pile up: the last user out forgets the key's lock."""

    def __init__(self) -> None:
        self.locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    def lock(self, key: int) -> asyncio.Lock:
        """The lock of one key (made on first use)."""
        return self.locks.setdefault(key, asyncio.Lock())

    @asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        """Hold the key's lock, after the users before; the last one out drops it."""
        lock = self.lock(key)
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key]
                self.locks.pop(key, None)
                self.released(key)

    def released(self, key: int) -> None:
        """Called when nobody holds or awaits the key's lock any more (a hook)."""
