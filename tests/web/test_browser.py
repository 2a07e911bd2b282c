"""The game page in a real browser: Debian's headless Chromium driven by Playwright.

``./scripts/test`` installs the ``chromium`` package when it is missing (scripts/lib/
test-browser.sh); without it (and no root to install it) these tests are skipped. Screenshots
of both sizes are saved to /tmp/web-shots/ for a person to look at.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.service.tables import step_of
from bot.web import links
from bot.web.cards import card_name, card_texts
from bot.web.games import shown_score
from bot.web.seats import seat_rows
from bot.web.texts import web_catalog
from bot.web.work import spectator_step
from engine import games

from .browsing import CHROMIUM, Pages, in_chromium, wait_picture, web_server
from .support import SECRET, played_game, store_at

SHOTS = Path("/tmp/web-shots")
SIZES = ((390, 844), (1280, 800))

playwright = pytest.importorskip("playwright.async_api", reason="the playwright wheel")
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} (scripts/test installs it)"
)


async def _picture_loaded(page: Any) -> bool:
    loaded: bool = await page.eval_on_selector(
        "#board", "img => img.complete && img.naturalWidth > 0"
    )
    return loaded


async def _look(browser: Pages, url: str, width: int, height: int, last: int) -> list[str]:
    """Open the page at one size, check replay, keys and zoom; the console's errors."""
    page = await browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("requestfailed", lambda r: errors.append(f"failed: {r.url}"))
    answer = await page.goto(url)
    assert answer is not None and answer.status == 200
    await wait_picture(page, last)
    SHOTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"game-{width}x{height}.png"))
    assert await page.input_value("#slider") == str(last)
    now = await page.inner_text("#action")
    assert now.startswith(("Ann: ", "Bo: ", "Cy: "))
    # previous step: another picture and another action text
    await page.click("#prev")
    await wait_picture(page, last - 1)
    assert await page.inner_text("#action") != now or last < 2
    assert await page.inner_text("#step-label") != ""
    # arrow keys, from the page (not the slider)
    await page.click("h1")
    await page.keyboard.press("ArrowLeft")
    await wait_picture(page, last - 2)
    assert await page.input_value("#slider") == str(last - 2)
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    await wait_picture(page, last)
    assert await page.inner_text("#action") == now
    # the very first step: the game before any action
    await page.fill("#slider", "0")
    await wait_picture(page, 0)
    assert await page.inner_text("#action") == "Before the first action"
    assert await page.is_disabled("#prev")
    # zoom with the buttons (pinch goes through the same code: zoomAt)
    await page.click("#zoom-in")
    assert await page.get_attribute("#viewport", "data-scale") == "1.50"
    style = await page.get_attribute("#board", "style") or ""
    assert "scale(1.5)" in style
    box = await page.eval_on_selector("#board", "img => img.getBoundingClientRect().width")
    frame = await page.eval_on_selector("#viewport", "v => v.clientWidth")
    assert box > frame * 1.4  # the picture is larger than its frame: zoomed
    await page.screenshot(path=str(SHOTS / f"game-{width}x{height}-zoomed.png"))
    await page.click("#zoom-out")
    assert await page.get_attribute("#viewport", "data-scale") == "1.00"
    await page.close()
    return errors


