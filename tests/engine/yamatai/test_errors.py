"""Errors: the right class and reason, and an error never changes the game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import games
from engine.errors import (
    EngineError,
    GameOver,
    InvalidNotation,
    NotYourTurn,
    UndoNotAllowed,
)
from tests.engine.yamatai.scenario import (
    BOARD,
    BOATS,
    COMP,
    CULTURES,
    Match,
    end_turn,
    entry_path,
    entry_spots,
    face_up_fleets,
    finish_round,
    give,
    new_match,
    others,
    refused,
    take_fleet,
    to_act,
)

# -- out of turn -----------------------------------------------------------------------------


def test_playing_for_another_seat_raises_not_your_turn(natural: Match) -> None:
    error = refused(natural, "fleet 2", error=NotYourTurn, seat=others(natural)[0])
    assert error.code == "not_your_turn"
    natural.play(natural.legal_actions()[0], seat=natural.current_seat)


def test_a_sequence_running_past_the_end_of_the_turn_changes_nothing(m: Match) -> None:
    face_up_fleets(m, [1, 2, 3, 4, 5])
    error = refused(m, "fleet 1; keep bamboo; end; fleet 2", error=NotYourTurn)
    assert error.reason == "sequence_past_turn"


def test_a_sequence_may_not_run_into_the_same_players_second_turn() -> None:
    """R28: in a 2-player round [b, b, a, a] a sequence still stops at the end of a turn."""
    m = games.new("yamatai", ["Ann", "Bo"], seed=3)
    m.state.turn_order = [1, 1, 0, 0]
    before = m.to_json()
    with pytest.raises(NotYourTurn) as caught:
        m.play("fleet 1; keep bamboo; end; fleet 2", seat=1)
    assert caught.value.reason == "sequence_past_turn"
    assert m.to_json() == before


# -- illegal actions -------------------------------------------------------------------------


def test_an_action_of_a_passed_step_is_refused(m: Match) -> None:
    take_fleet(m, 6)
    m.play(f"place wood {entry_spots()[0]}")
    error = refused(m, "buy stone", "wrong_phase")
    assert error.code == "illegal_action"


def test_an_unaffordable_purchase_is_refused(m: Match) -> None:
    give(m, to_act(m), coins=2)
    take_fleet(m, 1)
    error = refused(m, "buy stone", "unaffordable")
    assert error.legal == ["buy bamboo", "buy wood"]  # what is legal instead, of the same kind


def test_a_purchase_from_an_empty_reserve_is_refused(m: Match) -> None:
    m.state.reserve[BOATS.index("stone")] = 0
    take_fleet(m, 1)
    refused(m, "buy stone", "reserve_empty")


def test_a_broken_chain_is_refused(m: Match) -> None:
    first, second, third = entry_path(3)
    take_fleet(m, 10, "bamboo")
    m.play(f"place clay {first}")
    refused(m, f"place wood {third}", "broken_chain")
    m.play(f"place wood {second}; place bamboo {third}")


def test_a_boat_you_do_not_hold_cannot_be_placed_or_sold(m: Match) -> None:
    take_fleet(m, 1)
    refused(m, f"place gold {entry_spots()[0]}", "no_such_boat")
    refused(m, "sell clay", "no_such_boat")


# -- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("dance", "unknown_action"),
        ("fleet", "bad_arguments"),
        ("fleet x", "bad_arguments"),
        ("fleet 11", "unknown_fleet"),
        ("fleet 10 plastic", "unknown_boat"),
        ("buy plastic", "unknown_boat"),
        ("buy wood stone", "bad_arguments"),
        ("place wood 99", "unknown_spot"),
        ("place wood", "bad_arguments"),
        ("collect Z9", "unknown_island"),
        ("collect", "bad_arguments"),
        ("build B99 A1", "unknown_tile"),
        ("build B01", "bad_arguments"),
        ("recruit Zeus rice rice", "unknown_specialist"),
        ("recruit Yasoma rice", "bad_arguments"),
        ("recruit Yasoma caviar caviar", "unknown_culture"),
        ("end hold wood", "bad_arguments"),
        ("look now", "bad_arguments"),
        ("arrange", "bad_arguments"),
        ("arrange B01 / B02 / B03", "bad_arguments"),
        ("swap cards A1 A2", "bad_arguments"),
        ("remove 1 2 3", "bad_arguments"),
        ("raijin wood", "bad_arguments"),
        ("hetsuka caviar", "unknown_culture"),
        ("x" * 2001, "too_long"),
    ],
)
def test_text_that_is_not_an_action_raises_invalid_notation(
    m: Match, text: str, reason: str
) -> None:
    error = refused(m, text, reason, error=InvalidNotation)
    assert error.code == "invalid_notation"


@pytest.mark.parametrize("text", ["fleet \u00b2", "build B\u00b2 A1", "reserve B\u00b2"])
def test_unusual_digits_raise_invalid_notation(m: Match, text: str) -> None:
    # str.isdigit() accepts superscript digits that int() rejects.
    refused(m, text, error=InvalidNotation)


def test_notation_is_forgiving_about_case_spaces_and_aliases(m: Match) -> None:
    me = to_act(m)
    m.play("  FLEET   6 ")
    m.play("Buy Brown")
    assert m.log[-1] == (me, "buy wood")


# -- sequences -------------------------------------------------------------------------------


def test_a_whole_turn_in_one_sequence_is_applied_at_once(m: Match) -> None:
    first, second = entry_path(2)
    events = m.play(f"fleet 6; buy clay; place clay {first}; place wood {second}")
    assert [e["type"] for e in events] == ["fleet", "buy", "place", "place"]
    assert [text for _, text in m.log] == [
        "fleet 6",
        "buy clay",
        f"place clay {first}",
        f"place wood {second}",
    ]


def test_an_illegal_action_in_the_middle_of_a_sequence_changes_nothing(m: Match) -> None:
    first, second = entry_path(2)
    error = refused(m, f"fleet 6; buy clay; buy stone; place clay {first}", "no_trades_left")
    assert "Action 3" in str(error)
    refused(m, f"fleet 6; place wood {first}; place bamboo 80", "broken_chain")
    refused(m, f"fleet 6; buy clay; place stone {second}", "no_such_boat")


def test_bad_notation_in_the_middle_of_a_sequence_changes_nothing(m: Match) -> None:
    refused(m, "fleet 6; buy clay; fly away", "unknown_action", error=InvalidNotation)


# -- game over and undo ----------------------------------------------------------------------


def test_after_the_game_ends_play_raises_game_over(m: Match) -> None:
    m.state.reserve[BOATS.index("gold")] = 0
    finish_round(m)
    assert m.current_seat is None and m.outcome is not None
    assert m.legal_actions() == []
    for seat in (None, 0):
        error = refused(m, "fleet 1", error=GameOver, seat=seat)
        assert error.code == "game_over"
    refused(m, "dance", error=GameOver)
    with pytest.raises(UndoNotAllowed) as caught:
        m.undo()
    assert caught.value.reason == "game_over"


def test_undo_takes_back_the_last_action_of_the_turn_only(natural: Match) -> None:
    me = to_act(natural)
    with pytest.raises(UndoNotAllowed) as caught:
        natural.undo()
    assert caught.value.reason == "turn_start"
    natural.play(natural.legal_actions()[0])
    after_fleet = natural.to_json()
    natural.play("buy bamboo")
    with pytest.raises(UndoNotAllowed) as caught:
        natural.undo(seat=(me + 1) % 3)
    assert caught.value.reason == "not_yours"
    assert natural.undo() == "buy bamboo"
    assert natural.to_json() == after_fleet
    end_turn(natural)
    with pytest.raises(UndoNotAllowed) as caught:
        natural.undo()
    assert caught.value.reason == "turn_start"


# -- fuzzing ---------------------------------------------------------------------------------

WORDS = (
    "fleet buy sell place collect build recruit end keep reserve look arrange slide sacred swap "
    "tokens boats remove raijin nakatsu michimata hetsuka kachiko ebisu / ; ;; 0 1 2 3 10 11 -1 "
    "00 1.5 B Z9 @ \u00b2 \u0661 \u00e9"
)
VOCABULARY = [
    *WORDS.split(),
    *BOATS,
    *CULTURES,
    *COMP.specialists,
    *BOARD.island_labels,
    *BOARD.spot_labels,
    *COMP.buildings,
]
RICH_SPECIALISTS = ["Raijin", "Nakatsu", "Michimata", "Hetsuka", "Kachiko", "Ebisu", "Tomoe"]


def position(players: int, seed: int, steps: int, rich: bool) -> Match:
    """A position reached by ``steps`` random legal actions (rich: one seat has many powers)."""
    m = new_match(players, seed)
    if rich:
        seat = to_act(m)
        give(m, seat, specialists=RICH_SPECIALISTS, tokens=dict.fromkeys(CULTURES, 2))
        m.state.sacred[0] = True
        m.state.sacred_left -= 1
    chooser = random.Random(seed)
    for _ in range(steps):
        legal = m.legal_actions()
        if not legal:
            break
        m.play(chooser.choice(legal))
    return m


def mutate(action: str, draw: st.DrawFn) -> str:
    """A legal action with one word dropped, doubled, replaced or recased, or a tail added."""
    words = action.split()
    how = draw(st.sampled_from(["drop", "double", "replace", "upper", "tail", "join"]))
    at = draw(st.integers(0, len(words) - 1))
    if how == "drop":
        del words[at]
    elif how == "double":
        words.insert(at, words[at])
    elif how == "replace":
        words[at] = draw(st.sampled_from(VOCABULARY))
    elif how == "upper":
        words[at] = words[at].upper()
    elif how == "tail":
        words += draw(st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=3))
    else:
        return action + "; " + " ".join(draw(st.lists(st.sampled_from(VOCABULARY), max_size=4)))
    return " ".join(words)


@st.composite
def probes(draw: st.DrawFn) -> tuple[Match, str]:
    m = position(
        draw(st.integers(2, 4)),
        draw(st.integers(0, 10_000)),
        draw(st.integers(0, 40)),
        draw(st.booleans()),
    )
    legal = m.legal_actions()
    kind = draw(st.sampled_from(["text", "words", "mutation"] if legal else ["text", "words"]))
    if kind == "text":
        text = draw(st.text(max_size=40))
    elif kind == "words":
        text = " ".join(draw(st.lists(st.sampled_from(VOCABULARY), max_size=6)))
    else:
        text = mutate(draw(st.sampled_from(legal)), draw)
    return m, text


def assert_safe(m: Match, text: str) -> None:
    """play either succeeds, or raises an EngineError and changes nothing."""
    before = m.to_json()
    log = list(m.log)
    try:
        m.play(text)
    except EngineError:
        assert m.to_json() == before
        assert m.log == log
    else:
        assert games.from_json(m.to_json()).to_json() == m.to_json()


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(probes())
def test_fuzz_play_never_crashes_and_errors_change_nothing(probe: tuple[Match, str]) -> None:
    m, text = probe
    assert_safe(m, text)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.text(max_size=60), st.integers(0, 3))
def test_fuzz_random_text_at_the_start_of_a_game(text: str, seat: int) -> None:
    m = new_match(3, 7)
    before = m.to_json()
    try:
        m.play(text, seat=seat % 3)
    except EngineError:
        assert m.to_json() == before


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    st.sampled_from(["fleet ", "reserve B", "build B", "place wood ", "collect A"]),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=3),
)
def test_fuzz_any_unicode_digits_in_numbers(prefix: str, number: str) -> None:
    m = new_match(3, 7)
    text = prefix + number + (" A1" if prefix == "build B" else "")
    assert_safe(m, text)


def test_a_long_word_is_echoed_short(natural: Match) -> None:
    """An error repeats at most a few dozen characters of what was typed, then explains."""
    error = refused(natural, "fleet " + "1" * 1900, error=InvalidNotation)
    assert len(error.message) < 200 and "numbered 1 to 10" in error.message
    error = refused(natural, "place wood " + "9" * 1900, error=InvalidNotation)
    assert len(error.message) < 200
