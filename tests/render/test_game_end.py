"""Issue 13's leftovers: the fleet taken just before a round's end, stand-ins on Namiji's boards,
and a game the bot ended (abandoned, or a resignation) on both games' board and turn pictures."""

from __future__ import annotations

from typing import Any

import pytest

from engine import games
from engine.games import Match
from engine.yamatai.players import greedy_player
from render import render_board, render_focus
from render.extras import Extras
from render.text import recording
from tests.engine.test_record import finished
from tests.render.games import new_match, play_turns
from tests.render.test_phone import _namiji


def _round_change(players: int) -> tuple[Match, list[dict[str, Any]]]:
    """A greedy game just after the turn that ended round 1, and that turn's events."""
    match = new_match(players, 5)
    events: list[dict[str, Any]] = []
    while (seat := match.current_seat) is not None:
        new = match.play(greedy_player(match.view(seat), seat), seat=seat)
        events += new
        if any(e["type"] == "round_end" for e in new):
            return match, events
        if any(e["type"] == "end_turn" for e in new):
            events = []
    raise AssertionError("no round ended")


def _drawn(action: Any) -> list[str]:
    with recording() as drawn:
        action()
    return [text for text, _ in drawn]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fleet_taken_before_the_round_end_stays_shown(players: int) -> None:
    """After the track slid, the turn order still shows who took which fleet last turn."""
    match, events = _round_change(players)
    view = match.view(None)
    fleet_event = next(e for e in events if e["type"] == "fleet")
    taken = f"fleet {fleet_event['fleet']}"  # no "#": on the picture it marks a building
    assert all(e.get("fleet") != fleet_event["fleet"] for e in view["fleet_track"])
    texts = _drawn(lambda: render_board(view, events=events))
    assert taken in texts
    # Mid-round the taken fleet is in the turn order already: no extra row.
    mid, turn = play_turns(players, 5, 1)
    assert sum(t.startswith("fleet ") for t in _drawn(lambda: render_board(mid.view(None)))) == 1
    assert turn.fleet is not None


def test_namiji_board_shows_stand_ins() -> None:
    """Namiji's boat board writes the stand-in under the name, as Yamatai's panel does."""
    view = _namiji(3, 30).view(None)
    texts = _drawn(
        lambda: render_board(view, extras=Extras(stand_ins=((1, "away"), (2, "resigned"))))
    )
    assert "away · computer plays" in texts
    assert "resigned · computer plays" in texts


@pytest.mark.parametrize("game", ["yamatai", "namiji"])
@pytest.mark.parametrize(
    ("language", "plays", "played"),
    [
        ("en", "resigned · computer plays", "resigned · computer played"),
        ("fr", "a abandonné · l'ordinateur joue", "a abandonné · l'ordinateur a joué"),
        ("it", "ha abbandonato · gioca il computer", "ha abbandonato · ha giocato il computer"),
        ("pl", "rezygnacja · gra komputer", "rezygnacja · grał komputer"),
    ],
)
def test_a_finished_games_board_tells_its_stand_ins_in_the_past(
    game: str, language: str, plays: str, played: str
) -> None:
    """Once the game is over (its result drawn), a resigned seat's line says the computer
    played for it, not that it plays (verification 47)."""
    view = finished(game, 3, 1).view(None)
    ranks = ((0, 1), (1, 3), (2, 2))
    stand_ins = ((1, "resigned"),)
    over = _drawn(
        lambda: render_board(
            view, extras=Extras(language=language, stand_ins=stand_ins, ranks=ranks)
        )
    )
    assert played in over and plays not in over
    running = _drawn(
        lambda: render_board(view, extras=Extras(language=language, stand_ins=stand_ins))
    )
    assert plays in running


def _yamatai_ended() -> tuple[dict[str, Any], list[str]]:
    match, _ = play_turns(3, 5, 10)
    return match.view(match.current_seat), match.legal_actions()


def _namiji_ended() -> tuple[dict[str, Any], list[str]]:
    match = _namiji(3, 40)
    return match.view(match.current_seat), match.legal_actions()


@pytest.mark.parametrize("game", [_yamatai_ended, _namiji_ended], ids=["yamatai", "namiji"])
@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("abandoned", "Game abandoned"),
        ("cancelled", "Game cancelled"),
        ("resigned", "Game ended by a resignation"),
    ],
)
def test_a_game_the_bot_ended_shows_its_end(game: Any, reason: str, words: str) -> None:
    """No one "to play", no ringed choices, the end in words on the board and the turn picture."""
    view, legal = game()
    assert legal  # the game itself is still under way
    board = " | ".join(_drawn(lambda: render_board(view, extras=Extras(ended=reason))))
    turn = " | ".join(_drawn(lambda: render_focus(view, legal=legal, extras=Extras(ended=reason))))
    for texts in (board, turn):
        assert words in texts
        assert "to play" not in texts.lower()
        assert "Ringed in yellow" not in texts
        assert "FINAL SCORES" not in texts
    assert "to play" in " | ".join(_drawn(lambda: render_board(view))).lower()


def test_unknown_end_reason_is_still_an_end() -> None:
    """A reason this render does not know is still shown as an end, in plain words."""
    match = games.new("yamatai", ["Ann", "Bo"], seed=1)
    view = match.view(None)
    texts = " | ".join(_drawn(lambda: render_board(view, extras=Extras(ended="timeout"))))
    assert "Game ended: timeout" in texts
