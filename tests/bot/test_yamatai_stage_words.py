"""Yamatai's panel and card words the verification play-through of session 47 still found
wrong (O3, O8, O11): a token named as the object of a swap, a count said as every counted
thing says it, and one name for taking a fleet."""

from __future__ import annotations

from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.games import presentation

VIEW = {
    "islands": [{"label": "A3", "token": "rice"}, {"label": "F5", "token": "tea"}],
    "fleet_track": [{"fleet": 1, "boats": ["bamboo"], "power": "first"}],
}


def _label(locale: str, action: str, view: dict[str, Any] = VIEW) -> str:
    catalog, shown = default_catalog(), presentation("yamatai")
    texts = lambda k, **p: catalog.text(k, locale, **p)  # noqa: E731
    return str(shown.panel_label(texts, view, action))


def _card(locale: str, code: str) -> str:
    catalog = default_catalog()
    texts = lambda k, **p: catalog.text(k, locale, **p)  # noqa: E731
    return str(presentation("yamatai").card_help(texts, code)).replace("\u00a0", " ")


def _description(locale: str, action: str) -> str:
    catalog, shown = default_catalog(), presentation("yamatai")
    texts = lambda k, **p: catalog.text(k, locale, **p)  # noqa: E731
    described = shown.panel_description(texts, VIEW, action)
    return str(described).replace("\u00a0", " ")


@pytest.mark.parametrize(
    ("locale", "first", "pair"),
    [
        (
            "pl",
            "Zamień miejscami: herbata z wyspy F5 i inny żeton",
            "Zamień miejscami: herbata z wyspy F5 i ryż z wyspy A3",
        ),
        (
            "fr",
            "Échanger le jeton thé de l'île F5 contre un autre jeton",
            "Échanger le jeton thé de l'île F5 contre le jeton riz de l'île A3",
        ),
        (
            "it",
            "Scambia il segnalino tè su F5 con un altro segnalino",
            "Scambia il segnalino tè su F5 con il segnalino riso su A3",
        ),
        (
            "en",
            "Swap the tea token on F5 with another token",
            "Swap the tea token on F5 with the rice token on A3",
        ),
    ],
)
def test_the_first_token_of_a_swap_is_named_as_its_object(
    locale: str, first: str, pair: str
) -> None:
    """ "Zamień herbata z wyspy F5 z innym żetonem" (a nominative after "zamień"), "Échanger
    riz sur A3 avec un autre jeton" (no article): the staged swap's first choice."""
    assert _label(locale, "swap tokens F5") == first
    assert _label(locale, "swap tokens F5 A3") == pair


def test_ebisus_token_is_named_as_its_object() -> None:
    """ "Ebisu: weź też herbata z wyspy F5" wanted the accusative; "prendre aussi thé sur F5"
    an article."""
    assert _label("pl", "ebisu F5") == "Ebisu: weź jeszcze jeden żeton kultury (herbata z wyspy F5)"
    assert _label("fr", "ebisu F5") == "Ebisu\u00a0: prendre aussi le jeton thé de l'île F5"


@pytest.mark.parametrize(
    ("locale", "palace", "trading_post"),
    [
        ("fr", "6 PP, bateaux : bambou, argile \u00d72, or", "1 PP, bateaux : bambou \u00d72"),
        ("pl", "6 PP, łodzie: bambus, glina \u00d72, złoto", "1 PP, łodzie: bambus \u00d72"),
        ("it", "6 PP, navi: bambù, argilla \u00d72, oro", "1 PP, navi: bambù \u00d72"),
        ("en", "6 PP, boats: bamboo, clay \u00d72, gold", "1 PP, boats: bamboo \u00d72"),
    ],
)
def test_a_tiles_boats_are_counted_as_culture_tokens_are(
    locale: str, palace: str, trading_post: str
) -> None:
    """ "2 argile", "2 glina" (a count before a material's name): /rules card and the reserve
    and build choices' descriptions say "argile" times 2, as "jedwab" times 2
    (yamatai.culture_counted)."""
    assert _card(locale, "P2") == palace
    assert _card(locale, "B01") == trading_post
    assert _description(locale, "reserve P2") == palace
    assert _description(locale, "arrange B01 / P2").count("\u00d72") == 2


@pytest.mark.parametrize(
    ("locale", "verb"),
    [("pl", "Weź flotę 1"), ("fr", "Prendre la flotte 1"), ("it", "Prendi la flotta 1")],
)
def test_a_fleet_is_taken_in_the_same_words_whether_the_view_shows_it_or_not(
    locale: str, verb: str
) -> None:
    """ "„Weź flotę 1”" in one refusal, "„Flota 1: łódź z bambusem · …”" in another."""
    shown = _label(locale, "fleet 1")
    unseen = _label(locale, "fleet 1", {"islands": [], "fleet_track": []})
    assert unseen == verb
    assert shown.startswith(verb) and shown != verb
