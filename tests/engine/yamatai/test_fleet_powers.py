"""The ten fleet tiles: their boats and their once-per-turn powers."""

from __future__ import annotations

import pytest

from engine.errors import UndoNotAllowed
from tests.engine.yamatai.scenario import (
    BOARD,
    Match,
    arrive,
    boats,
    coins,
    end_turn,
    entry_path,
    entry_spots,
    events_of,
    finish_round,
    fork,
    give,
    island,
    islands_of,
    landing,
    legal_starting,
    links,
    pass_turn,
    private_chain,
    put_boat,
    put_mountain,
    put_token,
    refused,
    reserve,
    score_lines,
    set_row,
    set_specialists,
    spot,
    spots_of,
    store_boats,
    surround,
    take_fleet,
    to_act,
    tokens,
)

POWER_WORDS = ("reserve", "look", "arrange", "slide", "sacred", "swap", "remove")


def power_actions(m: Match) -> list[str]:
    """Legal actions that use a fleet power."""
    return [a for a in m.legal_actions() if a.split()[0] in POWER_WORDS]


def spaced_spots() -> tuple[str, str, str]:
    """(a, b, far): a and b connected, each with other links too; far connected to neither."""
    a = next(s for s in sorted(BOARD.spot_labels, key=int) if len(links(s)) >= 3)
    b = next(s for s in links(a) if len(links(s)) >= 2)
    near = {a, b, *links(a), *links(b)}
    far = next(s for s in reversed(BOARD.spot_labels) if s not in near)
    return a, b, far


# -- 1: no power, first next round -----------------------------------------------------------


def test_fleet_1_gives_a_bamboo_boat_no_power_and_the_first_turn_next_round(m: Match) -> None:
    first, second, last = m.state.turn_order
    take_fleet(m, 5)
    end_turn(m)
    pass_turn(m, fleet=6)
    events = take_fleet(m, 1)
    assert events[0]["boats"] == ["bamboo"]
    assert power_actions(m) == []
    end_turn(m)
    assert m.state.round == 2
    assert m.state.turn_order == [last, first, second]
    assert m.current_seat == last


# -- 2: reserve ------------------------------------------------------------------------------


def test_fleet_2_reserves_a_tile_that_only_the_reserver_can_build(m: Match) -> None:
    target = "B2"  # five spots: room for the boats of two players
    set_row(m, ["B06"])  # G G W
    me = to_act(m)
    take_fleet(m, 2)
    assert m.play("reserve B06")[0] == {"type": "reserve", "seat": me, "tile": "B06"}
    assert m.state.players[me].reserved == ["B06"]
    assert "B06" not in m.state.building_row
    refused(m, "reserve P1", "power_used")
    end_turn(m)

    rival = to_act(m)
    take_fleet(m, 6)
    give(m, rival, boats={"wood": 1})
    first_landing, _ = landing(target)
    surround(m, target, ["bamboo", "bamboo"], skip=[first_landing])
    arrive(m, target, "wood")
    refused(m, f"build B06 {target}", "tile_not_available")
    assert legal_starting(m, "build") == []
    end_turn(m)

    while m.current_seat != me:
        pass_turn(m)
    assert m.state.round == 2
    m.play(legal_starting(m, "fleet")[0])
    give(m, me, boats={"bamboo": 1})
    taken = [s for s in spots_of(target) if spot(m, s)]
    arrive(m, target, "bamboo", avoid=taken)
    m.play(f"build B06 {target}")
    assert island(m, target).building == (me, "B06")
    assert m.state.players[me].reserved == []


def test_fleet_2_an_unbuilt_reservation_costs_one_point(m: Match) -> None:
    me = to_act(m)
    take_fleet(m, 2)
    assert score_lines(m, me)["reserved"] == 0
    m.play("reserve P1")
    assert score_lines(m, me)["reserved"] == -1


# -- 3: look and arrange ---------------------------------------------------------------------


