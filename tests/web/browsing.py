"""Headless Chromium for the web tests: one browser per test process, a new context per test.

Launching Chromium and Playwright's driver costs about a CPU second, so the browser is
started once, on the first test that asks for it, in a thread with its own event loop, and
closed when the process exits. A test's pages are driven in that thread while the test's own
loop serves them (its web server and its database connections stay on the test's loop).
"""

from __future__ import annotations

import asyncio
import atexit
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import pytest

from bot.store import GameRepository
from bot.web.config import WebConfig
from bot.web.limits import RateLimit
from bot.web.pictures import web_picture
from bot.web.server import WebServer
from bot.web.sources import StandingsSource
from bot.workers.render_pool import RenderPool

from .support import SECRET

CHROMIUM = os.environ.get("HIMIKO_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}

T = TypeVar("T")


@asynccontextmanager
async def web_server(
    repo: GameRepository, leagues: StandingsSource | None = None
) -> AsyncIterator[WebServer]:
    """The web's server on ``repo`` with the web's own drawer (pictures in the page's
    language), on a free port of 127.0.0.1."""
    pool = RenderPool(0, web_picture)
    limit = RateLimit(burst=10_000)  # a page asks for many pictures at once
    server = WebServer(WebConfig(port=0, secret=SECRET), repo, pool, limit=limit, leagues=leagues)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


class _Chromium:
    """The process's browser and the thread whose loop drives it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="chromium", daemon=True).start()
        self.driver: Any = None
        self.browser: Any = None

    async def start(self) -> None:
        """Start Playwright's driver and Chromium."""
        api = pytest.importorskip("playwright.async_api", reason="the playwright wheel")
        self.driver = await api.async_playwright().start()
        self.browser = await self.driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)

    async def stop(self) -> None:
        """Close Chromium and the driver."""
        if self.browser is not None:
            await self.browser.close()
        if self.driver is not None:
            await self.driver.stop()

    def close(self) -> None:
        """At the process's exit: close the browser, then end the thread's loop."""
        try:
            asyncio.run_coroutine_threadsafe(self.stop(), self.loop).result(timeout=30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)


_chromium: _Chromium | None = None
_started = threading.Lock()


def _shared() -> _Chromium:
    """The process's browser, started on first use."""
    global _chromium
    with _started:
        if _chromium is None:
            chromium = _Chromium()
            asyncio.run_coroutine_threadsafe(chromium.start(), chromium.loop).result(timeout=120)
            _chromium = chromium
            atexit.register(chromium.close)
        return _chromium


class Pages:
    """A test's pages on the shared browser, each in a context of its own (no cookie or
    cache of another page), all closed when the test is done with the browser."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self._opened: list[Any] = []

    async def new_page(self, **options: Any) -> Any:
        """A new page (Playwright's Browser.new_page with the same options)."""
        page = await self._browser.new_page(**options)
        self._opened.append(page)
        return page

    async def close(self) -> None:
        """Close every page opened here (a closed one again is harmless)."""
        for page in self._opened:
            await page.close()


async def in_chromium(work: Callable[[Pages], Awaitable[T]]) -> T:
    """``work`` on pages of the process's Chromium, run in the browser's thread; the calling
    loop stays free meanwhile (to serve the pages)."""
    chromium = _shared()

    async def run() -> T:
        pages = Pages(chromium.browser)
        try:
            return await work(pages)
        finally:
            await pages.close()

    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(run(), chromium.loop))


async def on_phone(url: str, work: Callable[[Any], Awaitable[T]]) -> T:
    """``work`` on a page at 390 px by 844 opened at ``url`` (see in_chromium)."""

    async def opened(pages: Pages) -> T:
        page = await pages.new_page(viewport=PHONE)
        await page.goto(url)
        return await work(page)

    return await in_chromium(opened)


async def wait_picture(page: Any, step: int) -> None:
    """Wait until the board shows the picture of ``step``, loaded."""
    await page.wait_for_function(
        f"""() => {{ const img = document.getElementById("board");
            return img.getAttribute("src").endsWith("/v/{step}.png")
                && img.complete && img.naturalWidth > 0; }}""",
        timeout=20_000,
    )
