"""A league's page: standings (table and picture), rounds linking to their games, ratings."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.service import build_rooms
from bot.store import NewLeague
from bot.web import links

from .support import SECRET, Drawer, played_game, serving, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

USERS = {11: "Ann", 12: "<b>Bo</b>", 13: "Cy", 14: "Di"}


def test_league_page_standings_rounds_and_ratings(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            league = await repo.create_league(
                NewLeague(9, 10, "Spring <cup>", "yamatai", 2, 2, "swiss", None, "3,1", None, 11),
                now=1_000,
            )
            for user, name in USERS.items():
                assert await repo.join_league(league.id, user, name, now=1_000)
            assert await repo.seat_league_round(league.id, 1, [[11, 12], [13, 14]])
            first, _ = await repo.league_tables(league.id)
            game_id = await played_game(
                repo, "yamatai", ["Ann", "<b>Bo</b>"], turns=None, users=[11, 12], thread_id=801
            )
            assert await repo.set_table_game(league.id, 1, first.table_no, 801, game_id)
            leagues = build_rooms(repo, renderer=Drawer()).leagues
            drawer = Drawer()
            async with serving(repo, drawer, leagues=leagues) as (_, client):
                path = links.league_path(SECRET, league.id)
                answer = await client.get(path)
                assert answer.status == 200
                html = await answer.text()
                picture = await client.get(path + "/standings.png")
                assert picture.status == 200 and picture.content_type == "image/png"
                wrong = await client.get(f"/l/{league.id}/{links.token(SECRET, 'game', league.id)}")
                assert wrong.status == 404
        assert "Spring &lt;cup&gt; — league of Yamatai" in html
        assert "&lt;b&gt;Bo&lt;/b&gt;" in html and "<b>Bo" not in html
        rows = re.findall(r"<tbody>(.*?)</tbody>", html)[0]
        assert rows.count("<tr") == 4  # every player, ranked
        game_link = "../.." + links.game_path(SECRET, game_id)
        assert f'href="{game_link}"' in html  # round 1, table 1
        assert html.count("not opened yet") == 1  # round 1, table 2
        assert html.count("<svg") == 2  # Ann's and Bo's rating after their game
        assert html.count("no rated game yet") == 2  # Cy and Di

    asyncio.run(body())


def test_the_standings_table_marks_who_resigned_as_the_picture_does(tmp_path: Path) -> None:
    """A player who resigned a league game is marked in the page's table ("(resigned: 1)"), not
    only in the standings picture."""
    html = asyncio.run(_league_page_after_a_resignation(tmp_path))
    rows = re.findall(r"<tr.*?</tr>", re.findall(r"<tbody>(.*?)</tbody>", html)[0])
    marked = [row for row in rows if "(resigned: 1)" in row]
    assert len(marked) == 1 and "Ann" in marked[0]


async def _league_page_after_a_resignation(tmp_path: Path, language: str = "en") -> str:
    """The page of a two-player league whose one game Ann resigned (rated), in ``language``."""
    async with store_at(tmp_path) as repo:
        await repo.set_guild_language(9, language, by=11, now=1_000)
        league = await repo.create_league(
            NewLeague(9, 10, "Cup", "yamatai", 2, 1, "swiss", None, "3,1", None, 11),
            now=1_000,
        )
        for user in (11, 12):
            assert await repo.join_league(league.id, user, USERS[user], now=1_000)
        assert await repo.seat_league_round(league.id, 1, [[11, 12]])
        (first,) = await repo.league_tables(league.id)
        game_id = await played_game(
            repo, "yamatai", ["Ann", "<b>Bo</b>"], turns=2, users=[11, 12], thread_id=801
        )
        assert await repo.set_table_game(league.id, 1, first.table_no, 801, game_id)
        rooms = build_rooms(repo, renderer=Drawer())
        await rooms.endings.resign(11, game_id=game_id)  # Bo wins at once
        leagues = rooms.leagues
        async with serving(repo, Drawer(), leagues=leagues) as (_, client):
            answer = await client.get(links.league_path(SECRET, league.id))
            assert answer.status == 200
            return await answer.text()


def test_a_rating_chart_says_the_rating_as_the_table_does(tmp_path: Path) -> None:
    """QA: the chart's caption wrote "1532.0" where the table wrote "1 532,0" (French)."""
    html = asyncio.run(_league_page_after_a_resignation(tmp_path, "fr"))
    rows = re.findall(r"<tr.*?</tr>", re.findall(r"<tbody>(.*?)</tbody>", html)[0])
    for name in ("Ann", "&lt;b&gt;Bo&lt;/b&gt;"):
        (caption,) = re.findall(rf"<figcaption>{name} — cote ([^<]+)</figcaption>", html)
        assert "," in caption and "." not in caption
        assert any(name in row and f">{caption}<" in row for row in rows)


def test_a_french_league_page_writes_its_tables_the_french_way(tmp_path: Path) -> None:
    """QA: "Table 1: Ann, Bo" had no space before its colon in French (a no-break one)."""
    html = asyncio.run(_league_page_after_a_resignation(tmp_path, "fr"))
    assert "Table 1\N{NO-BREAK SPACE}: Ann, &lt;b&gt;Bo&lt;/b&gt;" in html
    assert "Table 1:" not in html