def test_fleet_3_looks_at_three_tiles_and_puts_them_back_in_the_chosen_order(m: Match) -> None:
    me = to_act(m)
    deck = m.state.building_deck[:]
    first, second, third = deck[:3]
    take_fleet(m, 3)
    assert m.play("look")[0] == {"type": "look", "seat": me, "count": 3}
    looked = [t["id"] for t in m.view(me)["turn"]["looked"]]
    assert looked == [first, second, third]
    assert "looked" not in m.view((me + 1) % 3)["turn"]
    assert "looked" not in m.view(None)["turn"]
    m.play(f"arrange {third} {first} / {second}")
    assert m.state.building_deck[:3] == [third, first, deck[3]]
    assert m.state.building_deck[-1] == second
    assert len(m.state.building_deck) == len(deck)
    refused(m, "look", "power_used")


def test_fleet_3_bottom_tiles_keep_the_order_given(m: Match) -> None:
    deck = m.state.building_deck[:]
    first, second, third = deck[:3]
    take_fleet(m, 3)
    m.play("look")
    m.play(f"arrange / {second} {third} {first}")
    assert m.state.building_deck[0] == deck[3]
    assert m.state.building_deck[-3:] == [second, third, first]


def test_fleet_3_a_look_cannot_be_undone_and_must_be_arranged_first(m: Match) -> None:
    first, second, third = m.state.building_deck[:3]
    take_fleet(m, 3)
    m.play("look")
    before = m.to_json()
    with pytest.raises(UndoNotAllowed) as caught:
        m.undo()
    assert caught.value.reason == "revealed"
    assert m.to_json() == before
    assert not m.can_undo()
    assert all(a.startswith("arrange ") for a in m.legal_actions())
    for action in ("buy stone", "place stone 7", "keep stone", "end", "recruit Yasoma rice rice"):
        refused(m, action, "arrange_first")
    refused(m, f"arrange {first} {second}", "arrange_mismatch")
    refused(m, f"arrange {first} {second} {third} P1", "arrange_mismatch")
    m.play(f"arrange {first} {second} {third}")
    assert legal_starting(m, "buy")


# -- 4: slide --------------------------------------------------------------------------------


def test_fleet_4_slides_one_boat_to_a_connected_empty_spot(m: Match) -> None:
    a, b, far = spaced_spots()
    empty = next(s for s in links(a) if s != b)
    put_boat(m, "wood", a)
    put_boat(m, "stone", b)
    take_fleet(m, 4)
    refused(m, f"slide {a} {far}", "not_connected")
    refused(m, f"slide {a} {b}", "spot_taken")
    refused(m, f"slide {far} {a}", "no_boat")
    events = m.play(f"slide {a} {empty}")
    assert events[0]["from"] == a and events[0]["to"] == empty
    assert (spot(m, a), spot(m, empty)) == (None, "wood")
    refused(m, f"slide {empty} {a}", "power_used")


def test_fleet_4_a_slid_boat_placed_this_turn_still_counts_as_placed(m: Match) -> None:
    (start, after), (_, own_after) = private_chain(2)
    put_token(m, own_after, "pearl")
    me = to_act(m)
    take_fleet(m, 4)  # clay
    put_boat(m, "clay", next(s for s in links(start) if s != after))
    m.play(f"place clay {start}")
    m.play(f"slide {start} {after}")
    assert [s["label"] for s in m.view(me)["spots"] if s["placed_this_turn"]] == [after]
    m.play(f"collect {own_after}")
    assert tokens(m, me) == {"pearl": 1}


# -- 5: sacred ground ------------------------------------------------------------------------


def test_fleet_5_sacred_ground_goes_on_an_empty_island_and_blocks_building(m: Match) -> None:
    target = "B2"
    set_row(m, ["B01"])  # G G
    put_token(m, "A1", "rice")
    me = to_act(m)
    events = take_fleet(m, 5)
    assert events[0]["boats"] == ["gold"]
    refused(m, "sacred A1", "island_not_empty")
    m.play(f"sacred {target}")
    assert island(m, target).sacred
    assert m.state.sacred_left == 7
    refused(m, "sacred C1", "power_used")
    give(m, me, boats={"bamboo": 1})
    at, _ = landing(target)
    surround(m, target, ["bamboo"], skip=[at])
    arrive(m, target, "bamboo")
    refused(m, f"build B01 {target}", "island_not_empty")
    assert f"build B01 {target}" not in m.legal_actions()


