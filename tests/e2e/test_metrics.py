"""Health and metrics (issue 40 item 3): the real bot against the Discord double, with
METRICS_PORT set, scraped over HTTP before and after a few commands; ``/readyz`` answers 503
with the reason once the database is gone."""

from __future__ import annotations

import asyncio
import contextlib
import math
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.config import MetricsConfig, OpsConfig
from bot.ops.health import HealthServer
from bot.store import is_url
from tests.backends import drop_databases
from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, WATCHER, Env, run
from tests.ops.support import ops_env

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@contextlib.asynccontextmanager
async def metrics_env(tmp_path: Path, **double: Any) -> AsyncIterator[Env]:
    """The double and the bot with METRICS_PORT set (port 0: a free one, on 127.0.0.1)."""
    async with ops_env(tmp_path, OpsConfig(metrics=MetricsConfig(port=0)), **double) as env:
        yield env


def server(env: Env) -> HealthServer:
    """The running bot's health server."""
    health = env.bot.health
    assert health is not None
    return health


async def get(env: Env, path: str) -> tuple[int, str]:
    """GET a path of the health server: (status, body)."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(server(env).url + path) as response,
    ):
        return response.status, await response.text()


async def scrape(env: Env) -> Samples:
    """Every sample of ``/metrics``, by name and labels."""
    status, text = await get(env, "/metrics")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, series: str, /, **labels: str) -> float:
    """One sample's value (0 when the series does not exist yet)."""
    return samples.get((series, tuple(sorted(labels.items()))), 0.0)


def test_metrics_move_with_commands_and_clicks_and_health_answers(tmp_path: Path) -> None:
    async def body() -> None:
        async with metrics_env(tmp_path, heartbeat_interval_ms=100) as env:
            assert await get(env, "/healthz") == (200, "ok\n")
            assert await get(env, "/readyz") == (200, "ready\n")
            before = await scrape(env)
            table = await env.start_game(HOST, [GUEST])  # /new, a Join click, a Start click
            first = await env.current_user(table.id)
            other = GUEST if first == HOST.id else HOST
            refused = await env.play(other, table.id, "fleet 6")  # not their turn
            await refused.reply(TIMEOUT)
            games = await env.double.slash(WATCHER, CHANNEL, "games")
            await games.reply(TIMEOUT)
            env.clock.advance(24 * 3600)  # half the default 48 h deadline: one reminder
            assert await env.bot.scheduler.tick() == 1
            await env.settled()
            after = await scrape(env)

            def moved(series: str, /, **labels: str) -> float:
                return value(after, series, **labels) - value(before, series, **labels)

            def handled(kind: str, name: str, outcome: str) -> float:
                return moved("himiko_interactions_total", kind=kind, name=name, outcome=outcome)

            assert handled("command", "new", "ok") == 1
            assert handled("command", "play", "refused") == 1
            assert handled("command", "games", "ok") == 1
            assert handled("click", "lobby:join", "ok") == 1
            assert handled("click", "lobby:start", "ok") == 1
            assert moved("himiko_answer_seconds_count", kind="command", name="play") == 1
            assert moved("himiko_answer_seconds_count", kind="click", name="lobby:start") == 1
            every = {"le": "+Inf"}  # the histogram's last bucket
            assert moved("himiko_answer_seconds_bucket", kind="command", name="games", **every) == 1
            assert moved("himiko_turn_message_seconds_count") >= 1  # the opening
            assert moved("himiko_picture_seconds_count") >= 1  # the opening's board
            assert moved("himiko_discord_http_responses_total", status="200") >= 3
            assert moved("himiko_reminders_sent_total") == 1
            assert value(after, "himiko_games", game="yamatai", status="active") == 1
            assert value(after, "himiko_games", game="namiji", status="active") == 0
            assert value(after, "himiko_admission_waiting") == 0
            assert value(after, "himiko_picture_queue") == 0
            assert value(after, "himiko_database_errors_total") == 0
            assert value(after, "process_resident_memory_bytes") > 0
            assert ("process_cpu_seconds_total", ()) in after
            for _ in range(200):  # the double answers heartbeats every 0.1 s
                latency = value(await scrape(env), "himiko_gateway_latency_seconds")
                if math.isfinite(latency):
                    break
                await asyncio.sleep(0.05)
            assert math.isfinite(latency) and latency >= 0
            assert env.log.messages() == []

    run(body)


def test_readyz_is_503_with_the_reason_once_the_database_is_gone(tmp_path: Path) -> None:
    async def body() -> None:
        async with metrics_env(tmp_path) as env:
            assert await get(env, "/readyz") == (200, "ready\n")
            before = value(await scrape(env), "himiko_database_errors_total")
            target = env.database
            if is_url(target):
                drop_databases([str(target).rsplit("/", 1)[1]])  # connections terminated
            else:
                with contextlib.closing(sqlite3.connect(target)) as conn:
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file
                size = Path(target).stat().st_size
                Path(target).write_bytes(b"\0" * size)  # the file is no database any more
            status, text = await get(env, "/readyz")
            assert status == 503, text
            lines = text.splitlines()
            assert [line.split(":")[0] for line in lines] == ["database"], text
            assert await get(env, "/healthz") == (200, "ok\n")  # the loop still answers
            after = value(await scrape(env), "himiko_database_errors_total")
            assert after > before
            env.log.records.clear()  # the gone database's failures, logged as they happen

    run(body)
