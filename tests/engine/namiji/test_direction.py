"""Namiji's direction of travel (rulebook: "choisissez le sens du parcours"; ruling N17)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from engine import games
from engine.errors import InvalidSetup
from engine.namiji.components import components, sheet_index
from engine.namiji.game import REVEALING_STATIONS
from engine.namiji.infer import state_from_view
from engine.namiji.notation import parse
from engine.namiji.players import STATION_VALUE, _me, action_value
from tests.engine.namiji.scenario import state

NAMES = ["Green", "Pink", "Yellow"]
DATA = resources.files("engine.namiji").joinpath("data/components.json").read_text("utf-8")
SHEET: list[str] = json.loads(DATA)["route"]["spaces"]  # the house data sheet, clockwise


def reversed_game(players: list[str] = NAMES, seed: int = 7) -> games.Match:
    """A game sailed the other way round."""
    return games.new("namiji", players, seed, options={"direction": "reversed"})


def test_reversed_reads_the_house_sheet_backwards_with_the_pontoons_on_their_indices() -> None:
    route = reversed_game().view(0)["route"]
    last = len(SHEET) - 1
    assert route[0] == route[last] == "S"
    assert [route[i] for i in (13, 26, 39)] == ["P1", "P2", "P3"]
    for k, space in enumerate(route):
        if space[0] not in "PS":
            assert space == SHEET[last - k], k
            assert sheet_index(k, "reversed") == last - k
    assert route[1:4] == ["N*", "W", "C*"]  # the sheet's spaces 51, 50, 49
    assert games.new("namiji", NAMES, 7).view(0)["route"] == SHEET


def test_the_option_defaults_to_clockwise_and_is_kept() -> None:
    assert games.new("namiji", NAMES, 7).options == {"direction": "clockwise"}
    match = reversed_game()
    assert match.options == {"direction": "reversed"}
    assert match.view(None)["direction"] == "reversed"
    copy = games.from_json(match.to_json())
    assert copy.options == {"direction": "reversed"} and state(copy).direction == "reversed"


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"direction": "anticlockwise"}, "bad_option"),
        ({"direction": None}, "bad_option"),
        ({"direction": "REVERSED"}, "bad_option"),
        ({"sens": "reversed"}, "unknown_option"),
    ],
)
def test_a_bad_direction_is_refused_with_a_typed_error(
    options: dict[str, Any], reason: str
) -> None:
    with pytest.raises(InvalidSetup) as refused:
        games.new("namiji", NAMES, 7, options=options)
    assert refused.value.reason == reason
    assert "direction" in str(refused.value)


def test_a_game_stored_before_the_option_sails_clockwise() -> None:
    """Old rows: options {} (or none) and a state without ``direction``."""
    match = games.new("namiji", NAMES, 7)
    for _ in range(6):
        match.play(match.legal_actions()[0])
    data = json.loads(match.to_json())
    data["options"] = {}
    del data["state"]["direction"]
    old = games.from_json(json.dumps(data))
    assert old.options == {"direction": "clockwise"} and state(old).direction == "clockwise"
    assert old.legal_actions() == match.legal_actions()
    replayed = games.replay("namiji", NAMES, 7, None, old.log)
    assert replayed.to_json() == match.to_json()


def test_a_reversed_game_stops_at_the_reversed_stations() -> None:
    match = reversed_game()
    st = state(match)
    mover = st.boats[st.boat]
    assert mover.pos == 0 and match.legal_actions()[0] == "move 1"
    match.play("move 1")
    assert match.turn_info.step == "net"  # the sheet's space 51 is a net station (N*)
    assert st.nets_shown


def test_which_moves_reveal_follows_the_direction() -> None:
    """A move is not undoable when its station may show hidden things: the game's station."""
    clockwise, backwards = games.new("namiji", NAMES, 7), reversed_game()
    rules = clockwise.rules
    differs = [
        q
        for q in range(1, 13)
        if (components("clockwise").route[q] in REVEALING_STATIONS)
        != (components("reversed").route[q] in REVEALING_STATIONS)
    ]
    assert differs
    for q in differs:
        text = f"move {q}"
        cw = rules.reveals(rules.parse(clockwise.state, text))
        rev = rules.reveals(rules.parse(backwards.state, text))
        assert cw == (components("clockwise").route[q] in REVEALING_STATIONS)
        assert rev == (components("reversed").route[q] in REVEALING_STATIONS) != cw
        assert rules.reveals(parse(text))  # without a state, the cautious answer: no undo


def test_the_computer_players_value_the_station_of_the_direction() -> None:
    match = reversed_game()
    seat = match.current_seat
    assert seat is not None
    view = match.view(seat)
    me = _me(view)
    value = action_value(view, me, parse("move 1"))
    assert value == STATION_VALUE["N"]  # clockwise it would be F


@pytest.mark.parametrize("players", [2, 4])
def test_the_computer_players_finish_a_reversed_game(players: int) -> None:
    for name in games.rules_for("namiji").players:
        player = games.computer_player("namiji", name)
        match = reversed_game([f"Player {i}" for i in range(players)], seed=11)
        while (seat := match.current_seat) is not None:
            match.play(player(match.view(seat), len(match.log)), seat=seat)
        assert match.outcome is not None


def test_a_copy_of_a_reversed_game_sails_the_same_way() -> None:
    """Copies (sequences, previews, the search's rollouts) and guessed states keep the direction."""
    match = reversed_game()
    assert match.rules.clone(match.state).direction == "reversed"
    seat = match.current_seat
    assert seat is not None
    assert state_from_view(match.view(seat), seed=3).direction == "reversed"
