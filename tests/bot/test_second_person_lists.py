"""A list of the player's own doings said to them reads as a sentence in every language (V1,
issue 38): French elided the subject of every phrase after the first, "tu as gardé un bateau de
bois au port, as mis 1 bateau de côté"; now each phrase has its subject where the language needs
one and the last is joined by "and": "… et tu as mis 1 bateau de côté", "… e hai accantonato
1 nave", "… i odkładasz 1 łódź", "… and set aside 1 boat"."""

from __future__ import annotations

import re

import pytest

from bot.catalog import default_catalog
from bot.summary import Summary
from engine import games
from engine.players import random_player

#: What "kept boats in the harbor, set aside some" reads like to its player, per language.
KEEP = {
    "en": r"you kept .+ in the harbor and set aside \d+ boats?",
    "fr": r"tu as gardé .+ au port et tu as mis \d+ bateaux? de côté",
    "it": r"hai tenuto .+ nel porto e hai accantonato \d+ nav[ei]",
    "pl": r"zatrzymujesz w porcie: .+ i odkładasz \d+ ł[oó]d(ź|zie|zi)",
}
#: The words of setting boats aside, per language.
ASIDE = {"en": "set aside", "fr": "de côté", "it": "accantonat", "pl": "odkład"}
#: A French auxiliary of the second person without its subject ("…, as mis").
BARE_FRENCH = re.compile(r"(?<!\btu )\bas (?=\w)")


def _said(lang: str, game: str, seed: int) -> list[tuple[str, str]]:
    """Every action of a random 2-player game and what its player is told it did."""
    summary = Summary(default_catalog(), lang, game)
    match = games.new(game, ["Ann", "Bo"], seed=seed)
    said = []
    while (seat := match.current_seat) is not None:
        action = random_player(match.view(seat), seat)
        events = match.play(action, seat=seat)
        said.append((action, summary.yours(events, ["Ann", "Bo"], played=[action])))
    return said


@pytest.mark.parametrize("lang", sorted(KEEP))
def test_keeping_boats_and_setting_some_aside_reads_as_one_sentence(lang: str) -> None:
    kept = [s for a, s in _said(lang, "yamatai", seed=5) if a.startswith("keep ")]
    two = [s for s in kept if ASIDE[lang] in s]
    assert two, kept
    for said in two:
        assert re.fullmatch(KEEP[lang], said), said


@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_no_french_phrase_of_the_player_loses_its_subject(game: str) -> None:
    """Over whole games, every "as" (second person of "avoir") has its "tu"."""
    lists = 0
    for seed in (5, 6):
        for action, said in _said("fr", game, seed):
            assert not BARE_FRENCH.search(said), (action, said)
            lists += " et tu as " in said
    assert lists > 5


@pytest.mark.parametrize("lang", ["it", "pl"])
@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_italian_and_polish_lists_keep_every_verb_in_the_second_person(
    lang: str, game: str
) -> None:
    """Italian and Polish need no subject: a list of several phrases is each verb in the
    second person, the last after "e" / "i" ("hai mosso la barca …, e hai fatto un'offerta")."""
    from bot.summary import split_phrases

    and_word = {"it": " e ", "pl": " i "}[lang]
    catalog = default_catalog()
    tables = (catalog.text(k, lang) for k in ("summary.you_verbs", f"{game}.summary.you_verbs"))
    third = {e.partition(">")[0] for table in tables for e in table.split()}
    lists = 0
    for action, said in _said(lang, game, seed=5):
        for phrase in split_phrases(said):
            for part in phrase.split(and_word):
                assert part.split(" ")[0] not in third, (action, said)
        lists += len(split_phrases(said)) > 1 or and_word in said
    assert lists > 5


def test_a_list_is_cut_at_commas_outside_brackets_only() -> None:
    from bot.summary import split_phrases

    text = "a construit B07 (2 PP, 3 pièces), a payé 1 pièce"
    assert split_phrases(text) == ["a construit B07 (2 PP, 3 pièces)", "a payé 1 pièce"]
