"""A game page names its cards and speaks of their players (issue 38 items 9 and 10).

A Namiji page listed the players' cards by code ("Cartes Ponton M6, U2, U5", "Rochers sacrés
R02"): each card is now a button labelled with its name in the page's language, its text on tap,
the code only in ``data-card``. The card texts are the pictures', which speak to the player
("Ton port garde…", "résous deux fois…"); a page is read by spectators, so every card text on it
speaks of the card's player in the third person (the web's own texts, D240).
"""

from __future__ import annotations

import asyncio
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bot.web import links
from bot.web.cards import card_name, card_texts
from bot.web.texts import web_catalog
from engine.namiji.components import components

from .support import SECRET, played_game, serving, store_at

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "fr", "it", "pl")
#: A Namiji card's code as the engine writes it: a meal, an upgrade, a sacred rock card.
CARD_CODE = re.compile(r"\b[MUR]\d{1,2}\b")

#: Words that speak to the reader as the player: pronouns and the imperatives the pictures use.
SECOND_PERSON = {
    "en": r"\b(you|your|yours)\b|(^|: )(resolve|reveal|draw|give|take|sell|buy|pay|first turn)\b",
    "fr": r"\b(tu|te|toi|ton|ta|tes|résous|prends|vends|utilises|gardes)\b|\bt'|garde-le",
    "it": (
        r"\b(tu|ti|tuo|tuoi|tua|tue|risolvi|usane|peschi|prendi|vendi|dai|scopri|tienilo"
        r"|tienine)\b"
    ),
    "pl": (
        r"\b(twój|twoja|twoje|twoich|twoim|ci|ciebie|tobie|rozpatrz|odkryj|użyj|wykonaj|dobierz"
        r"|oddaj|zatrzymaj|weź|sprzedajesz|kupujesz)\b"
    ),
}


def _every_card() -> dict[str, list[str]]:
    """Every card of the shipped games, by game: Namiji's meals, upgrades and sacred rock
    cards; Yamatai's specialists (the pictures' texts name them)."""
    comp = components()
    texts = json.loads((ROOT / "render/yamatai/locale/en.json").read_text("utf-8"))
    specialists = [key.rpartition(".")[2] for key in texts if key.startswith("y.specialist.")]
    return {"namiji": [*comp.meals, *comp.upgrades, *comp.rocks], "yamatai": specialists}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_text_on_the_web_speaks_of_the_player(language: str) -> None:
    """No card text on a page says "you", "your" or an order to the reader, in any language:
    "Riu: Their harbor keeps two more boats", not "Your harbor…"."""
    pattern = re.compile(SECOND_PERSON[language], re.IGNORECASE)
    for game, cards in _every_card().items():
        texts = dict(card_texts(game, {"cards": cards}, language))
        assert set(texts) == set(cards), game
        for card, text in texts.items():
            assert not pattern.search(text), (game, card, text)


def test_a_card_text_names_its_card_and_says_what_it_does() -> None:
    texts = dict(card_texts("yamatai", {"cards": ["Riu", "Raijin"]}, "fr"))
    assert texts["Riu"] == "Riu\u00a0: Son port garde deux bateaux de plus."
    namiji = dict(card_texts("namiji", {"cards": ["U1", "U9"]}, "pl"))
    assert namiji["U1"] == "Podwójny połów: połów: rozpatruje efekt połowu dwa razy"
    assert namiji["U9"].endswith("dobiera 3 karty, zatrzymuje 1, 2 idą pod talię")


class _Visible(HTMLParser):
    """The text a reader sees in a page's players' state and cards (not attributes, not the
    replay's script data, not the log's notation)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.inside = 0  # depth inside section.seats or section.cards
        self.text: list[str] = []
        self.buttons: list[tuple[str, str]] = []  # (data-card, label)
        self._button: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "section" and (self.inside or found.get("class") in ("seats", "cards")):
            self.inside += 1
        if tag == "button" and "card" in (found.get("class") or ""):
            self._button = found.get("data-card") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self.inside:
            self.inside -= 1
        if tag == "button":
            self._button = None

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text.append(data)
        if self._button is not None:
            self.buttons.append((self._button, data))


@pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL
@pytest.mark.parametrize("language", ["fr", "pl"])
def test_a_finished_namiji_page_names_every_card(tmp_path: Path, language: str) -> None:
    """The players' cards and the cards on the table read as names ("Double prise",
    "Chasseur de crabes", "onigiri"), never codes; the code stays in ``data-card``."""

    async def body() -> str:
        async with store_at(tmp_path) as repo, serving(repo) as (_, client):
            game_id = await played_game(
                repo, "namiji", ["Ann", "Bo"], turns=None, language=language
            )
            answer = await client.get(links.game_path(SECRET, game_id))
            assert answer.status == 200
            return await answer.text()

    html = asyncio.run(body())
    seen = _Visible()
    seen.feed(html)
    visible = unescape(" ".join(seen.text))
    assert not CARD_CODE.findall(visible), CARD_CODE.findall(visible)
    kinds = {code[0] for code, _ in seen.buttons}
    assert {"M", "U", "R"} <= kinds, seen.buttons

    def t(key: str, **params: object) -> str:
        return web_catalog().text(key, language, **params)

    for code, label in seen.buttons:
        assert unescape(label) == card_name("namiji", code, t) != code, (code, label)
