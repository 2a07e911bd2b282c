"""The end of a round, the four end conditions, the tie-break and the final scoring."""

from __future__ import annotations

from engine import games
from tests.engine.yamatai.scenario import (
    Match,
    end_turn,
    events_of,
    face_up_fleets,
    final,
    finish_round,
    give,
    new_match,
    pass_turn,
    reserve,
    set_specialists,
    store_boats,
    take_fleet,
    to_act,
)

GOLD = 4


def play_round(m: Match, fleets: list[int]) -> list[dict[str, object]]:
    """Each meeple in turn takes the given fleet and ends a quiet turn."""
    events: list[dict[str, object]] = []
    for number in fleets:
        events += pass_turn(m, fleet=number)
    return events


# -- end of round ----------------------------------------------------------------------------


def test_each_face_up_specialist_gains_two_coins_and_the_track_is_refilled(m: Match) -> None:
    set_specialists(m, ["Yasoma", "Riu", "Tomoe", "Ebisu", "Raijin"], coins=[0, 1, 2, 3, 4])
    newcomer = m.state.specialist_deck[0]
    give(m, to_act(m), tokens={"tea": 2})
    take_fleet(m, 1)
    store_boats(m)
    m.play("recruit Riu tea tea")
    end_turn(m)
    finish_round(m)
    assert m.state.round == 2
    assert m.state.specialist_track == ["Yasoma", newcomer, "Tomoe", "Ebisu", "Raijin"]
    assert m.state.specialist_coins == [2, 0, 4, 5, 6]


def test_the_building_row_is_refilled_to_five(m: Match) -> None:
    next_tile = m.state.building_deck[0]
    take_fleet(m, 2)
    m.play("reserve P1")
    assert len(m.state.building_row) == 4
    end_turn(m)
    finish_round(m)
    assert len(m.state.building_row) == 5
    assert m.state.building_row[-1] == next_tile
    assert "P1" not in m.state.building_row


def test_next_round_turn_order_follows_the_fleet_numbers(m: Match) -> None:
    first, second, third = m.state.turn_order
    events = play_round(m, [8, 3, 5])
    assert m.state.turn_order == [second, third, first]
    start = events_of(events, "round_start")[0]
    assert start == {"type": "round_start", "round": 2, "turn_order": [second, third, first]}
    assert m.current_seat == second


def test_two_players_play_two_meeples_each_ordered_by_their_fleets(m2: Match) -> None:
    a, b, a_again, b_again = m2.state.turn_order
    assert (a, b) == (a_again, b_again) and a != b
    play_round(m2, [9, 2, 4, 7])
    assert m2.state.round == 2
    assert m2.state.turn_order == [b, a, b, a]


def test_the_fleet_track_slides_left_and_played_fleets_go_face_down_on_the_right(
    m: Match,
) -> None:
    face_up_fleets(m, [1, 2, 3, 4, 5])
    assert m.state.fleet_track == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    play_round(m, [1, 3, 5])
    track = m.state.fleet_track
    assert track[:7] == [2, 4, 6, 7, 8, 9, 10]
    assert sorted(track[7:]) == [1, 3, 5]
    shown = m.view(None)["fleet_track"]
    assert [e["fleet"] for e in shown if e["face_up"]] == [2, 4, 6, 7, 8]
    assert all(e.get("hidden") for e in shown[5:])


def test_a_round_in_a_four_player_game_leaves_five_fleets_face_up() -> None:
    m = new_match(players=4, seed=3)
    finish_round(m)
    assert m.state.round == 2
    assert len([f for f in m.state.fleet_track[:5] if f]) == 5
    assert sorted(m.state.fleet_track) == list(range(1, 11))


# -- end conditions --------------------------------------------------------------------------


