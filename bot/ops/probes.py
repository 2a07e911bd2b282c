"""The readiness checks: is the gateway connected, does the database answer, do the workers?

A check answers None when its part is fine, else the reason in a few words. ``not_ready`` runs
them all at once, each within ``timeout`` seconds, and lists the reasons, each after its
check's name (``database: ...``); an empty list means ready.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

import discord

from bot.store import Shards
from bot.workers.worker_pool import WorkerPool

#: None when the part is fine, else why not.
Check = Callable[[], Awaitable[str | None]]
TIMEOUT = 5.0  # seconds a check may take before its part counts as not answering
REASON_LENGTH = 200  # characters of an error's message shown in a reason


class GameCounter(Protocol):
    """The store as the checks and the metrics read it."""

    async def game_counts(self, shards: Shards | None = None) -> Mapping[tuple[str, str], int]:
        """Stored games per (game, status), of ``shards``' guilds if given."""
        ...


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split())[:REASON_LENGTH]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def gateway_check(client: discord.AutoShardedClient) -> Check:
    """Whether the client is connected to the gateway (every shard it runs)."""

    async def check() -> str | None:
        if client.is_closed():
            return "closed"
        if not client.is_ready():
            return "not connected yet"
        down = sorted(number for number, shard in client.shards.items() if shard.is_closed())
        if down:
            return f"shard {', '.join(map(str, down))} disconnected"
        return None

    return check


def database_check(store: Callable[[], GameCounter | None]) -> Check:
    """Whether the database answers a query (the one the games gauge needs)."""

    async def check() -> str | None:
        current = store()
        if current is None:
            return "closed"
        await current.game_counts()
        return None

    return check


def workers_check(pool: Callable[[], WorkerPool | None]) -> Check:
    """Whether the pool's workers take work and answer (a process id back from one)."""

    async def check() -> str | None:
        current = pool()
        if current is None:
            return "not started"
        await current.call(os.getpid)
        return None

    return check


async def _run(name: str, check: Check, timeout: float) -> str | None:
    try:
        reason = await asyncio.wait_for(check(), timeout)
    except TimeoutError:
        reason = f"no answer within {timeout:g} s"
    except Exception as error:  # a probe reports a failure, it never raises
        reason = _reason(error)
    return None if reason is None else f"{name}: {reason}"


async def not_ready(checks: Sequence[tuple[str, Check]], timeout: float = TIMEOUT) -> list[str]:
    """Every check at once; the reasons of those that failed, in the order given."""
    results = await asyncio.gather(*(_run(name, check, timeout) for name, check in checks))
    return [reason for reason in results if reason is not None]
