"""The replay at its first step says that nothing was played yet under the history's heading
(play-through 47 finding 14: "Historique" / "Dziennik" stood over nothing at step 0), in
headless Chromium at 390 px; from step 1 on the history lists the actions instead."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.web.texts import web_catalog

from .browsing import CHROMIUM, on_phone, wait_picture, web_server
from .support import played_game, store_at

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
    await wait_picture(page, step)
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
            async with web_server(repo) as server:

                async def read(page: Any) -> tuple[list[str], list[str], list[str]]:
                    await wait_picture(page, last)
                    at_end = await page.evaluate(SHOWN_LOG)
                    return await _log_at(page, 0), await _log_at(page, 1), at_end

                return await on_phone(server.game_url(game_id), read)

    start, first, end = asyncio.run(body())
    catalog = web_catalog()
    heading, none = catalog.text("web.log", language), catalog.text("web.log_empty", language)
    assert start == [heading, none], start
    assert first[0] == heading and none not in first and len(first) == 2, first
    assert none not in end and len(end) > 2, end