# -- 6: swap tokens --------------------------------------------------------------------------


def test_fleet_6_swaps_two_culture_tokens_anywhere(m: Match) -> None:
    put_token(m, "A1", "rice")
    put_token(m, "G4", "sake")
    put_token(m, "D5", "rice")
    put_mountain(m, "A1")
    take_fleet(m, 6)
    refused(m, "swap tokens A1 D5", "same_token")
    refused(m, "swap tokens A1 C1", "no_token")
    m.play("swap tokens G4 A1")
    assert (island(m, "A1").token, island(m, "G4").token) == ("sake", "rice")
    assert island(m, "A1").mountain and not island(m, "G4").mountain  # mountains stay
    refused(m, "swap tokens A1 G4", "power_used")


# -- 7: remove -------------------------------------------------------------------------------


def test_fleet_7_removes_up_to_two_boats_to_the_reserve(m: Match) -> None:
    a, b, far = spaced_spots()
    put_boat(m, "clay", a)
    put_boat(m, "gold", b)
    put_boat(m, "wood", far)
    take_fleet(m, 7)
    before = reserve(m)
    events = m.play(f"remove {a} {b}")
    assert {x["boat"] for x in events[0]["boats"]} == {"clay", "gold"}
    assert (spot(m, a), spot(m, b), spot(m, far)) == (None, None, "wood")
    after = reserve(m)
    assert (after["clay"], after["gold"]) == (before["clay"] + 1, before["gold"] + 1)
    refused(m, f"remove {far}", "power_used")


def test_fleet_7_removes_a_single_boat_too(m: Match) -> None:
    a, _, far = spaced_spots()
    put_boat(m, "clay", a)
    take_fleet(m, 7)
    refused(m, f"remove {a} {far}", "no_boat")
    m.play(f"remove {a}")
    assert spot(m, a) is None


def test_removing_the_previous_boat_continues_the_chain_from_the_latest_placed_boat(
    m: Match,
) -> None:
    first, second, only_first, only_second = fork()
    take_fleet(m, 7)  # stone + bamboo
    give(m, to_act(m), boats={"stone": 1, "bamboo": 2})
    m.play(f"place stone {first}; place bamboo {second}")
    m.play(f"remove {second}")
    refused(m, f"place bamboo {only_second}", "broken_chain")
    m.play(f"place bamboo {only_first}")


def test_removing_every_placed_boat_restarts_with_the_first_boat_rules(m: Match) -> None:
    first, second = entry_path(2)
    other_entry = next(e for e in entry_spots() if e not in links(second) and e != first)
    me = to_act(m)
    put_token(m, islands_of(first)[0], "tea")
    take_fleet(m, 7)  # stone + bamboo
    m.play(f"place stone {first}")
    m.play(f"remove {first}")
    assert m.state.turn.placed == []
    refused(m, f"collect {islands_of(first)[0]}", "no_boats_placed")
    assert legal_starting(m, "keep")  # collecting is impossible: nothing placed counts
    m.play(f"place bamboo {other_entry}")
    assert boats(m, me) == {}


def test_removed_boats_placed_this_turn_no_longer_count_for_collecting(m: Match) -> None:
    (a, b), (own_a, own_b) = private_chain(2)
    put_token(m, own_a, "rice")
    put_token(m, own_b, "tea")
    me = to_act(m)
    take_fleet(m, 7)  # stone + bamboo
    put_boat(m, "stone", next(s for s in links(a) if s != b))
    m.play(f"place stone {a}; place bamboo {b}")
    m.play(f"remove {a}")
    refused(m, f"collect {own_a} {own_b}", "not_adjacent")
    m.play(f"collect {own_b}")
    assert tokens(m, me) == {"tea": 1}


# -- 8: swap boats ---------------------------------------------------------------------------


def test_fleet_8_swaps_two_boats_anywhere(m: Match) -> None:
    a, b, far = spaced_spots()
    put_boat(m, "wood", a)
    put_boat(m, "wood", b)
    put_boat(m, "gold", far)
    take_fleet(m, 8)
    refused(m, f"swap boats {a} {b}", "same_boat")
    m.play(f"swap boats {a} {far}")
    assert (spot(m, a), spot(m, far)) == ("gold", "wood")
    refused(m, f"swap boats {b} {far}", "power_used")


