"""A quote inside a quote takes the language's inner marks (V2 finding 8, issue 38): the Polish
turning point read „Weź ulepszenie „Skorupiak w prezencie”” (the panel's label, itself quoted,
inside the line's quotes); Polish nests »…« inside „…”, French “…” inside « … », Italian “…”
inside «…», English single marks inside double ones."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.catalog import default_catalog
from bot.catalog.typography import nested_quotes
from bot.games import presentation
from bot.present import t

LOCALES = {
    "en": discord.Locale.american_english,
    "fr": discord.Locale.french,
    "it": discord.Locale.italian,
    "pl": discord.Locale.polish,
}
#: The upgrade's label as the turning point quotes it, per language.
NESTED = {
    "en": "\u201cTake the upgrade \u2018{name}\u2019\u201d",
    "fr": "\u00ab\u00a0Prendre l'Amélioration \u201c{name}\u201d\u00a0\u00bb",
    "it": "\u00abPrendi il miglioramento \u201c{name}\u201d\u00bb",
    "pl": "\u201eWeź ulepszenie \u00bb{name}\u00ab\u201d",
}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_turning_point_quotes_an_upgrades_label_with_inner_marks(lang: str) -> None:
    catalog = default_catalog()
    interaction = SimpleNamespace(locale=LOCALES[lang])
    namiji = presentation("namiji")
    name = namiji.card_name(lambda key, **p: catalog.text(key, lang, **p), "U9")
    label = t(interaction, "namiji.panel.do.upgrade", name=name)  # type: ignore[arg-type]
    line = t(
        interaction,  # type: ignore[arg-type]
        "coach.turning_point_line_turn",
        rank=1,
        round=5,
        played=label,
        mine="96",
        best=t(interaction, "panel.end"),  # type: ignore[arg-type]
        chance="97",
    )
    assert NESTED[lang].format(name=name) in line, line
    assert t(interaction, "namiji.panel.do.upgrade", name=name) == label  # type: ignore[arg-type]


def test_quotes_side_by_side_or_alone_are_left_as_they_are() -> None:
    assert nested_quotes("\u201eA\u201d i \u201eB\u201d", "pl") == "\u201eA\u201d i \u201eB\u201d"
    assert nested_quotes("« A » et « B »", "fr") == "« A » et « B »"
    assert nested_quotes("no quotes", "pl") == "no quotes"
