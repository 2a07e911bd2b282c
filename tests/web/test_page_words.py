"""A game's page speaks its game's language in the players' rows (issue 21's words on the web):
no English field name and no raw code (fish ``bf``, nets ``r1c1``, crustaceans ``CB``, bonuses
``BO``, crate lines ``c2``, boat and culture words) on a French, Italian or Polish page."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.web import links
from bot.web.seats import seat_rows
from engine import games

from .support import SECRET, played_game, serving, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

ENGLISH = (
    "boats",
    "pp tok",
    "tokens",
    "nets",
    "rocks",
    "hidden tiles",
    "set aside",
    "aside",
    "buildings left",
    "harbor",
    "crate",
    "trap",
    "offerings",
    "pontoon",
    "rock count",
    "lines",
    "fleets",
    "wood",
    "bamboo",
    "stone",
    "clay",
    "gold",
    "silk",
    "pottery",
    "pearl",
    "rice",
    "tea",
)
CODES = re.compile(r"\b(?:[bgo][fst]|r\d+c\d+|[rc]\d|CB|SH|B[DOW]|[DOW])\b")
SECTION = re.compile(r'<section class="seats">(.*?)</section>', re.S)
ROW = re.compile(r"<tr><th>(.*?)</th><td>(.*?)</td></tr>", re.S)
TURNS = {"yamatai": 9, "namiji": 15}


def _rows(html: str) -> list[tuple[str, str]]:
    """The players' rows of a page: (field name, values), tags left out."""
    section = SECTION.findall(html)[0]
    return [
        (re.sub(r"<[^>]+>", "", name), re.sub(r"<[^>]+>", "", values))
        for name, values in ROW.findall(section)
    ]


@pytest.mark.parametrize("game_key", ["yamatai", "namiji"])
def test_the_players_rows_are_in_the_games_language(tmp_path: Path, game_key: str) -> None:
    async def body() -> dict[str, list[tuple[str, str]]]:
        rows = {}
        async with store_at(tmp_path) as repo, serving(repo) as (_, client):
            for number, language in enumerate(("en", "fr", "it", "pl")):
                game_id = await played_game(
                    repo,
                    game_key,
                    ["Ann", "Bo", "Cy"],
                    turns=TURNS[game_key],
                    thread_id=800 + number,
                    language=language,
                )
                answer = await client.get(links.game_path(SECRET, game_id))
                assert answer.status == 200
                rows[language] = _rows(await answer.text())
                view = games.from_json((await repo.load_game(game_id)).snapshot).view(None)
                assert any(p.get("boats") or p.get("crate") for p in view["players"])
        return rows

    rows = asyncio.run(body())
    english = " ".join(f"{name} {values}" for name, values in rows["en"]).lower()
    assert sum(word in english for word in ENGLISH) >= 3  # the words looked for are there
    for language in ("fr", "it", "pl"):
        assert len(rows[language]) == len(rows["en"]) >= 6
        for name, values in rows[language]:
            text = f"{name} {values}"
            found = [word for word in ENGLISH if re.search(rf"\b{word}\b", text, re.I)]
            assert not found, (language, name, values, found)
            assert not CODES.search(text), (language, name, values)


@pytest.mark.parametrize("language", ["fr", "it", "pl"])
def test_a_reserved_tile_is_in_words(language: str) -> None:
    """QA: "Tuiles réservées: id B12, boats bamboo wood clay, pp 3, kind standard" on a French
    page; a reserved tile is its name, its prestige points and the boats it takes, in words."""
    from bot.games.yamatai import tile_name

    view = {
        "players": [
            {
                "name": "Ann",
                "reserved": [
                    {"id": "B12", "boats": ["bamboo", "wood", "clay"], "pp": 3, "kind": "standard"}
                ],
            }
        ]
    }
    rows = dict(seat_rows("yamatai", view, 0, default_catalog(), language))
    [values] = [v for v in rows.values() if any("PP" in x for x in v)]
    text = " ".join(values)
    colon = "\u00a0: " if language == "fr" else ": "  # French typography
    name = tile_name(lambda k, **p: default_catalog().text(k, language, **p), "B12")
    assert text.startswith(f"{name}{colon}3 PP"), text
    found = [word for word in ENGLISH if re.search(rf"\b{word}\b", text, re.I)]
    assert not found and "standard" not in text and "id" not in text.split(), (text, found)
