"""The end's sacred rock reveal in each language's plural forms (issue 38 leftovers): one card
was told in the plural ("revealed sacred rocks “Tidy crate”"), none as "revealed sacred rocks —
(0 met)", and Polish counts "2 karty" but "5 kart"."""

from __future__ import annotations

import pytest

from bot.catalog import default_catalog
from bot.summary import Summary
from engine import games
from engine.contract import Event
from engine.players import random_player

NAMES = ["Ann", "Bo"]
#: What each language says for a reveal of 0, 1 (met), 1 (not met), 2 (1 met) and 5 (0 met)
#: sacred rock cards.
EXPECTED = {
    "en": [
        "Bo had no sacred rock card",
        "Bo revealed the sacred rock card “Tidy crate” (objective met)",
        "Bo revealed the sacred rock card “Tidy crate” (objective not met)",
        "Bo revealed 2 sacred rock cards: “Tidy crate”, “Blue waters” (1 of 2 objectives met)",
        "Bo revealed 5 sacred rock cards: “Tidy crate”, “Blue waters”, “Green shallows”, “Crab"
        " catcher”, “Devout” (0 of 5 objectives met)",
    ],
    "fr": [
        "Bo n'avait aucune carte Rocher sacré",
        "Bo a révélé sa carte Rocher sacré « Casier bien rangé » (objectif atteint)",
        "Bo a révélé sa carte Rocher sacré « Casier bien rangé » (objectif non atteint)",
        "Bo a révélé ses 2 cartes Rocher sacré : « Casier bien rangé », « Eaux bleues » (1 objectif"
        " atteint sur 2)",
        "Bo a révélé ses 5 cartes Rocher sacré : « Casier bien rangé », « Eaux bleues »,"
        " « Hauts-fonds verts », « Chasseur de crabes », « Dévot » (0 objectif atteint sur 5)",
    ],
    "it": [
        "Bo non aveva carte Roccia Sacra",
        "Bo ha rivelato la carta Roccia Sacra «Cassetta ordinata» (obiettivo raggiunto)",
        "Bo ha rivelato la carta Roccia Sacra «Cassetta ordinata» (obiettivo non raggiunto)",
        "Bo ha rivelato 2 carte Roccia Sacra: «Cassetta ordinata», «Acque blu» (1 obiettivo"
        " raggiunto su 2)",
        "Bo ha rivelato 5 carte Roccia Sacra: «Cassetta ordinata», «Acque blu», «Secche verdi»,"
        " «Cacciatore di granchi», «Devoto» (0 obiettivi raggiunti su 5)",
    ],
    "pl": [
        "Bo nie ma żadnej karty świętej skały",
        "Bo odkrywa kartę świętej skały „Porządna skrzynka” (cel spełniony)",
        "Bo odkrywa kartę świętej skały „Porządna skrzynka” (cel niespełniony)",
        "Bo odkrywa 2 karty świętej skały: „Porządna skrzynka”, „Błękitne wody” (spełniony 1 cel"
        " z 2)",
        "Bo odkrywa 5 kart świętej skały: „Porządna skrzynka”, „Błękitne wody”, „Zielone"
        " płycizny”, „Łowca krabów”, „Pobożny” (spełnionych 0 celów z 5)",
    ],
}
REVEALS = [
    ([], []),
    (["R02"], ["R02"]),
    (["R02"], []),
    (["R02", "R05"], ["R05"]),
    (["R02", "R05", "R07", "R09", "R11"], []),
]


def _reveal(cards: list[str], met: list[str]) -> list[Event]:
    return [{"type": "rocks_revealed", "seat": 1, "cards": cards, "met": met}]


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_the_reveal_counts_its_cards_in_each_language(language: str) -> None:
    """The line under the turn's sentence, for none, one and several cards."""
    summary = Summary(default_catalog(), language, "namiji")
    said = [summary.turn("Ann", _reveal(*reveal), NAMES).split("\n")[-1] for reveal in REVEALS]
    nbsp = [line.replace("\N{NO-BREAK SPACE}", " ") for line in said]
    assert nbsp == EXPECTED[language]


@pytest.mark.parametrize("few", [2, 3, 4, 22])
def test_polish_says_few_cards_and_met_objectives_in_their_form(few: int) -> None:
    """Polish: 2-4 (and 22-24) "karty", "cele"; 1 "kartę", "cel"; 5-21 "kart", "celów"."""
    summary = Summary(default_catalog(), "pl", "namiji")
    cards = [f"R{n:02d}" for n in range(1, 16)] * 2
    line = summary.turn("Ann", _reveal(cards[:few], cards[: few - 1]), NAMES).split("\n")[-1]
    assert f"odkrywa {few} karty świętej skały: " in line
    met = {2: "spełniony 1 cel z 2", 3: "spełnione 2 cele z 3", 4: "spełnione 3 cele z 4"}
    assert line.endswith(f"({met.get(few, 'spełnionych 21 celów z 22')})"), line


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_a_whole_games_reveal_says_each_players_rocks_in_words(language: str) -> None:
    """A played game's last message: a line per player, their cards by name, what they scored."""
    summary = Summary(default_catalog(), language, "namiji")
    match = games.new("namiji", NAMES, seed=3)
    events: list[Event] = []
    while (seat := match.current_seat) is not None:
        events = match.play(random_player(match.view(seat), seat), seat=seat)
    last = summary.turn("Ann", events, NAMES).split("\n")
    reveals = [e for e in events if e["type"] == "rocks_revealed"]
    lines = last[-len(reveals) :]
    for event, line in zip(reveals, lines, strict=True):
        assert line.startswith(NAMES[event["seat"]] + " ")
        for code in event["cards"]:
            name = default_catalog().text(f"namiji.card.{code}", language)
            assert name in line and code not in line, line
