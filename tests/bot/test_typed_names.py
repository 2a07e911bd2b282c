"""Names typed in words (D219): every language's, any case or accents, read into the notation;
the notation itself reads as it is, so the engine's round trip is unchanged."""

from __future__ import annotations

import random

import pytest

from bot.games import presentation
from bot.games.typed import UnknownName, fold
from engine import games


@pytest.mark.parametrize(
    ("typed", "notation"),
    [
        ("place bambou 25", "place bamboo 25"),
        ("place Bateau d\u2019argile A2", "place clay A2"),
        ("PLACE nave d'oro 3", "PLACE gold 3"),
        ("place łódź z bambusem 25", "place bamboo 25"),
        ("place LODZ Z BAMBUSEM 25", "place bamboo 25"),
        ("keep bois KAMIEŃ legno", "keep wood stone wood"),
        ("fleet 10 jaune", "fleet 10 gold"),
        ("raijin zielona czerwoną", "raijin bamboo clay"),
        ("recruit Riu soie THE ryż", "recruit Riu silk tea rice"),
        ("recruit Riu sakè perła", "recruit Riu sake pearl"),
        ("michimata jedwab", "michimata silk"),
        ("fleet 4; buy bambus; place verde 12", "fleet 4; buy bamboo; place bamboo 12"),
    ],
)
def test_yamatai_names_in_every_language(typed: str, notation: str) -> None:
    names = presentation("yamatai").typed_names()
    assert names is not None and names.read(typed) == notation


@pytest.mark.parametrize(
    ("typed", "notation"),
    [
        ("fish saba orange", "fish os"),
        ("fish Pomarańczowy Saba", "fish os"),
        ("fish tai blu", "fish bt"),
        ("fish hidden", "fish hidden"),
        ("panorama baleine", "panorama W"),
        ("panorama Ośmiornica", "panorama O"),
        ("pick podwójny połów", "pick U1"),
        ("pick OEIL PERCANT", "pick U2"),
        ("pick soba", "pick M3"),
        ("rock Pieux", "rock R12"),
        ("move 12; fish verde tai", "move 12; fish gt"),
    ],
)
def test_namiji_names_in_every_language(typed: str, notation: str) -> None:
    names = presentation("namiji").typed_names()
    assert names is not None and names.read(typed) == notation


@pytest.mark.parametrize(
    ("game", "typed", "kind", "word"),
    [
        ("yamatai", "place fioletowa 12", "boat", "fioletowa"),
        ("yamatai", "recruit Riu silk chocolat", "culture", "chocolat"),
        ("namiji", "pick zupa rybna", "card", "zupa rybna"),
        ("namiji", "panorama krab", "panorama", "krab"),
    ],
)
def test_an_unknown_name_is_refused_and_a_typo_left_to_did_you_mean(
    game: str, typed: str, kind: str, word: str
) -> None:
    names = presentation(game).typed_names()
    assert names is not None
    with pytest.raises(UnknownName) as caught:
        names.read(typed)
    assert (caught.value.kind, caught.value.word) == (kind, word)
    assert names.read(typed, strict=False) == typed
    assert names.read("buy wod") == "buy wod"  # close to "wood": the refusal says "did you mean"


@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_the_notation_reads_as_it_is(game: str) -> None:
    """Every legal action of a game played out by random choices reads to itself."""
    names = presentation(game).typed_names()
    assert names is not None
    match, pick = games.new(game, ["A", "B", "C"], 7, None), random.Random(7)
    for _ in range(400):
        if match.current_seat is None:
            break
        legal = match.legal_actions()
        for action in legal:
            assert names.read(action) == action
        match.play(pick.choice(legal), seat=match.current_seat)


def test_fold_ignores_case_accents_and_spaces() -> None:
    assert fold("  Łódź   Z  BAMBUSEM ") == "lodz z bambusem"
    assert fold("Œil perçant") == "oeil percant"


@pytest.mark.parametrize(
    ("game", "typed", "read"),
    [
        ("yamatai", "place drew", "place wood"),
        ("yamatai", "fleet 4; buy kam", "fleet 4; buy stone"),
        ("yamatai", "place b", "place b"),  # too short to say which boat
        ("yamatai", "place fioletowa", "place fioletowa"),  # autocomplete refuses nothing
        ("namiji", "pick podwójny po", "pick U1"),
        ("namiji", "move 3; fish hid", "move 3; fish hidden"),
    ],
)
def test_autocomplete_reads_a_name_only_begun(game: str, typed: str, read: str) -> None:
    names = presentation(game).typed_names()
    assert names is not None and names.begun(typed) == read
