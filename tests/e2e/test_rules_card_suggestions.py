"""``/rules card:`` suggestions read the card's name alone (V1, issue 38: "Échoppe n° 1 (B01)",
"Torii n° 1 (T1)", "Double prise (U1)" showed the raw code after the name); the value stays the
code, and a typed code, in either case, still finds its card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.cogs.info import all_cards
from bot.games import PRESENTATIONS, presentation
from bot.games.base import Texts
from tests.e2e.harness import CHANNEL, TIMEOUT, WATCHER, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: A tile or card code as the engine writes it (B01, P3, T1, U11, R06, M6).
CODE = re.compile(r"\b[BPTURMA]\d{1,2}\b")


def _words(lang: str) -> Texts:
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, lang, **params)


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_every_cards_suggestion_is_its_name_and_its_code_still_finds_it(
    tmp_path: Path, lang: str
) -> None:
    t = _words(lang)

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            for game in PRESENTATIONS:
                shown = presentation(game)
                codes = [code for g, _topic, code in all_cards(game) if g == game]
                for code in codes:
                    name = shown.card_name(t, code)
                    # every card by its code in lower case; the first also as written, by name
                    tried = (code.lower(), code, name) if code == codes[0] else (code.lower(),)
                    for typed in tried:
                        offered = await double.autocomplete(
                            WATCHER,
                            CHANNEL,
                            "rules",
                            {"game": game, "card": typed},
                            "card",
                            timeout=TIMEOUT,
                            locale=lang,
                        )
                        assert {"name": name, "value": code} in offered, (typed, offered)
                        for choice in offered:
                            assert not CODE.search(choice["name"]), (typed, choice)
                            assert f"({choice['value']})" not in choice["name"], (typed, choice)

    run(body, timeout=240.0)
