"""Start the health and metrics server for the bot: its checks, and the games counted when
``/metrics`` is scraped. A taken address is a settings error (exit code 2)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from bot.ops.config import MetricsConfig
from bot.ops.health import HealthServer, Scrape
from bot.ops.metrics import Metrics
from bot.ops.probes import TIMEOUT, Check, GameCounter, not_ready
from bot.settings import SettingsError
from bot.store import Shards
from engine.games import GAMES

log = logging.getLogger(__name__)


def scraper(
    metrics: Metrics, store: Callable[[], GameCounter | None], shards: Shards | None = None
) -> Scrape:
    """The ``/metrics`` body: the games (of ``shards``' guilds) counted from the database
    (when it answers; else the last counts stay), then every series."""

    async def scrape() -> bytes:
        current = store()
        if current is not None:
            try:
                counts = await asyncio.wait_for(current.game_counts(shards), TIMEOUT)
            except Exception:  # /readyz says why; the failure is counted as a database error
                log.debug("metrics: could not count the games", exc_info=True)
            else:
                metrics.count_games(counts, GAMES)
        return metrics.exposition()

    return scrape


async def start_health(
    config: MetricsConfig,
    metrics: Metrics,
    checks: Sequence[tuple[str, Check]],
    store: Callable[[], GameCounter | None],
    shards: Shards | None = None,
) -> HealthServer:
    """Serve ``/healthz``, ``/readyz`` (``checks``) and ``/metrics`` on the configured address;
    ``SettingsError`` (one line) if it cannot be listened on."""

    async def ready() -> list[str]:
        return await not_ready(checks)

    server = HealthServer(config.host, config.port, ready, scraper(metrics, store, shards))
    try:
        await server.start()
    except OSError as error:
        raise SettingsError(
            f"METRICS_PORT: cannot listen on {config.host}:{config.port} "
            f"({error.strerror or error}); choose a free port (or stop what uses it)."
        ) from None
    return server
