"""A per-process memo of text-free pictures (a board's base without words, a fixed palette).

Unlike the ``functools`` memos of render/, these have no ``cache_clear``: tests that measure
texts as they are drawn forget every memo that holds words (tests/render/test_phone.py
``_clear_caches``), and what is kept here holds none, so it is made once per process and key
(docs/decisions.md D204).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")

__all__ = ["TextFree"]


class TextFree(Generic[Value]):
    """At most ``size`` values made by ``make`` for their keys, the least recently used out
    first; thread-safe (the bot may draw in several threads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Value]) -> Value:
        """The value kept under ``key``, made (outside the lock) and kept when missing."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        with self._lock:
            kept = self._items.setdefault(key, value)  # another thread's, if it was quicker
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
            return kept

    def __len__(self) -> int:
        """How many values are kept."""
        return len(self._items)
