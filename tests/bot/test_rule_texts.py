"""The ``/rules`` texts in Italian and Polish say the game's terms in their own language: no
French term from the rulebook in brackets ("(casier)", "(Rocher sacré)"; QA, issue 21)."""

from __future__ import annotations

import re

import pytest

from bot.catalog import default_catalog
from bot.games import PRESENTATIONS

#: Bracketed words that are not French terms: names and the prestige points' abbreviation.
NAMES = {
    "Antoine Bauza", "Cathala & Paquien", "Cathala i Paquien", "PP", "tai, saba, fugu",
    "tai/saba/fugu", "Raijin, Nakatsu, Michimata",
}  # fmt: skip


@pytest.mark.parametrize("lang", ["it", "pl"])
@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_no_french_term_in_brackets_in_the_rules(game: str, lang: str) -> None:
    catalog = default_catalog()
    assert game in PRESENTATIONS
    for topic in PRESENTATIONS[game].rule_topics:
        key = f"{game}.rules.{topic}"
        french = catalog.text(key, "fr").lower()
        for inside in re.findall(r"\(([^()]*)\)", catalog.text(key, lang)):
            words = inside.strip()
            if words in NAMES or not re.fullmatch(r"[^\W\d_][\w ,'/-]*", words):
                continue  # a name, or numbers, or notation in backticks
            assert words.lower() not in french, (lang, key, inside)
