"""The replay at its first step says that nothing was played yet under the history's heading
(play-through 47 finding 14: "Historique" / "Dziennik" stood over nothing at step 0), in
headless Chromium at 390 px; from step 1 on the history lists the actions instead."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.web.config import WebConfig
from bot.web.limits import RateLimit
from bot.web.pictures import web_picture
from bot.web.server import WebServer
from bot.web.texts import web_catalog
from bot.workers.render_pool import RenderPool

from .support import SECRET, played_game, store_at
from .test_browser import ARGS, CHROMIUM, _wait_picture

playwright = pytest.importorskip("playwright.async_api", reason="the playwright wheel")
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}"),
    pytest.mark.usefixtures("backend"),  # runs on SQLite and on PostgreSQL
]

#: The history's visible text (its heading, its lines) as a reader sees it.
SHOWN_LOG = """() => {
    const s = document.querySelector("section.log");
    return [...s.querySelectorAll("h2, p, li")]
        .filter(x => getComputedStyle(x).display !== "none")
        .map(x => x.textContent.trim()); }"""


async def _log_at(page: Any, step: int) -> list[str]:
    await page.fill("#slider", str(step))
    await _wait_picture(page, step)
    shown: list[str] = await page.evaluate(SHOWN_LOG)
    return shown


@pytest.mark.parametrize(("key", "language"), [("namiji", "fr"), ("yamatai", "pl")])
def test_the_replay_says_nothing_was_played_yet_at_its_first_step(
    tmp_path: Path, key: str, language: str
) -> None:
    async def body() -> tuple[list[str], list[str], list[str]]:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, key, ["Ann", "Bo"], turns=2, language=language)
            last = (await repo.load_game(game_id)).action_count
            server = WebServer(
                WebConfig(port=0, secret=SECRET),
                repo,
                RenderPool(0, web_picture),
                limit=RateLimit(burst=10_000),
            )
            await server.start()
            try:
                async with playwright.async_playwright() as driver:
                    browser = await driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                    try:
                        page = await browser.new_page(viewport={"width": 390, "height": 844})
                        await page.goto(server.game_url(game_id))
                        await _wait_picture(page, last)
                        at_end = await page.evaluate(SHOWN_LOG)
                        return await _log_at(page, 0), await _log_at(page, 1), at_end
                    finally:
                        await browser.close()
            finally:
                await server.stop()

    start, first, end = asyncio.run(body())
    catalog = web_catalog()
    heading, none = catalog.text("web.log", language), catalog.text("web.log_empty", language)
    assert start == [heading, none], start
    assert first[0] == heading and none not in first and len(first) == 2, first
    assert none not in end and len(end) > 2, end
