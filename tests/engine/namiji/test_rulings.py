"""Namiji's rulings (docs/rules.md, section Namiji): each N-number checked through Match."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, InvalidNotation
from tests.engine.namiji.scenario import (
    GREEN,
    PINK,
    at_station,
    new,
    place,
    play,
    points,
    state,
)


def test_n1_double_spaces_at_two_or_three_players_keep_only_the_route_spot() -> None:
    match = new(3)
    place(match, (1, 0), (2, 0), (20, 0))  # pink on the route spot of double space 2
    assert "move 2" not in match.legal_actions()
    assert "move 3" in match.legal_actions()
    match4 = new(4)
    place(match4, (1, 0), (2, 0), (20, 0), (21, 0))
    play(match4, "move 2")
    assert state(match4).boats[GREEN].spot == 1


def test_n3_no_boat_sails_past_a_pontoon_and_the_pontoon_holds_all() -> None:
    match = new(3)
    place(match, (5, 0), (13, 1), (13, 2))
    legal = match.legal_actions()
    assert legal[-1] == "move 13 slot 3" and all(int(a.split()[1]) <= 13 for a in legal)


def test_n3_arrival_tokens_go_in_order_and_the_game_ends_with_the_last_boat() -> None:
    match = new(3)
    place(match, (50, 0), (51, 0), (52, 1))
    state(match).arrivals = ["A5", "A3"]
    events = play(match, "move 52", "end")
    assert points(events, "arrival") == 5 and match.current_seat == PINK
    events = play(match, "move 52", "end")
    assert points(events, "arrival") == 3
    assert match.outcome is not None and match.legal_actions() == []


def test_n5_no_stop_at_a_completed_panorama() -> None:
    match = new(3)
    state(match).players[GREEN].panoramas["O"] = 4
    place(match, (6, 0), (20, 0), (21, 0))
    assert "move 7" not in match.legal_actions() and "move 8" in match.legal_actions()


def test_n5_the_first_to_complete_a_panorama_takes_its_bonus() -> None:
    match = new(3)
    st = state(match)
    st.players[GREEN].panoramas["D"] = 2
    st.players[PINK].panoramas["D"] = 2
    place(match, (1, 0), (3, 0), (20, 0))
    events = play(match, "move 2", "end")
    assert points(events, "panorama_bonus") == 3 and st.players[GREEN].bonuses == ["BD"]
    place(match, (22, 0), (1, 0), (20, 0))
    events = play(match, "move 2", "end")
    assert points(events, "panoramas") == 3 and points(events, "panorama_bonus") == 0


def test_n6_fishing_reveals_another_fish_and_a_released_fish_stays_face_up() -> None:
    match = new(3)
    st = state(match)
    st.bank_up, st.bank_down = ["os"], ["gf", "bt"]
    place(match, (0, 3), (5, 0), (6, 0))
    play(match, "move 1")
    assert match.legal_actions() == ["fish os", "fish hidden"]
    play(match, "fish os")
    assert st.bank_up == ["bt"] and st.bank_down == ["gf"] and st.catch == "os"
    assert match.legal_actions() == ["keep r1c1", "release"]  # the first token goes top left
    play(match, "release")
    assert st.bank_up == ["bt", "os"]
    play(match, "end")


def test_n7_a_net_covers_two_cells_and_a_refused_net_goes_under_the_pile() -> None:
    match = new(3)
    st = state(match)
    st.net_pile = ["gf", "bs", "os"]
    place(match, (4, 0), (20, 0), (21, 0))
    play(match, "move 5")
    assert st.nets_shown == ["os"]
    assert match.legal_actions() == ["net N:os r1c1 h", "net N:os r1c1 v", "refuse"]
    play(match, "refuse")
    assert st.net_pile == ["os", "gf", "bs"] and not st.nets_shown
    at_station(match, GREEN, ["net"])
    st.nets_shown = [st.net_pile.pop()]
    play(match, "net N:bs r1c1 v")
    assert st.players[GREEN].crate[0] == st.players[GREEN].crate[4] == "bs"
    assert st.players[GREEN].nets == ["bs r1c1 v"]


def test_a_kept_fish_and_a_placed_net_make_events_before_the_lines_they_fill() -> None:
    """D23: the turn message and /log tell them from the engine's events, not the notation."""
    match = new(3)
    st = state(match)
    at_station(match, GREEN, ["catch"])
    st.catch = "os"
    st.players[GREEN].crate = ["os", "os", "os", ""] + [""] * 8
    events = play(match, "keep r1c4")
    kept = {"type": "kept", "seat": GREEN, "fish": "os", "cell": "r1c4"}
    assert events[0] == kept and events[1]["type"] == "crate_line"
    at_station(match, GREEN, ["net"])
    st.nets_shown = ["gt"]
    events = play(match, "net N:gt r2c1 v")
    net = {"type": "net_placed", "seat": GREEN, "net": "gt", "cell": "r2c1", "orientation": "v"}
    assert events == [net]


