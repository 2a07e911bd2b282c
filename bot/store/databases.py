"""Either database by its target: which backend a target names, and the failures both share.

Above ``sqlite.py`` and ``postgres.py`` (which import only ``connection.py``): turning a failure to
open a target into one line, telling a busy database from a broken one, and running a repository
call again after PostgreSQL rolled it back for a concurrent one.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ParamSpec, TypeVar

from . import postgres, sqlite
from .connection import CALL_ATTEMPT, Target, is_url

P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C", bound=type)

#: A repository call that lost a serialization race on PostgreSQL runs again, at most this often.
CONFLICT_ATTEMPTS = 8
CONFLICT_PAUSE = 0.005  # seconds, doubled each attempt, with jitter


@contextmanager
def database_errors(target: Target) -> Iterator[None]:
    """Turn failures to open or use ``target`` into a one-line DatabaseUnusable."""
    guard = postgres.database_errors(str(target)) if is_url(target) else None
    with guard or sqlite.database_errors(Path(target)):
        yield


def is_busy(error: BaseException) -> bool:
    """Whether an error only says that another writer got in the way (worth retrying later)."""
    return sqlite.is_busy(error) or postgres.is_conflict(error)


def _retry(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(method)
    async def retrying(*args: P.args, **kwargs: P.kwargs) -> R:
        if CALL_ATTEMPT.get() is not None:  # an outer call retries the whole thing
            return await method(*args, **kwargs)
        try:
            for attempt in range(CONFLICT_ATTEMPTS - 1):
                CALL_ATTEMPT.set(attempt)
                try:
                    return await method(*args, **kwargs)
                except Exception as error:
                    if not postgres.is_conflict(error):
                        raise
                await asyncio.sleep(random.uniform(0.5, 1.0) * CONFLICT_PAUSE * 2**attempt)
            CALL_ATTEMPT.set(CONFLICT_ATTEMPTS - 1)
            return await method(*args, **kwargs)
        finally:
            CALL_ATTEMPT.set(None)

    return retrying


def retry_conflicts(cls: C) -> C:
    """Make every public coroutine method run again after a serialization failure or deadlock.

    Such a failure rolled the whole transaction back, so running the call again is exactly
    what SQLite's busy timeout does by waiting. Methods added later get it too, and so do the
    methods ``cls`` inherits from its parts (the most derived definition of each name).
    """
    members: dict[str, object] = {}
    for klass in reversed(cls.__mro__):
        members.update(vars(klass))
    for name, member in members.items():
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, _retry(member))
    return cls