def test_fleet_8_the_placed_status_follows_the_boat(m: Match) -> None:
    """R4: after a swap, the boat you placed is the one now on the other spot."""
    (start, _), (own_start, _) = private_chain(2)
    target = "G4"
    far = spots_of(target)[0]
    assert far not in links(start)
    put_token(m, own_start, "rice")
    put_token(m, target, "silk")
    put_boat(m, "wood", far)
    me = to_act(m)
    take_fleet(m, 8)  # clay + bamboo
    put_boat(m, "clay", next(s for s in links(start)))
    m.play(f"place clay {start}")
    m.play(f"swap boats {start} {far}")
    assert (spot(m, start), spot(m, far)) == ("wood", "clay")
    assert m.view(me)["turn"]["placed"] == [far]
    refused(m, f"collect {own_start}", "not_adjacent")
    m.play(f"collect {target}")
    assert tokens(m, me) == {"silk": 1}


def test_fleet_8_a_same_type_swap_moves_your_placed_boat(m: Match) -> None:
    """R17: two clay boats swapped: the one you placed now stands where the other stood."""
    (start, _), (own_start, _) = private_chain(2)
    target = "G4"
    far = spots_of(target)[0]
    put_token(m, own_start, "rice")
    put_token(m, target, "silk")
    put_boat(m, "clay", far)
    put_boat(m, "clay", next(s for s in links(start)))
    me = to_act(m)
    take_fleet(m, 8)  # clay + bamboo
    m.play(f"place clay {start}")
    swap = m.canonical(f"swap boats {start} {far}")
    assert swap in m.legal_actions()
    m.play(swap)
    assert (spot(m, start), spot(m, far)) == ("clay", "clay")
    assert m.view(me)["turn"]["placed"] == [far]
    m.play(f"collect {target}")
    assert tokens(m, me) == {"silk": 1}


def test_fleet_8_a_swap_that_changes_nothing_is_refused(m: Match) -> None:
    """R17: same type, and both or neither placed this turn: nothing would change."""
    a, b, _ = spaced_spots()
    put_boat(m, "wood", a)
    put_boat(m, "wood", b)
    take_fleet(m, 8)
    refused(m, f"swap boats {a} {b}", "same_boat")
    assert m.canonical(f"swap boats {a} {b}") not in m.legal_actions()


# -- 9: one boat fewer -----------------------------------------------------------------------


def _build_with_a_stone_missing(m: Match, fleet: int, tile: str = "B09") -> None:
    target = "B2"
    set_row(m, [tile])
    me = to_act(m)
    take_fleet(m, fleet)
    give(m, me, boats={"wood": 1})
    at, _ = landing(target)
    surround(m, target, ["bamboo"], skip=[at])
    arrive(m, target, "wood")


def test_fleet_9_builds_with_one_boat_fewer_than_required(m: Match) -> None:
    _build_with_a_stone_missing(m, 9)
    events = m.play("build B09 B2")
    assert events_of(events, "build")[0]["tile"] == "B09"


def test_without_fleet_9_every_required_boat_is_needed(m: Match) -> None:
    _build_with_a_stone_missing(m, 6)
    refused(m, "build B09 B2", "missing_boats")


def test_fleet_9_allows_only_one_missing_boat(m: Match) -> None:
    _build_with_a_stone_missing(m, 9, "B18")  # G G W S: a bamboo and the stone are missing
    refused(m, "build B18 B2", "missing_boats")


# -- 10: third boat of your choice -----------------------------------------------------------


def test_fleet_10_gives_clay_wood_and_a_boat_of_your_choice_gold_included(m: Match) -> None:
    me = to_act(m)
    gold = reserve(m)["gold"]
    refused(m, "fleet 10", "choose_extra_boat")
    refused(m, "fleet 9 gold", "no_extra_boat")
    assert "fleet 10 gold" in m.legal_actions()
    events = take_fleet(m, 10, "gold")
    assert sorted(events[0]["boats"]) == ["clay", "gold", "wood"]
    assert boats(m, me) == {"wood": 1, "clay": 1, "gold": 1}
    assert reserve(m)["gold"] == gold - 1
    assert power_actions(m) == []