def test_an_exhausted_boat_colour_ends_the_game_at_the_next_round_setup(m: Match) -> None:
    pass_turn(m)
    m.state.reserve[GOLD] = 0
    pass_turn(m, fleet=1)
    assert m.current_seat is not None  # not before the round is over
    events = finish_round(m)
    assert m.current_seat is None
    assert events_of(events, "game_end")[0]["reasons"] == ["boats"]
    assert m.outcome is not None and final(m)["end_reason"] == "boats"
    assert final(m)["rounds"] == 1


def test_a_boat_colour_back_in_the_reserve_before_round_setup_lets_the_game_go_on(
    m: Match,
) -> None:
    m.state.reserve[3] = 0  # clay
    me = to_act(m)
    take_fleet(m, 1)
    give(m, me, boats={"clay": 1})
    m.play("sell clay")
    end_turn(m)
    play_round(m, [2, 3])  # fleets without clay
    assert reserve(m)["clay"] == 1
    assert m.current_seat is not None and m.state.round == 2


def test_the_game_ends_when_the_specialist_track_cannot_be_refilled(m: Match) -> None:
    m.state.specialist_deck = []
    name = next(s for s in m.state.specialist_track if s)
    give(m, to_act(m), tokens={"rice": 2})
    take_fleet(m, 1)
    store_boats(m)
    m.play(f"recruit {name} rice rice")
    end_turn(m)
    assert m.current_seat is not None
    finish_round(m)
    assert m.outcome is not None and final(m)["end_reasons"] == ["specialists"]


def test_an_empty_specialist_deck_with_a_full_track_lets_the_game_go_on(m: Match) -> None:
    m.state.specialist_deck = []
    finish_round(m)
    assert m.current_seat is not None and m.state.round == 2


def test_the_game_ends_when_the_building_row_cannot_be_refilled(m: Match) -> None:
    m.state.building_deck = []
    take_fleet(m, 2)
    m.play("reserve P1")
    end_turn(m)
    finish_round(m)
    assert m.outcome is not None and final(m)["end_reasons"] == ["buildings"]


def test_every_end_condition_met_at_round_setup_is_recorded(m: Match) -> None:
    m.state.building_deck = []
    m.state.specialist_deck = []
    m.state.reserve[GOLD] = 0
    name = next(s for s in m.state.specialist_track if s)
    give(m, to_act(m), tokens={"rice": 2})
    take_fleet(m, 2)
    m.play(f"reserve P1; keep wood; recruit {name} rice rice")
    end_turn(m)
    finish_round(m)
    assert m.outcome is not None
    assert sorted(final(m)["end_reasons"]) == ["boats", "buildings", "specialists"]


def test_without_an_end_condition_rounds_go_on(m: Match) -> None:
    for _ in range(3):
        finish_round(m)
    assert m.state.round == 4 and m.outcome is None


# -- winner ----------------------------------------------------------------------------------


def test_a_tie_goes_to_the_player_who_played_first_in_the_last_round(m: Match) -> None:
    first, second, third = m.state.turn_order
    m.state.reserve[GOLD] = 0  # the game ends after this round
    play_round(m, [9, 5, 1])  # next round's order would have been third, second, first
    assert m.outcome is not None
    totals = {s["seat"]: s["total"] for s in final(m)["scores"]}
    assert totals[first] == totals[second] == totals[third]
    assert final(m)["winner"] == first
    assert final(m)["ranking"] == [first, second, third]


def test_a_tie_in_a_two_player_game_goes_to_the_first_meeple_of_the_last_round(
    m2: Match,
) -> None:
    a, b, _, _ = m2.state.turn_order
    play_round(m2, [3, 1, 4, 2])  # one boat each time, so both set aside as many
    assert m2.state.turn_order == [b, b, a, a]
    m2.state.reserve[GOLD] = 0
    play_round(m2, [1, 2, 3, 4])  # the next order would start with a
    assert m2.outcome is not None
    totals = [s["total"] for s in final(m2)["scores"]]
    assert totals[0] == totals[1]
    assert final(m2)["winner"] == b
    assert a != b