def test_n8_the_trap_draws_at_least_once_and_the_second_crab_loses_the_draw() -> None:
    match = new(3)
    st = state(match)
    at_station(match, GREEN, ["trap"])
    assert match.legal_actions() == ["draw"]
    st.bag = {"SH": 0, "CB": 20}
    events = play(match, "draw", "draw")
    assert [e["type"] for e in events if e["type"] == "trap_lost"] == ["trap_lost"]
    assert st.bag == {"SH": 0, "CB": 20} and st.players[GREEN].trap == []
    assert match.legal_actions() == ["end"]


def test_n8_five_draws_at_most_then_the_catch_is_kept() -> None:
    match = new(3)
    st = state(match)
    st.bag = {"SH": 30, "CB": 0}
    at_station(match, GREEN, ["trap"])
    events = play(match, "draw", "draw", "stop")
    assert points(events, "crustaceans") == 2
    at_station(match, GREEN, ["trap"])
    events = play(match, "draw", "draw", "draw", "draw", "draw")
    assert points(events, "crustaceans") == 5 and match.legal_actions() == ["end"]


def test_n9_the_whirlpool_takes_the_top_offering() -> None:
    match = new(3)
    st = state(match)
    place(match, (5, 0), (20, 0), (21, 0))
    play(match, "move 6", "end")
    assert st.players[GREEN].offerings == 3
    st.players[PINK].offerings = 0
    place(match, (45, 0), (43, 0), (46, 0))
    play(match, "move 44", "end")
    assert st.players[PINK].offerings == 0


def test_n10_the_sacred_rock_card_kept_stays_hidden_from_the_others() -> None:
    match = new(3)
    st = state(match)
    place(match, (8, 0), (20, 0), (21, 0))
    play(match, "move 9")
    shown = sorted(st.rocks_shown)
    assert len(shown) == 2 and match.legal_actions() == [f"rock {c}" for c in shown]
    assert match.view(PINK)["rocks_shown"] == [] and match.view(GREEN)["rocks_shown"] == shown
    assert match.public_text(f"rock {shown[0]}") == "rock (a card kept face down)"
    play(match, f"rock {shown[0]}")
    assert st.players[GREEN].rocks == [shown[0]] and st.rock_deck[0] == shown[1]
    assert match.view(PINK)["players"][GREEN]["rocks"] == []
    assert match.view(PINK)["players"][GREEN]["rock_count"] == 1
    assert shown[0] in match.rules.secrets(st, PINK)


def test_n11_two_players_draft_from_four_and_the_neutral_boat_discards_at_random() -> None:
    match = new(2)
    st = state(match)
    place(match, (12, 0), (13, 2), (13, 1))  # the neutral boat holds slot 1
    play(match, "move 13 slot 3", "end")
    assert match.current_seat == PINK and len(st.hand) == 3  # one of 4 went with the neutral
    assert st.pontoon_deck[0] not in st.hand
    play(match, match.legal_actions()[0])
    assert match.current_seat == GREEN and len(match.legal_actions()) == 2


def test_n12_the_neutral_boat_arrival_token_is_discarded() -> None:
    match = new(2)
    st = state(match)
    place(match, (52, 1), (51, 0), (50, 0))
    st.arrivals = ["A5", "A3"]
    assert match.current_seat == GREEN  # the front player (arrived first) moves the neutral boat
    events = play(match, "move 52", "end")
    assert (
        st.arrivals == ["A3"]
        and {"type": "arrival", "boat": 2, "seat": None, "token": "A5"} in events
    )
    assert points(events, "arrival") == 0


def test_n13_upgrades_act_at_their_stations() -> None:
    match = new(3)
    st = state(match)
    green = st.players[GREEN]
    green.pontoon = ["U1", "U5", "U7", "U12"]
    place(match, (0, 3), (20, 0), (21, 0))
    play(match, "move 1")
    assert st.tasks == ["fish", "fish"]  # U1: fishing twice
    play(match, "fish hidden", "release", "fish hidden", "release", "end")
    place(match, (1, 0), (20, 0), (21, 0))
    events = play(match, "move 2", "end")  # U12: dolphin 1 and 2 at once
    assert points(events, "panoramas") == 3 and green.panoramas["D"] == 2
    place(match, (5, 0), (20, 0), (21, 0))
    play(match, "move 6")  # U7: a second offering, if wanted
    assert green.offerings == 3 and match.legal_actions() == ["offer", "end"]
    play(match, "offer", "end")
    assert green.offerings == 2
    at_station(match, GREEN, ["trap"])
    st.bag = {"SH": 0, "CB": 20}
    play(match, "draw", "draw")  # U5: the second crab does not lose the draw
    assert match.legal_actions() == ["draw", "stop"]


