"""A small LRU map for the bot's caches (kept matches, pictures, the web's pages and replays)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(OrderedDict[K, V]):
    """A small LRU map: ``keep`` forgets the least recently used beyond ``size``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def find(self, key: K) -> V | None:
        """The value (now the most recent), or None."""
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key: K, value: V) -> None:
        """Store a value, dropping the oldest beyond ``size``."""
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
