"""Joins and counts as each language says them (issue 38 leftovers): Italian "C3 e E4" is
"C3 ed E4" (every "e" before a word in "e", whatever filled it in); a payment of two silk
tokens read "jedwab i jedwab" / "soie et soie": now each kind once with its count (the
multiplication sign and 2), as the web page counts them."""

from __future__ import annotations

import re

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from bot.games.base import Texts
from bot.present import error_text
from bot.service import EngineRejected
from bot.summary import Summary
from engine import games
from engine.players import random_player
from engine.yamatai.refusals import REFUSALS as YAMATAI

#: Silk in each language.
PAID = (("pl", "jedwab"), ("fr", "soie"), ("it", "seta"), ("en", "silk"))
#: An Italian "e" before a word beginning with "e" (to be "ed").
E_BEFORE_E = re.compile(r"(?<![\w'])e [eEèé]")


def _words(lang: str) -> Texts:
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, lang, **params)


def test_italian_says_ed_before_a_word_in_e() -> None:
    t = _words("it")
    assert t("summary.and", items="C3", last="E4") == "C3 ed E4"
    assert t("summary.and", items="Ann", last="Emma") == "Ann ed Emma"
    assert t("summary.and", items="C3", last="A4") == "C3 e A4"  # "ed" only before an "e"
    assert t("yamatai.summary.swap_tokens", islands="C3 ed E4").endswith("C3 ed E4")
    french = _words("fr")
    assert french("summary.and", items="C3", last="E4") == "C3 et E4"


@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_no_italian_turn_joins_e_before_an_e(game: str) -> None:
    summary = Summary(default_catalog(), "it", game)
    names = ["Ann", "Emma", "Bo"]
    for seed in range(3):
        match = games.new(game, names, seed=seed)
        while (seat := match.current_seat) is not None:
            action = random_player(match.view(seat), seat)
            events = match.play(action, seat=seat)
            for said in (
                summary.turn(names[seat], events, names),
                summary.yours(events, names, played=[action]),
            ):
                assert not E_BEFORE_E.search(said), (action, said)


@pytest.mark.parametrize(
    ("lang", "paid"),
    [(lang, f"{name} \u00d72") for lang, name in PAID],
)
def test_two_tokens_of_a_kind_are_counted_not_repeated(lang: str, paid: str) -> None:
    label = presentation("yamatai").panel_label(_words(lang), {}, "recruit Riu silk silk")
    assert label.endswith(paid), label
    mixed = presentation("yamatai").panel_label(_words(lang), {}, "recruit Ebisu rice tea silk")
    assert "\u00d7" not in mixed, mixed
    refused = EngineRejected(YAMATAI.illegal("missing_tokens", tokens="silk silk rice"))
    text = error_text(default_catalog(), refused, lang)
    assert paid in text and not re.search(r"(\w+), \1\b", text), text