def test_the_game_page_in_chromium(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo", "Cy"], turns=5)
            last = (await repo.load_game(game_id)).action_count
            async with web_server(repo) as server:  # the web's drawer: (view, events, language)
                url = server.game_url(game_id)

                async def look(browser: Pages) -> None:
                    for width, height in SIZES:
                        errors = await _look(browser, url, width, height, last)
                        assert errors == [], f"{width}x{height}: {errors}"
                    page = await browser.new_page()
                    wrong = url.rsplit("/", 1)[0] + "/" + links.token(SECRET, "game", 999)
                    answer = await page.goto(wrong)
                    assert answer is not None and answer.status == 404
                    assert (await page.inner_text("body")).strip() == "Not found"

                await in_chromium(look)

    asyncio.run(body())


async def _players_shown(page: Any) -> tuple[list[str], list[str], list[str]]:
    """The players' table as shown: scores, visible turn tags, each seat's state as text."""
    scores: list[str] = await page.eval_on_selector_all(
        "tr[data-seat] td.num", "cells => cells.map(c => c.textContent)"
    )
    turns: list[str] = await page.eval_on_selector_all(
        "tr[data-seat] .tag.turn",
        "tags => tags.filter(t => getComputedStyle(t).display !== 'none').map(t => t.textContent)",
    )
    states: list[str] = await page.eval_on_selector_all(
        "table.state[data-seat]",
        "tables => tables.map(t => Array.from(t.querySelectorAll('tr')).map("
        "r => r.children[0].textContent + '=' + r.children[1].textContent).join(';'))",
    )
    return scores, turns, states


def _expected(match: Any, language: str) -> tuple[list[str], list[str], list[str]]:
    """The players' table after the match's log, as the page should show it then (a card by
    its name)."""
    catalog, view = web_catalog(), match.view(None)
    scores = [shown_score(match.game_key, p, language)[0] for p in view["players"]]
    key = step_of(match)
    say = catalog.text
    cards = dict(card_texts(match.game_key, view, language))

    def t(text_key: str, **params: object) -> str:
        return say(text_key, language, **params)

    def shown(value: str) -> str:
        return card_name(match.game_key, value, t) if value in cards else value

    turns = (
        [say("web.to_play_step", language, step=say(spectator_step(key), language))] if key else []
    )
    states = [
        ";".join(
            f"{label}={', '.join(shown(v) for v in values)}"
            for label, values in seat_rows(match.game_key, view, seat, catalog, language)
        )
        for seat in range(len(view["players"]))
    ]
    return scores, turns, states


def test_the_replay_moves_the_players_with_the_board_in_chromium(tmp_path: Path) -> None:
    """QA (issue 38 item 8): at step 0 the players' scores and state showed the end of the
    game. At every step shown, the scores, the turn's tag and each player's state are that
    step's; French and Polish pages at 390 px are saved for a person to look at."""

    async def body() -> None:
        async with store_at(tmp_path) as repo:
            found = []
            for number, (key, language, turns) in enumerate(
                (
                    ("yamatai", "pl", 9),
                    ("namiji", "fr", 14),
                    ("namiji", "pl", None),
                    ("yamatai", "fr", None),
                )
            ):
                game_id = await played_game(
                    repo,
                    key,
                    ["Ann", "Bo", "Cy"],
                    turns=turns,
                    language=language,
                    thread_id=750 + number,
                )
                found.append((key, language, game_id, await repo.load_game(game_id)))
            async with web_server(repo) as server:  # the bot's: pictures in the page's language

                async def look(browser: Pages) -> None:
                    for key, language, game_id, game in found:
                        log = games.from_json(game.snapshot).log
                        page = await browser.new_page(viewport={"width": 390, "height": 844})
                        await page.goto(server.game_url(game_id))
                        last = len(log)
                        await wait_picture(page, last)
                        SHOTS.mkdir(exist_ok=True)
                        await page.screenshot(
                            path=str(SHOTS / f"{key}-{language}-390.png"), full_page=True
                        )
                        at_end = await _players_shown(page)
                        replayed = games.new(key, ["Ann", "Bo", "Cy"], game.seed)
                        shown = [0, 1, last // 2, last - 1]
                        for step in range(last + 1):
                            if step in shown:
                                await page.fill("#slider", str(step))
                                await wait_picture(page, step)
                                got = await _players_shown(page)
                                wanted = _expected(replayed, language)
                                if replayed.current_seat is None:
                                    wanted = (wanted[0], [], wanted[2])
                                assert got == wanted, (key, language, step)
                                # the cards on the table: shown when that step has any
                                cards = await page.evaluate(
                                    """() => {
                                    const on = e => getComputedStyle(e).display !== "none";
                                    const s = document.querySelector("section.cards");
                                    const li = [...document.querySelectorAll("li[data-card]")];
                                    return [s !== null && on(s), li.some(on)]; }"""
                                )
                                assert cards[0] == cards[1], (key, language, step)
                                # the history: the actions played up to the step shown
                                listed = await page.eval_on_selector_all(
                                    "section.log li",
                                    "l => l.filter(x => getComputedStyle(x).display"
                                    " !== 'none').length",
                                )
                                assert listed == step, (key, language, step, listed)
                                if step == 0:
                                    win = await page.eval_on_selector_all(
                                        ".tag.win",
                                        "t => t.filter(x => getComputedStyle(x).display"
                                        " !== 'none').length",
                                    )
                                    assert win == 0
                                    await page.screenshot(
                                        path=str(SHOTS / f"{key}-{language}-390-step0.png"),
                                        full_page=True,
                                    )
                            if step < last:
                                seat, text = log[step]
                                replayed.play(text, seat=seat)
                        await page.fill("#slider", str(last))
                        await wait_picture(page, last)
                        assert await _players_shown(page) == at_end  # as the server drew it
                        await page.close()

                await in_chromium(look)

    asyncio.run(body())


#: The cards of the players' state whose comma a narrow screen put on the next line.
COMMA_BELOW_ITS_CARD = """() => [...document.querySelectorAll("section.seats button.card")]
    .filter(b => {
        const after = b.nextSibling;
        if (!after || after.nodeType !== Node.TEXT_NODE || !after.textContent.startsWith(","))
            return false;
        const comma = document.createRange();
        comma.setStart(after, 0);
        comma.setEnd(after, 1);
        return comma.getBoundingClientRect().top >= b.getBoundingClientRect().bottom - 2;
    }).map(b => b.textContent)"""


def test_the_replay_names_the_cards_in_chromium(tmp_path: Path) -> None:
    """QA (issue 38 items 9, 10): a finished two-player Namiji page at 390 px, French and
    Polish, at the start, after the first action, half-way and at the end, shows every card of
    the players and of the table by its name (the replay rebuilds the players' rows: "M6, U2"
    before), each with its comma on its line (", makis" began a line), and a card's text on tap
    names it and speaks of its player."""
    from .test_card_names import CARD_CODE, SECOND_PERSON

    async def body() -> None:
        async with store_at(tmp_path) as repo:
            played = [
                (
                    language,
                    await played_game(
                        repo,
                        "namiji",
                        ["Ann", "Bo"],
                        turns=None,
                        language=language,
                        thread_id=770 + number,
                    ),
                )
                for number, language in enumerate(("fr", "pl"))
            ]
            found = [
                (language, game_id, (await repo.load_game(game_id)).action_count)
                for language, game_id in played
            ]
            async with web_server(repo) as server:

                async def look(browser: Pages) -> None:
                    for language, game_id, last in found:
                        page = await browser.new_page(viewport={"width": 390, "height": 844})
                        await page.goto(server.game_url(game_id))
                        await wait_picture(page, last)
                        labels = 0
                        for step in (0, 1, last // 2, last):
                            await page.fill("#slider", str(step))
                            await wait_picture(page, step)
                            shown = await page.evaluate(
                                """() => [...document.querySelectorAll(
                                "section.seats, section.cards")].map(s => s.innerText)
                                .join("\\n")"""
                            )
                            assert not CARD_CODE.findall(shown), (language, step, shown)
                            labels += await page.eval_on_selector_all(
                                "section.seats button.card", "b => b.length"
                            )
                            cut = await page.evaluate(COMMA_BELOW_ITS_CARD)
                            assert cut == [], (language, step, cut)
                        assert labels > 0, language  # the players held cards
                        button = page.locator("section.seats button.card").first
                        label = await button.inner_text()
                        await button.click()
                        said = await page.inner_text("#card-text")
                        assert label in said, (label, said)  # the text names its card
                        second = re.compile(SECOND_PERSON[language], re.IGNORECASE)
                        assert not second.search(said), said
                        await page.close()

                await in_chromium(look)

    asyncio.run(body())
