"""The health and metrics server (aiohttp): ``/healthz``, ``/readyz`` and ``/metrics``.

- ``/healthz``: 200 ``ok`` whenever the event loop answers (it serves the request);
- ``/readyz``: 200 ``ready``, or 503 with one reason a line (``database: ...``);
- ``/metrics``: the Prometheus text format.

No access log: an orchestrator probes every few seconds.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.ops.metrics import CONTENT_TYPE

log = logging.getLogger(__name__)

#: The reasons the bot is not ready (empty: ready).
Readiness = Callable[[], Awaitable[list[str]]]
#: The metrics' exposition, read fresh.
Scrape = Callable[[], Awaitable[bytes]]


class HealthServer:
    """Serves the three paths on ``host:port`` (port 0: any free one, see ``port``)."""

    def __init__(self, host: str, port: int, ready: Readiness, scrape: Scrape) -> None:
        self.host = host
        self._port = port
        self._ready = ready
        self._scrape = scrape
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        self._site: web.TCPSite | None = None

    @property
    def port(self) -> int:
        """The port listened on (the one chosen by the system when 0 was asked)."""
        addresses = self._runner.addresses if self._site is not None else []
        return int(addresses[0][1]) if addresses else self._port

    @property
    def url(self) -> str:
        """The server's base address, e.g. ``http://127.0.0.1:9100``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def start(self) -> None:
        """Listen; ``OSError`` if the address is taken or cannot be used (nothing left open)."""
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port)
        try:
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            raise
        self._site = site
        log.info("health and metrics on %s (/healthz, /readyz, /metrics)", self.url)

    async def stop(self) -> None:
        """Stop listening."""
        await self._runner.cleanup()
        self._site = None

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, request: web.Request) -> web.Response:
        reasons = await self._ready()
        if reasons:
            return web.Response(status=503, text="".join(f"{r}\n" for r in reasons))
        return web.Response(text="ready\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        body = await self._scrape()
        response = web.Response(body=body)
        response.headers["Content-Type"] = CONTENT_TYPE
        return response
