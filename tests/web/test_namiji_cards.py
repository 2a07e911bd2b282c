"""Namiji's web page shows the text of every card it names (issue 38 item 10): meals and sacred
rock cards as well as upgrades, each with its name and what it does, in the page's language, the
pictures' own words (an upgrade's in the third person: the web's own, D240)."""

from __future__ import annotations

import asyncio
import re
from html import unescape as html_unescape
from pathlib import Path

import pytest

from bot.games import presentation
from bot.web import links
from bot.web.cards import card_texts
from bot.web.texts import web_catalog
from engine.namiji.components import components
from render.namiji.cards import card_text
from render.words import say, speaking

from .support import SECRET, played_game, serving, store_at

VIEW = {
    "players": [
        {"name": "Ann", "pontoon": ["M6", "U1"], "rocks": ["R09"], "crate": ["bt", "", ""]},
        {"name": "Bo", "pontoon": ["M2"], "rocks": [], "bonuses": ["BD"]},
    ],
    "hand": ["U12", "M8"],
}


def what_it_does(code: str, language: str) -> str | None:
    """A card's text as the page should say it: the web's own (third person) when it has one,
    else the picture's."""
    own = f"web.card.{code}"
    if web_catalog().has(own):
        return web_catalog().text(own, language)
    with speaking(language):
        if code in components().meals:  # its dish in the language's words (namiji.meal.*)
            dish = web_catalog().text(f"namiji.meal.{code}", language)
            points = say("n.board.points", count=components().meals[code])
            return say("n.cards.meal", name=dish, points=points)
        return card_text(code)


@pytest.mark.parametrize("language", ["en", "fr", "it", "pl"])
def test_every_card_the_page_names_has_its_text(language: str) -> None:
    texts = dict(card_texts("namiji", VIEW, language))
    assert set(texts) == {"M6", "U1", "R09", "M2", "U12", "M8"}  # not a fish, a name, a bonus
    for code, text in texts.items():
        does = what_it_does(code, language)
        assert does is not None and does in text, (code, text)


def test_a_card_is_named_as_the_bot_names_it() -> None:
    """An upgrade's or a rock card's name ("Crab catcher"), a meal's dish and points."""
    texts = dict(card_texts("namiji", VIEW, "en"))
    assert texts["R09"].startswith("Crab catcher") and "crabs: at least 3" in texts["R09"]
    assert texts["U1"].startswith("Double catch") and "twice" in texts["U1"]
    meal = web_catalog().text("namiji.meal.M6", "en")
    assert meal in texts["M6"] and "5 pts" in texts["M6"]
    polish = dict(card_texts("namiji", VIEW, "pl"))
    assert "kraby: co najmniej 3" in polish["R09"], polish["R09"]  # words (54968ce)


def test_the_presentation_declares_its_card_words() -> None:
    web = presentation("namiji").web
    assert web.card_words is not None and web.card_texts is None


CARD_BUTTON = re.compile(r'<button type="button" class="card" data-card="([^"]*)" title="([^"]*)"')


@pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL
def test_a_finished_games_page_shows_every_cards_text(tmp_path: Path) -> None:
    """At the end every pontoon and sacred rock card is face up on the Polish page: each one a
    button with its text (they had none but the upgrades)."""

    async def body() -> str:
        async with store_at(tmp_path) as repo, serving(repo) as (_, client):
            players = ["Ann", "Bo", "Cy"]
            game_id = await played_game(repo, "namiji", players, turns=None, language="pl")
            answer = await client.get(links.game_path(SECRET, game_id))
            assert answer.status == 200
            return await answer.text()

    html = asyncio.run(body())
    buttons = dict(CARD_BUTTON.findall(html))
    kinds = {name[0] for name in buttons}
    assert {"M", "U", "R"} <= kinds, sorted(buttons)
    comp = components()
    for name, text in buttons.items():
        assert name in comp.meals or name in comp.upgrades or name in comp.rocks, name
        does = what_it_does(name, "pl")
        assert does is not None and html_unescape(does) in html_unescape(text), (name, text)
