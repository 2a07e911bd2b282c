"""Each player's time bank on the pictures (issue 21 item 13): under a seat's name on both games'
boards, on their turn pictures' score lines, in the picture's language; a stand-in is told
instead, and a picture without banks is drawn as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.games import Match
from render import render_board, render_focus
from render.extras import Extras
from render.text import recording
from tests.render.games import play_turns
from tests.render.test_phone import _namiji

DAY, HOUR = 86400, 3600
BANKS = {0: 2 * DAY + 4 * HOUR + 59, 1: 5 * HOUR + 20 * 60, 2: 0}


def _yamatai() -> Match:
    return play_turns(3, 5, 2)[0]


def _namiji_game() -> Match:
    return _namiji(3, 30)


def _drawn(action: Callable[[], bytes]) -> str:
    with recording() as drawn:
        action()
    return " | ".join(text for text, _ in drawn)


GAMES = pytest.mark.parametrize("game", [_yamatai, _namiji_game], ids=["yamatai", "namiji"])


@GAMES
def test_each_seats_time_bank_is_drawn_on_the_board_and_the_turn_picture(game: Any) -> None:
    """Days and hours, hours and minutes, or minutes; a seat the computer plays for its human
    tells its stand-in instead."""
    match: Match = game()
    view, legal = match.view(match.current_seat), match.legal_actions()
    for draw in (
        lambda: render_board(
            view, extras=Extras(banks=tuple(BANKS.items()), stand_ins=((2, "away"),))
        ),
        lambda: render_focus(
            view, legal=legal, extras=Extras(banks=tuple(BANKS.items()), stand_ins=((2, "away"),))
        ),
    ):
        texts = _drawn(draw)
        assert "bank 2 d 4 h" in texts and "bank 5 h 20 min" in texts
        assert "away · computer plays" in texts and "bank 0 min" not in texts


@GAMES
def test_the_time_bank_is_told_in_the_pictures_language(game: Any) -> None:
    """French: "réserve de temps 2 j 4 h", the lobby's words (issue 38 item 12)."""
    match: Match = game()
    view, legal = match.view(match.current_seat), match.legal_actions()
    board = _drawn(
        lambda: render_board(view, extras=Extras(language="fr", banks=tuple(BANKS.items())))
    )
    turn = _drawn(
        lambda: render_focus(
            view, legal=legal, extras=Extras(language="fr", banks=tuple(BANKS.items()))
        )
    )
    for texts in (board, turn):
        assert "réserve de temps 2 j 4 h" in texts and "réserve de temps 0 min" in texts
        assert "bank " not in texts


@GAMES
def test_without_banks_the_pictures_are_unchanged(game: Any) -> None:
    """No time bank (None or empty): byte for byte the picture drawn before banks existed."""
    match: Match = game()
    view = match.view(None)
    assert (
        render_board(view, extras=Extras(banks=()))
        == render_board(view)
        == render_board(view, extras=Extras())
    )
    assert render_board(view, extras=Extras(banks=tuple(BANKS.items()))) != render_board(view)