def test_n13_u11_chooses_another_panorama() -> None:
    match = new(3)
    st = state(match)
    st.players[GREEN].pontoon = ["U11"]
    st.players[GREEN].panoramas["W"] = 1
    place(match, (1, 0), (20, 0), (21, 0))
    play(match, "move 2")
    assert match.legal_actions() == ["panorama D", "panorama O", "panorama W"]
    events = play(match, "panorama W", "end")
    assert points(events, "panoramas") == 2 and st.players[GREEN].panoramas["D"] == 0


def test_n14_ties_share_the_victory() -> None:
    match = new(3)
    st = state(match)
    for player in st.players:
        player.offerings = 0
    place(match, (51, 0), (52, 2), (52, 1))
    st.arrivals = ["A3"]
    st.players[PINK].pontoon, st.players[PINK].score = ["M1"], 3
    play(match, "move 52", "end")
    outcome = match.outcome
    assert outcome is not None and outcome.winners == (GREEN, PINK)
    assert [r.rank for r in outcome.results] == [1, 1, 3]
    assert not outcome.tie_broken


def test_n15_a_revealing_stop_cannot_be_taken_back() -> None:
    match = new(3)
    place(match, (2, 0), (20, 0), (21, 0))
    play(match, "move 3")  # a trap: nothing shown yet
    assert match.can_undo()
    match.undo()
    play(match, "move 5")  # a net is revealed
    assert not match.can_undo()


def test_wrong_step_is_refused_with_a_reason() -> None:
    match = new(3)
    with pytest.raises(IllegalAction) as error:
        match.play("draw", seat=match.current_seat)
    assert error.value.reason == "wrong_step"


def test_n16_an_empty_supply_gives_nothing() -> None:
    match = new(3)
    st = state(match)
    st.net_pile, st.bank_up, st.bank_down = [], [], []
    place(match, (4, 0), (20, 0), (21, 0))
    play(match, "move 5")
    assert match.legal_actions() == ["end"]
    play(match, "end")
    place(match, (0, 3), (20, 0), (21, 0))
    play(match, "move 1")
    assert match.legal_actions() == ["end"]


def test_n13_the_other_upgrades() -> None:
    match = new(3)
    st = state(match)
    green = st.players[GREEN]
    green.pontoon = ["U2", "U3", "U4", "U6", "U8", "U9", "U10"]
    st.bank_up, st.bank_down = ["os"], ["gf", "bt", "bs", "gt"]
    place(match, (0, 3), (20, 0), (21, 0))
    play(match, "move 1")  # U2: three more fish face up before fishing
    assert st.bank_up == ["bs", "bt", "gt", "os"] and st.bank_down == ["gf"]
    play(match, "fish bt", "keep r1c1", "end")
    st.net_pile = ["gf", "bs", "os"]
    place(match, (4, 0), (20, 0), (21, 0))
    play(match, "move 5")  # U3: two nets shown; U4: then fishing
    assert st.nets_shown == ["os", "bs"]
    play(match, "net N:bs r1c2 h")
    assert st.net_pile == ["os", "gf"] and st.tasks == ["fish"]
    play(match, "fish gt", "release", "end")
    st.bag = {"SH": 30, "CB": 0}
    place(match, (5, 0), (20, 0), (21, 0))
    events = play(match, "move 6", "end")  # U8: one crustacean, whatever it is
    assert points(events, "crustaceans") == 1 and green.offerings == 3
    place(match, (8, 0), (20, 0), (21, 0))
    play(match, "move 9")  # U9: three cards; U10: one more offering
    assert len(st.rocks_shown) == 3 and green.offerings == 2
    play(match, match.legal_actions()[0], "end")
    assert len(st.rock_deck) == 19 and len(green.rocks) == 1  # two went under the deck
    at_station(match, GREEN, ["trap"])
    events = play(match, *["draw"] * 7)  # U6: up to 7 tokens
    assert points(events, "crustaceans") == 7


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("MOVE 13  slot 2", "move 13 slot 2"),
        ("fish OS", "fish os"),
        ("net n:os R1C1 H", "net N:os r1c1 h"),
        ("net os r2c3 v", "net N:os r2c3 v"),
        ("rock r05", "rock R05"),
        ("pick u12", "pick U12"),
        ("panorama w", "panorama W"),
    ],
)
def test_notation_ignores_case_and_spaces(text: str, canonical: str) -> None:
    assert new(3).canonical(text) == canonical


@pytest.mark.parametrize(
    "text", ["move 53", "move 13 slot 6", "keep r4c1", "net N:xx r1c1 h", "rock R21"]
)
def test_notation_refuses_what_is_not_on_the_components(text: str) -> None:
    with pytest.raises(InvalidNotation):
        new(3).canonical(text)
