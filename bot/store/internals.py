"""What the store relies on inside aiosqlite 0.22; each pinned by a test.

aiosqlite does not offer these as public API, so they live here, each behind one small name, and
``tests/bot/test_internals.py`` fails if a new version changes what the store counts on (as for
discord.py's in ``bot/internals.py``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import aiosqlite

P = ParamSpec("P")
T = TypeVar("T")


async def run_in_connection(
    conn: aiosqlite.Connection, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
) -> T:
    """``fn(*args, **kwargs)`` run in the connection's own thread, in turn with its other calls
    (aiosqlite's way to run each of its calls: one hop for the whole function)."""
    result: T = await conn._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]
    return result


def sqlite_connection(conn: aiosqlite.Connection) -> sqlite3.Connection:
    """The ``sqlite3`` connection under an aiosqlite one: usable only in the connection's own
    thread, that is in a function given to ``run_in_connection``."""
    return conn._conn