def test_fleet_10_cannot_name_a_boat_the_reserve_lacks(m: Match) -> None:
    m.state.reserve[4] = 0  # no gold left
    refused(m, "fleet 10 gold", "reserve_empty")
    assert "fleet 10 gold" not in m.legal_actions()
    take_fleet(m, 10, "clay")


# -- all powers ------------------------------------------------------------------------------


def test_a_fleet_power_can_be_used_at_any_point_of_the_turn(m: Match) -> None:
    put_token(m, "A1", "rice")
    put_token(m, "G4", "sake")
    me = to_act(m)
    give(m, me, tokens={"tea": 2})
    set_specialists(m, ["Yasoma"])
    take_fleet(m, 6)
    store_boats(m)
    m.play("recruit Yasoma tea tea")
    m.play("swap tokens A1 G4")  # after recruiting, the last optional step
    assert island(m, "A1").token == "sake"


def test_a_fleet_power_before_trading_leaves_the_trade_open(m: Match) -> None:
    a, b, _ = spaced_spots()
    put_boat(m, "wood", b)
    me = to_act(m)
    take_fleet(m, 4)
    m.play(f"slide {b} {next(s for s in links(b) if s != a)}")
    m.play("buy stone")
    assert coins(m, me) == 7


@pytest.mark.parametrize(
    "action",
    [
        "reserve P1",
        "look",
        "slide {a} {b}",
        "sacred C1",
        "swap tokens A1 G4",
        "remove {a}",
        "swap boats {a} {far}",
    ],
)
def test_the_power_of_a_fleet_you_did_not_take_is_illegal(m: Match, action: str) -> None:
    a, b, far = spaced_spots()
    put_boat(m, "wood", a)
    put_boat(m, "clay", far)
    put_token(m, "A1", "rice")
    put_token(m, "G4", "sake")
    take_fleet(m, 1)
    refused(m, action.format(a=a, b=b, far=far), "wrong_fleet")


def test_a_fleet_power_lasts_only_the_turn_the_fleet_is_played(m: Match) -> None:
    me = to_act(m)
    take_fleet(m, 2)
    end_turn(m)
    finish_round(m)
    while m.current_seat != me:
        pass_turn(m)
    m.play(next(f for f in legal_starting(m, "fleet") if not f.startswith("fleet 2")))
    refused(m, "reserve P1", "wrong_fleet")


def test_fleet_3_with_fewer_than_three_tiles_left_looks_at_all_of_them(m: Match) -> None:
    m.state.building_deck = m.state.building_deck[:2]
    first, second = m.state.building_deck
    take_fleet(m, 3)
    assert m.play("look")[0]["count"] == 2
    assert m.state.turn.looked == [first, second]
    m.play(f"arrange {second} {first}")
    assert m.state.building_deck == [second, first]


def test_fleet_3_cannot_look_at_an_empty_deck(m: Match) -> None:
    m.state.building_deck = []
    take_fleet(m, 3)
    refused(m, "look", "deck_empty")
    assert "look" not in m.legal_actions()


def test_fleet_5_needs_a_sacred_ground_token_left(m: Match) -> None:
    m.state.sacred_left = 0
    take_fleet(m, 5)
    refused(m, "sacred C1", "no_sacred_ground")
    assert legal_starting(m, "sacred") == []


def test_the_chain_continues_from_where_the_previous_boat_was_slid(m: Match) -> None:
    first, second, only_first, only_second = fork()
    take_fleet(m, 4)  # clay
    give(m, to_act(m), boats={"clay": 2})
    m.play(f"place clay {first}")
    m.play(f"slide {first} {second}")
    refused(m, f"place clay {only_first}", "broken_chain")
    m.play(f"place clay {only_second}")


def test_a_fleet_whose_boats_ran_out_gives_no_compensation(m: Match) -> None:
    me = to_act(m)
    m.state.reserve[0] = 0  # no bamboo left
    events = take_fleet(m, 6)  # wood + bamboo
    assert events[0]["boats"] == ["wood"] and events[0]["missing"] == ["bamboo"]
    assert boats(m, me) == {"wood": 1}
    assert coins(m, me) == 10
