"""A league's page tells its rounds (play-through 46, Yamatai findings 19 and 32): a table's
result once its game ended, a line for no round yet, no always-empty rating change column,
and no standings picture shrunk past reading on a phone."""

from __future__ import annotations

import asyncio
import re
from html import unescape
from pathlib import Path

import pytest

from bot.service import build_rooms
from bot.store import GameRepository, NewLeague
from bot.web import links

from .browsing import CHROMIUM, Pages, in_chromium, web_server
from .support import SECRET, Drawer, played_game, serving, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

NB = "\N{NO-BREAK SPACE}"
DASH = "\N{EN DASH}"
USERS = {11: "Ann", 12: "Bo", 13: "Cy", 14: "Di"}
ROUNDS = re.compile(r'<section class="rounds">(.*?)</section>', re.S)
HEAD = re.compile(r'<table class="standings"><thead><tr>(.*?)</tr>', re.S)


async def _league(repo: GameRepository, language: str, players: int, rounds: int) -> int:
    await repo.set_guild_language(9, language, by=11, now=1_000)
    league = await repo.create_league(
        NewLeague(9, 10, "Cup", "yamatai", players, rounds, "swiss", None, "3,1", None, 11),
        now=1_000,
    )
    for user in list(USERS)[:players]:
        assert await repo.join_league(league.id, user, USERS[user], now=1_000)
    return league.id


async def _page(repo: GameRepository, league_id: int) -> str:
    leagues = build_rooms(repo, renderer=Drawer()).leagues
    async with serving(repo, Drawer(), leagues=leagues) as (_, client):
        answer = await client.get(links.league_path(SECRET, league_id))
        assert answer.status == 200
        return await answer.text()


def test_a_league_before_its_first_round_says_no_round_was_played(tmp_path: Path) -> None:
    """QA (fr): the heading "Rondes" stood alone with nothing under it; the "Évol." column was
    empty for every player."""

    async def body() -> str:
        async with store_at(tmp_path) as repo:
            return await _page(repo, await _league(repo, "fr", 2, 1))

    html = asyncio.run(body())
    (rounds,) = ROUNDS.findall(html)
    assert unescape(rounds) == "<h2>Rondes</h2><p>Aucune ronde jouée pour l'instant.</p>"
    head = unescape(HEAD.findall(html)[0])
    assert "Cote" in head and "Évol." not in head
    rows = re.findall(r"<tr.*?</tr>", re.findall(r"<tbody>(.*?)</tbody>", html, re.S)[0])
    assert len(rows) == 2 and all(row.count("<td") == 5 for row in rows)


def test_a_finished_table_says_who_won_and_the_scores(tmp_path: Path) -> None:
    """QA (fr): "Table 1 : Hana, Kenji — page de la partie" after Kenji won 43-24: no result.
    A finished table says its winner and the scores (best first); one not opened says so."""

    async def body() -> tuple[str, list[tuple[str, int]]]:
        async with store_at(tmp_path) as repo:
            league_id = await _league(repo, "fr", 4, 2)
            assert await repo.seat_league_round(league_id, 1, [[11, 12], [13, 14]])
            first, _ = await repo.league_tables(league_id)
            game_id = await played_game(
                repo, "yamatai", ["Ann", "Bo"], turns=None, users=[11, 12], thread_id=801
            )
            assert await repo.set_table_game(league_id, 1, first.table_no, 801, game_id)
            game = await repo.load_game(game_id)
            scores = [(s.player, s.final_score or 0) for s in game.seats if s.winner]
            scores += [(s.player, s.final_score or 0) for s in game.seats if not s.winner]
            return await _page(repo, league_id), scores

    html, scores = asyncio.run(body())
    (rounds,) = ROUNDS.findall(html)
    items = [unescape(re.sub(r"<[^>]+>", "", i)) for i in re.findall(r"<li>(.*?)</li>", rounds)]
    (winner, best), (_, other) = scores
    assert items == [
        f"Table 1{NB}: Ann, Bo — gagnée par {winner} ({best}{DASH}{other}) — page de la partie",
        f"Table 2{NB}: Cy, Di — pas encore ouverte",
    ]
    assert "Évol." not in unescape(HEAD.findall(html)[0])  # the round is not over: no change


def test_a_table_ended_by_a_resignation_says_so(tmp_path: Path) -> None:
    """A table whose game a player resigned says who resigned and who won (pl)."""

    async def body() -> str:
        async with store_at(tmp_path) as repo:
            league_id = await _league(repo, "pl", 2, 1)
            assert await repo.seat_league_round(league_id, 1, [[11, 12]])
            (first,) = await repo.league_tables(league_id)
            game_id = await played_game(
                repo, "yamatai", ["Ann", "Bo"], turns=2, users=[11, 12], thread_id=801
            )
            assert await repo.set_table_game(league_id, 1, first.table_no, 801, game_id)
            await build_rooms(repo, renderer=Drawer()).endings.resign(11, game_id=game_id)
            return await _page(repo, league_id)

    html = asyncio.run(body())
    (rounds,) = ROUNDS.findall(html)
    assert "Stół 1: Ann, Bo — Ann poddaje grę, zwycięstwo: Bo — " in unescape(rounds)


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}")
def test_the_standings_picture_is_left_out_on_a_phone_in_chromium(tmp_path: Path) -> None:
    """QA (fr, 390 px): the standings picture under the table was shrunk to text about 6 px
    high. On a phone the page shows the table alone; on a wide screen the picture too."""
    pytest.importorskip("playwright.async_api", reason="the playwright wheel")

    async def body() -> dict[int, tuple[bool, str]]:
        seen = {}
        async with store_at(tmp_path) as repo:
            league_id = await _league(repo, "fr", 2, 1)
            leagues = build_rooms(repo, renderer=Drawer()).leagues
            async with web_server(repo, leagues) as server:
                url = server.league_url(league_id)

                async def look(pages: Pages) -> None:
                    for width in (390, 1280):
                        page = await pages.new_page(viewport={"width": width, "height": 844})
                        answer = await page.goto(url)
                        assert answer is not None and answer.status == 200
                        shown = await page.is_visible("img.standings-picture")
                        seen[width] = (shown, await page.inner_text("body"))
                        await page.close()

                await in_chromium(look)
        return seen

    seen = asyncio.run(body())
    assert seen[390][0] is False and seen[1280][0] is True
    assert "Aucune ronde jouée pour l'instant." in seen[390][1]