def test_the_most_prestige_points_win_whoever_played_first(m: Match) -> None:
    first, second, third = m.state.turn_order
    m.state.reserve[GOLD] = 0
    give(m, third, coins=15)
    play_round(m, [1, 2, 3])
    assert m.outcome is not None
    assert final(m)["winner"] == third
    assert final(m)["ranking"] == [third, first, second]


def test_final_scoring_has_every_line_of_the_rulebook(m: Match) -> None:
    first, second, last = m.state.turn_order
    m.state.reserve[GOLD] = 0
    pass_turn(m)
    pass_turn(m)
    st = m.state
    give(
        m,
        last,
        coins=12,
        pp_tokens=3,
        specialists=["Yasoma", "Riu"],
        boats={},
        set_aside={"bamboo": 2, "stone": 1},
    )
    st.players[last].tiles = ["B10", "T1"]
    st.players[last].reserved = ["B05"]
    take_fleet(m, 1)
    m.play("keep bamboo; end")
    assert m.outcome is not None
    score = final(m)["scores"][last]
    assert score["lines"] == {
        "coins": 2,  # +1 PP per 5 coins
        "pp_tokens": 3,  # +1 PP per token
        "buildings": 3 + 4,  # B10 and T1
        "specialists": 6 + 3,  # Yasoma and Riu
        "reserved": -1,  # one reserved building not built
        "set_aside": -1,  # -1 PP per 2 boats set aside
    }
    assert score["total"] == 19
    assert final(m)["winner"] == last
    assert score["rank"] == 1
    assert {s["seat"] for s in final(m)["scores"]} == {first, second, last}


# -- saving ----------------------------------------------------------------------------------


def test_a_saved_game_loads_and_plays_on_identically(natural: Match) -> None:
    pass_turn(natural)
    natural.play(natural.legal_actions()[0])
    text = natural.to_json()
    loaded = games.from_json(text)
    assert loaded.to_json() == text
    assert loaded.legal_actions() == natural.legal_actions()
    for match in (natural, loaded):
        end_turn(match)
        finish_round(match)
    assert loaded.to_json() == natural.to_json()


# -- set-up ----------------------------------------------------------------------------------


def test_setup_gives_ten_coins_and_standard_buildings_by_player_count() -> None:
    for players, each in ((2, 10), (3, 8), (4, 6)):
        m = new_match(players, seed=11)
        assert [p.coins for p in m.state.players] == [10] * players
        assert [p.buildings_left for p in m.state.players] == [each] * players
        assert len([f for f in m.state.fleet_track[:5] if f]) == 5
        assert len(m.state.building_row) == 5
        assert len([s for s in m.state.specialist_track if s]) == 5
        assert sorted(m.state.turn_order) == sorted(
            list(range(players)) * (2 if players == 2 else 1)
        )


def test_setup_puts_thirty_culture_tokens_and_seven_mountains_on_the_board(
    natural: Match,
) -> None:
    tokens_on_board = [t for t in natural.state.island_tokens if t >= 0]
    assert len(tokens_on_board) == 30  # 34 tokens, the 4 blank ones removed
    assert sorted(tokens_on_board) == sorted(list(range(6)) * 5)
    mountains = [i for i, mountain in enumerate(natural.state.mountains) if mountain]
    assert len(mountains) == 7
    cultures_on_mountains = sorted(natural.state.island_tokens[i] for i in mountains)
    assert cultures_on_mountains == [-1, 0, 1, 2, 3, 4, 5]  # one of each, and a blank one


def test_the_public_view_hides_face_down_fleets_and_deck_order(natural: Match) -> None:
    view = natural.view(None)
    hidden = [e for e in view["fleet_track"] if not e["face_up"]]
    assert len(hidden) == 5 and all(e["fleet"] is None and e["hidden"] for e in hidden)
    assert view["building_deck"] == len(natural.state.building_deck)
    assert view["specialist_deck"] == len(natural.state.specialist_deck)
