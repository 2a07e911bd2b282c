"""Names and tags (issue 21, item 9): a name keeps its letters while the step text can give room,
and the tag for the last player reads "just played", never "final turn"."""

from __future__ import annotations

import pytest

from engine import games
from engine.yamatai.view import yamatai_view
from render import render_board
from render.extras import Extras
from render.text import Drawn, measuring, recording
from render.words import say, speaking
from render.yamatai.picture import render_board as render_yamatai
from tests.render.games import play_turns
from tests.render.test_overflow import LONG
from tests.render.test_phone import _clear_caches

LANGUAGES = ("en", "fr", "it", "pl")
#: The words that made the tag read as the game's final turn.
FINAL = {"en": "LAST", "fr": "DERNIER", "it": "ULTIM", "pl": "OSTATNI"}


def _namiji_view() -> dict[str, object]:
    match = games.new("namiji", list(LONG[:4]), seed=3)
    computer = games.computer_player("namiji")
    for step in range(9):
        seat = match.current_seat
        assert seat is not None
        match.play(computer(match.view(seat), step), seat=seat)
    return match.view(None)


def _drawn(view: dict[str, object], language: str) -> list[Drawn]:
    _clear_caches()
    with measuring() as drawn:
        render_board(view, extras=Extras(language=language))
    return drawn


def test_the_namiji_title_line_keeps_a_long_name_whole_while_there_is_room() -> None:
    """It was cut to 300 px ("Aleksandra Wiśniewska-… to play: take a fish") beside free room."""
    view = _namiji_view()
    current = view["current_seat"]
    assert isinstance(current, int)
    name = LONG[current]
    with recording() as drawn:
        render_board(view)
    assert any(name in text and "to play" in text for text, _ in drawn), [t for t, _ in drawn][:5]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_yamatai_title_line_shortens_the_step_before_the_name(language: str) -> None:
    match, _ = play_turns(4, 5, 9, LONG)
    view = match.view(None)
    name = LONG[view["current_seat"]]
    with recording() as drawn:
        render_board(view, extras=Extras(language=language))
    round_words = say("y.header.turn", language, round=view["round"], name="@", step="@")
    title = next(t for t, _ in drawn if t.startswith(round_words.split("@")[0]) and "·" in t)
    step = say("y.step.fleet", language)
    assert view["turn"]["step"] == "fleet"
    if name not in title:  # a name loses letters only once the step is down to an ellipsis
        assert title.endswith("…") and step[:3] not in title, title
    if language == "en":
        assert name in title, title


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_order_name_never_runs_under_the_to_play_tag(language: str) -> None:
    """The name took 120 px whatever the tag beside it needed ("Domenico" over "di turno")."""
    match, _ = play_turns(4, 5, 9, LONG)
    view = match.view(None)
    drawn = _drawn(view, language)
    with speaking(language):
        tag = say("y.order.to_play")
    box = next(d.box for d in drawn if d.text == tag)
    row = [d for d in drawn if abs((d.box[1] + d.box[3]) / 2 - (box[1] + box[3]) / 2) < 6]
    names = [d for d in row if d.text[:4] in {n[:4] for n in LONG}]
    assert names and all(d.box[2] <= box[0] for d in names), [(d.text, d.box) for d in row]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_last_players_tag_reads_just_played(language: str) -> None:
    match, last = play_turns(4, 5, 9, LONG)
    tag = say("y.tag.last_turn", language)
    assert FINAL[language] not in tag.upper()
    with recording() as drawn:
        render_yamatai(
            yamatai_view(match.view(None)), highlight=last, extras=Extras(language=language)
        )
    assert any(text == tag for text, _ in drawn)
