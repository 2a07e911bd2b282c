"""Namiji's pictures in the rulebook's words and without gender (issue 38, play-through 46): a
turn told in the Polish present (the past agrees with the player's gender, which the bot cannot
know), the French "a avancé" and "station" (never "arrêt"), the port without a stray "S", the
sacred rock objectives in words ("aucun crabe", "au moins 4"), "doré" for the gold mark."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.namiji.components import components
from render.namiji import focus as namiji_focus
from render.namiji.cards import card_text
from render.words import say, speaking

LANGUAGES = ("en", "fr", "it", "pl")
#: Every change a turn picture can tell (``n.focus.*``), with the events that show it.
TOLD: list[dict[str, Any]] = [
    {"type": "move", "seat": 1, "boat": 1, "to": 9},
    {"type": "fished", "seat": 1, "fish": "bt"},
    {"type": "net_placed", "seat": 1, "net": "bt", "cell": "r1c1", "orientation": "v"},
    {"type": "crate_line", "seat": 1, "line": "c1"},
    {"type": "crate_line", "seat": 1, "line": "r3"},
]
VERBS = (
    "moved",
    "crate_row",
    "crate_column",
    "fished",
    "kept",
    "net_placed",
    "card",
    "panorama",
    "trap",
    "offering",
    "rock",
    "arrival",
)


def test_a_polish_turn_is_told_in_the_present() -> None:
    """No masculine past ("przesunął", "wziął", "zatrzymał": a verb ending in -ł) in any change
    a Polish picture tells; the present, as the Discord text: "Hana: przesuwa łódź"."""
    with speaking("pl"):
        texts = [say(f"n.focus.{verb}", n=1) for verb in VERBS]
        said = namiji_focus.turn_words("Hana", 1, TOLD)
    past = [t for t in texts if re.search(r"\w+ł\b", t)]
    assert not past, past
    assert "przesuwa łódź" in said, said


def test_a_french_turn_has_no_gender_and_says_advanced() -> None:
    """French says "a avancé" as the game says elsewhere, and no participle agreeing with the player
    ("est arrivé")."""
    with speaking("fr"):
        texts = [say(f"n.focus.{verb}", n=1) for verb in VERBS]
        said = namiji_focus.turn_words("Hana", 1, TOLD)
    assert not [t for t in texts if t.startswith("est ")], texts
    assert said.replace("\u00a0", " ").startswith("Hana : a avancé"), said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_port_has_no_stray_letter(lang: str) -> None:
    """No "port S": nobody is told what S means; the port is named alone."""
    with speaking(lang):
        port = say("n.static.port")
    assert not re.search(r"\b[A-Z]\b", port), port


def test_a_stop_is_a_station_in_the_rulebook_s_words() -> None:
    """French "station" (the rulebook's word, never "arrêt", nor "scores à l'arrêt"), Italian
    "stazione", Polish "przystanek" (the glossaries')."""
    words = {"fr": "station", "it": "stazione", "pl": "przystanku", "en": "stop"}
    for lang, word in words.items():
        with speaking(lang):
            assert word in say("n.centre.at_stop", task="x"), lang
    with speaking("fr"):
        assert "arrêt" not in say("n.centre.at_stop", task="x")
        assert "à l'arrêt" not in say("n.header.ended", ended="x")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sacred_rock_objectives_are_in_words(lang: str) -> None:
    """No "≥" nor "≤" in any sacred rock card's text; "none" said as such."""
    with speaking(lang):
        texts = {code: card_text(code) or "" for code in components().rocks}
        crabs = say("n.cards.none.crabs")
    maths = {c: t for c, t in texts.items() if re.search("[≥≤]", t)}
    assert not maths, maths
    assert crabs in texts["R20"], texts["R20"]
    if lang == "fr":
        assert "aucun crabe" in texts["R20"] and "au moins 4" in texts["R06"], texts


def test_the_french_key_says_gold_as_an_adjective() -> None:
    """The key's "or : marqué ou bonus" read as the conjunction "or"; "doré : …"."""
    with speaking("fr"):
        key = say("n.key.cards")
    assert "doré" in key and "or\u00a0:" not in key and "or :" not in key, key
