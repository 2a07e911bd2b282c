"""A resigned seat the computer finished with the top score is not named the winner anywhere
(verification 47 finding O1, D286): the final message and the stored result ranked it last,
but the final board read "Kenji wins with 29 PP" and "1. Kenji ★ winner", and the web page
"Finished: won by Kenji" with a "winner" tag on his row.

Three humans play Yamatai on a seed where the seat that resigns at once would win by the
rules; the two others go on vacation, so the computer plays every seat to the end.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin

import aiohttp
import pytest

from bot.service import records
from bot.store import GameStatus
from bot.web.texts import web_catalog
from render.text import recording
from tests.e2e.harness import GUEST, HOST, TIMEOUT, WATCHER, Env, custom_id, himiko_env, run
from tests.e2e.test_user_settings import say
from tests.e2e.test_web_export import _with_web

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: A seed on which the computer, playing all three seats, makes seat ``TOP`` the rules' winner.
SEED = int(os.environ.get("HIMIKO_TEST_TOP_SEED", "11"))
TOP = int(os.environ.get("HIMIKO_TEST_TOP_SEAT", "2"))
MAX_ROUNDS_OF_WAITING = 200
RANK = re.compile(r"^\d\.$")


def recorded_recaps(recaps: dict[bytes, list[str]]) -> None:
    """The recaps drawn from now on leave the texts they drew in ``recaps``, by GIF bytes."""
    draw = records.draw_recap

    def drawing(*args: object) -> bytes:
        with recording() as drawn:
            gif = draw(*args)  # type: ignore[arg-type]
        recaps[gif] = [text for text, _ in drawn]
        return gif

    records.draw_recap = drawing  # type: ignore[assignment]


class Recorder:
    """Wraps a render pool's drawer: the texts each picture drew, by its PNG bytes."""

    def __init__(self, drawer: Callable[..., bytes]) -> None:
        self.drawer = drawer
        self.texts: dict[bytes, list[str]] = {}

    def __call__(self, *args: object) -> bytes:
        with recording() as drawn:
            png = self.drawer(*args)
        self.texts[png] = [text for text, _ in drawn]
        return png


def ranked(texts: list[str]) -> dict[str, str]:
    """The final scores table's rows as drawn: name -> its rank ("1."), with "★" when it is
    marked the winner (a row draws its rank, the seat's mark, the winner's star, the name)."""
    rows: dict[str, str] = {}
    for i, text in enumerate(texts[:-3]):
        if RANK.match(text):
            star = texts[i + 2].startswith("★")
            rows[texts[i + 3] if star else texts[i + 2]] = text + (" ★" if star else "")
    return rows


async def finished_by_the_computer(env: Env) -> tuple[int, str, str]:
    """The game played to its end: (thread, the resigned player's name, the winner's name)."""
    env.bot.rooms.playing._seed_source = lambda: SEED
    table = await env.start_game(HOST, [GUEST, WATCHER])
    game = await env.game(table.id)
    users = {u.id: u for u in (HOST, GUEST, WATCHER)}
    quitter = users[next(s.user_id for s in game.seats if s.seat == TOP)]
    ask = await (await env.double.slash(quitter, table.id, "resign")).reply(TIMEOUT)
    ok = custom_id(ask, "himiko:resign:ok:")
    await (await env.double.click(quitter, table.id, ask.id, ok)).reply(TIMEOUT)
    for other in users.values():
        if other is not quitter:
            await say(env, other, "settings vacation", until="2027-01-20")
    for _ in range(MAX_ROUNDS_OF_WAITING):
        await env.bot.runner.idle()
        game = await env.game(table.id)
        if game.status != GameStatus.ACTIVE:
            break
    assert game.status == GameStatus.FINISHED
    match = await env.match(table.id)
    assert match.outcome is not None
    # the premise: by the rules the resigned seat finished first
    assert list(match.outcome.winners) == [TOP], (SEED, match.outcome.winners)
    [winner] = [s for s in game.seats if s.winner]
    assert winner.seat != TOP and game.seats[TOP].final_rank == 3
    await env.settled()  # the last turn's card brings its pictures (D200)
    return table.id, quitter.global_name or "", winner.player


def test_a_resigned_seat_with_the_top_score_is_not_named_the_winner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            _with_web(env)
            bot = await env.restart()
            assert bot.web is not None
            pictures = env.bot.rooms.pictures
            pictures.pool.drawer = board = Recorder(pictures.pool.drawer)
            bot.web.pool.drawer = page_board = Recorder(bot.web.pool.drawer)
            recaps: dict[bytes, list[str]] = {}
            monkeypatch.setattr(records, "draw_recap", records.draw_recap)  # put back after
            recorded_recaps(recaps)
            thread, quitter, winner = await finished_by_the_computer(env)
            # the final message as stored: the computer's seat won, the resigner last
            final = env.turn_messages(thread)[-1]
            assert f"3. **{quitter}** (resigned)" in final.text()
            # the final board, drawn with the stored ranking
            png = final.attachment("board.png")
            assert png is not None and png.data in board.texts
            texts = board.texts[png.data]
            title = next(t for t in texts if t.startswith("Game over after round"))
            assert f" {winner} wins with" in title and quitter not in title, title
            rows = ranked(texts)
            assert rows[winner] == "1. ★" and rows[quitter] == "3.", rows
            # the recap's last picture
            gif = final.attachment("recap.gif")
            assert gif is not None and gif.data in recaps
            title = [t for t in recaps[gif.data] if t.startswith("Game over after round")][-1]
            assert f" {winner} wins with" in title, title
            # /board after the end
            asked = await env.double.slash(WATCHER, thread, "board")
            shown_board = (await asked.reply(TIMEOUT)).attachment("board.png")
            assert shown_board is not None and shown_board.data in board.texts
            title = next(
                t for t in board.texts[shown_board.data] if t.startswith("Game over after round")
            )
            assert f" {winner} wins with" in title, title
            # the web page: status, the winner's tag, the last step's picture
            game = await env.game(thread)
            url = bot.web.game_url(game.id)
            async with aiohttp.ClientSession() as client:
                async with client.get(url) as page:
                    html = await page.text()
                src = re.search(r'<img id="board" src="([^"]+)"', html)
                assert src is not None
                async with client.get(urljoin(url, src.group(1).replace("&amp;", "&"))) as pic:
                    drawn = await pic.read()
            status = web_catalog().text("web.status.won", "en", winners=winner)
            assert status in html and status.replace(winner, quitter) not in html
            rows_html = re.findall(r'<tr data-seat="\d+".*?</tr>', html)
            [won] = [row for row in rows_html if 'class="tag win"' in row]
            assert winner in won and quitter not in won
            shown = page_board.texts[drawn]
            title = next(t for t in shown if t.startswith("Game over after round"))
            assert f" {winner} wins with" in title, title
            assert ranked(shown)[quitter] == "3."

    run(body, timeout=240)
