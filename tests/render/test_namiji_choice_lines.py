"""Namiji's turn picture offers the actions with no place to ring in words that fit (issue 38):
"Or: …" only after choices ringed on the board, the choice itself when there is nothing else
("Choose: draw a crustacean", not "Or: draw a crustacean" under nothing), and not the title's
own action again ("Now: end the turn" was followed by "Or: end the turn")."""

from __future__ import annotations

import pytest

from render import render_focus
from render.extras import Extras
from render.focus import WIDTH as FOCUS_WIDTH
from render.text import measuring
from render.words import say, speaking
from tests.render.test_namiji_words import LANGUAGES, _scenes
from tests.render.test_phone import _clear_caches


def _lines(scene: str, lang: str) -> list[str]:
    """The turn picture's own lines (not its crop of the board)."""
    view, legal, events = _scenes()[scene]
    _clear_caches()
    with measuring() as drawn:
        render_focus(view, legal=legal, events=events, extras=Extras(language=lang))
    return [d.text for d in drawn if d.surface[0] == FOCUS_WIDTH]


def _prefix(key: str, lang: str, **params: str) -> str:
    with speaking(lang):
        return say(key, **params).strip()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_of_a_turn_is_said_once(lang: str) -> None:
    """Only "end" is legal: the title says it; no "Or:" line, no "nothing to choose"."""
    assert _scenes()["end"][1] == ["end"]
    lines = _lines("end", lang)
    with speaking(lang):
        end, nothing = say("n.focus.verb.end"), say("c.focus.nothing")
    assert sum(end in t for t in lines) == 1, lines
    assert not [t for t in lines if t.startswith(_prefix("n.focus.or", lang, actions=""))], lines
    assert nothing not in lines, lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_action_alone_is_the_choice(lang: str) -> None:
    """The trap's first draw: "Choose: draw a crustacean", not "Or: …" under nothing."""
    assert _scenes()["draw"][1] == ["draw"]
    lines = _lines("draw", lang)
    with speaking(lang):
        choice = say("n.focus.choose", cards=say("n.focus.verb.draw"))
    assert choice in lines, lines
    assert not [t for t in lines if t.startswith(_prefix("n.focus.or", lang, actions=""))], lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_or_follows_the_choices_ringed(lang: str) -> None:
    """Keeping a fish: the crate cells ringed, then "Or: release the fish"."""
    lines = _lines("keep", lang)
    with speaking(lang):
        release = say("n.focus.or", actions=say("n.focus.verb.release"))
    assert release in lines, lines
