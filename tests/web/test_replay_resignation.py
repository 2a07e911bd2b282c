"""The replay shows a resignation only from when it happened (verification 47 finding O2): the
page tagged the resigned player "a abandonné" at step 0, and a resigned Yamatai game's "+?"
note said the face-down tiles were never counted "because the game stopped before its end"
at every step. In headless Chromium at 390 px: before the resignation, the player's row has
no tag and the note is the game's own; from it (and at the last step), they say so."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.service import build_rooms
from bot.web.texts import web_catalog

from .browsing import CHROMIUM, on_phone, wait_picture, web_server
from .support import Drawer, played_game, store_at

playwright = pytest.importorskip("playwright.async_api", reason="the playwright wheel")
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}"),
    pytest.mark.usefixtures("backend"),  # runs on SQLite and on PostgreSQL
]

ANN = 11
#: The players' section as a reader sees it: each row's visible text, then the visible notes.
SHOWN = """() => {
    const s = document.querySelector("section.players");
    const seen = x => getComputedStyle(x).display !== "none";
    const rows = [...s.querySelectorAll("tr[data-seat]")].map(r =>
        [r.querySelector(".name").textContent,
         ...[...r.querySelectorAll(".tag")].filter(seen).map(t => t.textContent)].join(" | "));
    return [rows, [...s.querySelectorAll("p.note")].filter(seen).map(p => p.textContent)]; }"""


async def _at(page: Any, step: int) -> tuple[list[str], list[str]]:
    await page.fill("#slider", str(step))
    await wait_picture(page, step)
    rows, notes = await page.evaluate(SHOWN)
    return rows, notes


async def _replayed(
    tmp_path: Path, names: list[str], turns: int, steps: list[int | None]
) -> tuple[int, list[tuple[list[str], list[str]]]]:
    """Ann (a human, French) resigns after ``turns`` turns of a Yamatai game of computers,
    which then play on to the end; the page at ``steps`` (None: the resignation's step)."""
    async with store_at(tmp_path) as repo:
        users = [ANN, *[None] * (len(names) - 1)]
        game_id = await played_game(repo, "yamatai", names, turns=turns, users=users, language="fr")
        resigned_at = (await repo.load_game(game_id)).action_count
        rooms = build_rooms(repo, renderer=Drawer(), seed_source=lambda: 3)
        await rooms.endings.resign(ANN, game_id=game_id)
        async for _ in rooms.computers.computer_turns(game_id):
            pass
        last = (await repo.load_game(game_id)).action_count
        async with web_server(repo) as server:

            async def read(page: Any) -> list[tuple[list[str], list[str]]]:
                await wait_picture(page, last)
                return [
                    await _at(page, resigned_at if s is None else s if s >= 0 else last + 1 + s)
                    for s in steps
                ]

            seen = await on_phone(server.game_url(game_id), read)
    return resigned_at, seen


def _said(key: str) -> str:
    return web_catalog().text(key, "fr")


def test_a_resignation_that_ended_the_game_shows_only_at_its_end(tmp_path: Path) -> None:
    """Two players: Ann's resignation ends the game (the computer wins at once)."""
    _, [(start, start_notes), (end, end_notes)] = asyncio.run(
        _replayed(tmp_path, ["Ann", "Bo"], 14, [0, -1])
    )
    tag, stopped = _said("web.resigned"), "jamais comptés"
    assert all(tag not in row for row in start), start
    assert not any(stopped in note for note in start_notes), start_notes
    assert end[0] == f"Ann | {tag}", end
    assert len(end_notes) == 1 and stopped in end_notes[0], end_notes


def test_a_resigned_seat_the_computer_played_on_shows_from_its_resignation(
    tmp_path: Path,
) -> None:
    """Three players: the computer plays Ann's seat to the end after she resigned."""
    resigned_at, [(start, _), (before, _), (end, _)] = asyncio.run(
        _replayed(tmp_path, ["Ann", "Bo", "Cy"], 6, [0, 5, -1])
    )
    assert resigned_at > 5
    tag = _said("web.resigned")
    assert tag not in start[0] and tag not in before[0], (start, before)
    assert end[0].startswith("Ann") and tag in end[0], end
