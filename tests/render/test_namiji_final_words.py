"""Namiji's pictures say who and what in words (issue 38, play-through 46): the final table's
winner line whole (French "avec 77 p…" was cut), the pontoon draft names the player who picks
(not "slot 2"), no "x3" after cards already shown, and no card code on a chip ("U8", "R06")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import games
from engine.namiji.scoring import rock_met
from engine.namiji.state import player_from_view
from render import render_board, render_focus
from render.extras import Extras
from render.namiji import layout, palette
from render.namiji.boards import card_face
from render.text import measuring
from render.words import say, speaking
from tests.render.probes import close, decode, pixel
from tests.render.test_namiji_card_names import CARD
from tests.render.test_namiji_words import LANGUAGES, _scenes
from tests.render.test_phone import _clear_caches

#: The longest names a game gives: computer seats as the lobby names them in each language.
LONG = {
    "en": ["Computer 1 (normal)", "Computer 2 (strong)", "Kenji"],
    "fr": ["Ordinateur 1 (normal)", "Ordinateur 2 (fort)", "Kenji"],
    "it": ["Computer 1 (normale)", "Computer 2 (forte)", "Kenji"],
    "pl": ["Komputer 1 (normalny)", "Komputer 2 (silny)", "Kenji"],
}
COUNT = re.compile(r"^x\d+$")


def _final(names: list[str], tie: bool) -> dict[str, Any]:
    """Everyone's view at the end of a game, the first two seats tied for the lead if ``tie``."""
    match = games.new("namiji", names, seed=5)
    computer = games.computer_player("namiji")
    done = 0
    while (seat := match.current_seat) is not None:
        match.play(computer(match.view(seat), done), seat=seat)
        done += 1
    view: dict[str, Any] = match.view(None)
    best = max(int(p["score"]) for p in view["players"])
    view["players"][0]["score"] = best
    if tie:
        view["players"][1]["score"] = best
    return view


@pytest.mark.parametrize("tie", [False, True])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_winner_line_is_whole_and_inside_the_table(lang: str, tie: bool) -> None:
    """The sentence is drawn whole, on one line or two, every line inside the centre."""
    names = LONG[lang]
    view = _final(names, tie)
    best = view["players"][0]["score"]
    with speaking(lang):
        key = "n.final.winners" if tie else "n.final.winner"
        winners = ", ".join(names[:2] if tie else names[:1])
        sentence = say(key, names=winners, best=best)
        _clear_caches()
        with measuring() as drawn:
            render_board(view, extras=Extras(language=lang))
    left, _, right, _ = layout.CENTRE
    lines = [  # the winner's lines: in the centre, in the sentence's size, pieces of it
        d
        for d in drawn
        if d.size >= 18
        and len(d.text) > 3
        and d.text.rstrip("…") in sentence
        and left <= (d.box[0] + d.box[2]) / 2 <= right
    ]
    assert " ".join(d.text for d in lines) == sentence, [d.text for d in lines]
    for line in lines:
        assert left + 12 <= line.box[0] and line.box[2] <= right - 12, (line.text, line.box)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_draft_names_the_player_who_picks(lang: str) -> None:
    """The draft says "Pontoon draft: Bo picks", not "slot 2 picks": the player to pick."""
    view, _, events = _scenes()["pick"]
    name = str(view["players"][view["current_seat"]]["name"])
    with speaking(lang):
        prefix = say("n.centre.draft", name="").split(":")[0].strip()
    _clear_caches()
    with measuring() as drawn:
        render_board(view, events=events, extras=Extras(language=lang))
    titles = [d.text for d in drawn if d.text.startswith(prefix)]
    assert titles and all(name in t for t in titles), (name, titles)


@pytest.mark.parametrize("scene", ["pick", "rock", "board", "final"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_card_code_nor_count_on_a_chip(lang: str, scene: str) -> None:
    """The boat boards' and the centre's cards read in words or the key's letters, never a code
    ("U8", "R06"), and no "x3" repeating the cards drawn beside it."""
    view, legal, events = _scenes()[scene]
    _clear_caches()
    with measuring() as drawn:
        render_board(view, events=events, extras=Extras(language=lang))
        if legal:
            render_focus(view, legal=legal, events=events, extras=Extras(language=lang))
    codes = [d.text for d in drawn if CARD.search(d.text) or COUNT.match(d.text)]
    assert not codes, codes


def test_a_sacred_rock_card_met_is_gold_at_the_end() -> None:
    """At the end every sacred rock card shows its points ("R +3") on its chip, in gold when its
    objective is met (the key: "gold: scored or bonus"), else on the card's plain face."""
    view = _final(LONG["en"], tie=False)
    _clear_caches()
    with measuring() as drawn:
        image = decode(render_board(view, extras=Extras(language="en")))
    chips = [d for d in drawn if d.text.startswith("R +")]
    seen = {True: 0, False: 0}
    for seat, panel in enumerate(layout.panels(len(view["players"]))):
        left, top, right, bottom = panel.box
        mine = [d for d in chips if left <= d.box[0] < right and top <= d.box[1] < bottom]
        rocks = [str(c) for c in view["players"][seat]["rocks"]]
        assert [d.text for d in mine] == [card_face(c) for c in rocks], (seat, rocks)
        player = player_from_view(view["players"][seat])
        for chip, card in zip(mine, rocks, strict=True):
            inside = pixel(image, (chip.box[0] - 3, (chip.box[1] + chip.box[3]) / 2))
            met = rock_met(player, card)
            assert close(inside, palette.GOLD, 12) == met, (card, met, inside)
            seen[met] += 1
    assert seen[True] and seen[False], seen
