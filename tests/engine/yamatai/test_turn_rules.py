"""The order and constraints of a player's turn."""

from __future__ import annotations

import pytest

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
    final,
    fork,
    give,
    hub,
    island,
    islands_of,
    landing,
    legal_starting,
    links,
    pass_turn,
    private_chain,
    put_boat,
    put_token,
    refused,
    set_row,
    set_specialists,
    surround,
    take_fleet,
    to_act,
    tokens,
)


def two_token_spot() -> tuple[str, str, str]:
    """(spot, island, island): a spot touching two islands, neither touching any entry spot."""
    for at in entry_path(6)[2:]:
        if len(islands_of(at)) == 2:
            first, second = islands_of(at)
            return at, first, second
    raise AssertionError("no spot between two islands on the path")


def shared_pair() -> tuple[str, str, str]:
    """(a, b, island): connected spots (a with another link) both touching the island."""
    for a in BOARD.spot_labels:
        for b in links(a):
            common = [i for i in islands_of(a) if i in islands_of(b)]
            if common and len(links(a)) >= 2:
                return a, b, common[0]
    raise AssertionError("no two connected spots sharing an island")


# -- the fleet comes first -------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        "buy wood",
        "sell wood",
        "place wood 7",
        "collect A1",
        "build P1 A1",
        "recruit Yasoma rice rice",
        "keep wood",
        "end",
        "end keep wood",
        "reserve P1",
        "look",
        "arrange P1",
        "slide 7 15",
        "sacred A1",
        "swap tokens A1 B1",
        "remove 7",
        "swap boats 7 15",
        "raijin wood bamboo",
        "nakatsu wood bamboo",
        "michimata rice",
        "hetsuka rice",
        "kachiko A1",
        "ebisu A1",
    ],
)
def test_every_action_before_the_fleet_is_refused(m: Match, action: str) -> None:
    me = to_act(m)
    give(m, me, boats={"wood": 1, "bamboo": 1}, tokens={"rice": 2})
    for name in ("Raijin", "Nakatsu", "Michimata", "Hetsuka", "Kachiko", "Ebisu"):
        give(m, me, specialists=[name])
    refused(m, action, "choose_fleet_first")


def test_at_the_start_of_a_turn_only_fleets_are_legal(m: Match) -> None:
    give(m, to_act(m), boats={"wood": 1}, tokens={"rice": 2})
    legal = m.legal_actions()
    assert legal and all(a.startswith("fleet ") for a in legal)


def test_a_fleet_is_chosen_once_from_the_face_up_tiles(m: Match) -> None:
    hidden = m.state.fleet_track[7]
    refused(m, f"fleet {hidden}", "fleet_not_available")
    visible = m.state.fleet_track[0]
    m.play(f"fleet {visible}" + (" bamboo" if visible == 10 else ""))
    other = next(f for f in m.state.fleet_track[:5] if f)
    refused(m, f"fleet {other}", "fleet_already_chosen")


# -- trade, then place -----------------------------------------------------------------------


def test_trading_comes_before_placing_boats(m: Match) -> None:
    first = entry_spots()[0]
    take_fleet(m, 6)
    m.play(f"place wood {first}")
    refused(m, "buy wood", "wrong_phase")
    refused(m, "sell bamboo", "wrong_phase")
    assert legal_starting(m, "buy") == [] and legal_starting(m, "sell") == []


def test_the_first_boat_goes_on_an_entry_spot_or_next_to_a_boat_of_its_colour(m: Match) -> None:
    a, b = entry_path(6)[3:5]
    assert a not in entry_spots() and b not in entry_spots()
    put_boat(m, "stone", b)
    take_fleet(m, 6)  # wood + bamboo
    refused(m, f"place wood {a}", "not_an_entry")
    refused(m, f"place wood {b}", "spot_taken")
    put_boat(m, "wood", next(s for s in links(a) if s != b))
    m.play(f"place wood {a}")


def test_an_occupied_entry_spot_is_no_start(m: Match) -> None:
    first = entry_spots()[0]
    put_boat(m, "clay", first)
    take_fleet(m, 6)
    refused(m, f"place wood {first}", "spot_taken")
    assert f"place wood {first}" not in m.legal_actions()


def test_each_later_boat_is_connected_to_the_previous_one(m: Match) -> None:
    first, second, only_first, only_second = fork()
    take_fleet(m, 10, "bamboo")  # clay + wood + bamboo
    m.play(f"place clay {first}; place wood {second}")
    refused(m, f"place bamboo {only_first}", "broken_chain")
    m.play(f"place bamboo {only_second}")


def test_harbor_boats_can_be_placed_on_a_later_turn(m: Match) -> None:
    me = to_act(m)
    take_fleet(m, 5)  # gold
    m.play("keep gold; end")
    while m.current_seat != me:
        pass_turn(m)
    m.play(next(f for f in legal_starting(m, "fleet") if f != "fleet 5"))
    assert boats(m, me)["gold"] == 1
    m.play(f"place gold {entry_spots()[0]}")
    assert "gold" not in boats(m, me)


def test_harbor_boats_can_be_sold_on_a_later_turn(m: Match) -> None:
    me = to_act(m)
    take_fleet(m, 4)  # clay
    m.play("keep clay; end")
    while m.current_seat != me:
        pass_turn(m)
    m.play(legal_starting(m, "fleet")[0])
    m.play("sell clay")
    assert coins(m, me) == 13


# -- collect or build ------------------------------------------------------------------------


def test_collect_or_build_is_mandatory_when_a_token_is_next_to_a_placed_boat(m: Match) -> None:
    (start, _), (own, _) = private_chain(2)
    put_token(m, own, "rice")
    me = to_act(m)
    set_specialists(m, ["Yasoma"])
    give(m, me, tokens={"tea": 2})
    take_fleet(m, 4)  # clay
    put_boat(m, "clay", links(start)[0])
    m.play(f"place clay {start}")
    refused(m, "end", "must_collect_or_build")
    refused(m, "recruit Yasoma tea tea", "must_collect_or_build")
    assert legal_starting(m, "end") == [] and legal_starting(m, "recruit") == []
    assert legal_starting(m, "collect") == [f"collect {own}"]
    m.play(f"collect {own}")
    m.play("recruit Yasoma tea tea")  # no boat left in hand: nothing to store first
    end_turn(m)


def test_collect_or_build_is_mandatory_when_a_building_is_possible(m: Match) -> None:
    target, _ = hub()
    set_row(m, ["B01"])  # G G
    take_fleet(m, 1)
    at, _ = landing(target)
    surround(m, target, ["bamboo"], skip=[at])
    arrive(m, target, "bamboo")
    refused(m, "end", "must_collect_or_build")
    assert f"build B01 {target}" in m.legal_actions()


def test_collect_or_build_may_be_skipped_when_impossible(m: Match) -> None:
    me = to_act(m)
    set_specialists(m, ["Yasoma"])
    give(m, me, tokens={"tea": 2})
    take_fleet(m, 9)  # stone + wood
    first, second = entry_path(2)
    m.play(f"place stone {first}; place wood {second}")
    assert legal_starting(m, "collect") == [] and legal_starting(m, "build") == []
    m.play("recruit Yasoma tea tea")
    end_turn(m)
    assert m.current_seat != me


def test_placing_no_boat_skips_collect_or_build(m: Match) -> None:
    put_token(m, islands_of(entry_spots()[0])[0], "rice")
    take_fleet(m, 1)
    refused(m, f"collect {islands_of(entry_spots()[0])[0]}", "no_boats_placed")
    end_turn(m)


def test_collect_takes_one_token_per_placed_boat_that_has_one(m: Match) -> None:
    # Two boats next to the same single token: only one token can be taken.
    a, b, shared = shared_pair()
    put_token(m, shared, "pearl")
    me = to_act(m)
    take_fleet(m, 10, "bamboo")
    put_boat(m, "clay", next(s for s in links(a) if s != b))
    m.play(f"place clay {a}; place wood {b}")
    assert legal_starting(m, "collect") == [f"collect {shared}"]
    m.play(f"collect {shared}")
    assert tokens(m, me) == {"pearl": 1}


def test_collect_offers_a_choice_when_a_boat_touches_two_tokens(m: Match) -> None:
    at, left, right = two_token_spot()
    put_token(m, left, "rice")
    put_token(m, right, "tea")
    me = to_act(m)
    take_fleet(m, 4)  # clay
    put_boat(m, "clay", links(at)[0])
    m.play(f"place clay {at}")
    assert sorted(legal_starting(m, "collect")) == sorted([f"collect {left}", f"collect {right}"])
    refused(m, f"collect {left} {right}", "not_adjacent")
    m.play(f"collect {right}")
    assert tokens(m, me) == {"tea": 1}
    assert island(m, left).token == "rice"


def test_collect_must_take_every_token_it_can(m: Match) -> None:
    chain, own = private_chain(3)
    for label in own:
        put_token(m, label, "silk")
    take_fleet(m, 10, "bamboo")
    put_boat(m, "clay", next(s for s in links(chain[0]) if s not in chain))
    m.play(f"place clay {chain[0]}; place wood {chain[1]}; place bamboo {chain[2]}")
    refused(m, f"collect {own[0]}", "take_all_tokens")
    refused(m, f"collect {own[1]} {own[2]}", "take_all_tokens")
    m.play("collect " + " ".join(own))


# -- building --------------------------------------------------------------------------------


def _ready_to_build(m: Match, tile: str = "B01") -> str:
    target, _ = hub()
    set_row(m, [tile, "T1"])
    take_fleet(m, 1)
    give(m, to_act(m), boats={"bamboo": 1, "gold": 1, "stone": 1})
    at, _ = landing(target)
    surround(m, target, ["bamboo", "bamboo", "stone"], skip=[at])
    arrive(m, target, "gold")
    return target


def test_only_one_building_per_turn(m: Match) -> None:
    target = _ready_to_build(m)
    m.play(f"build B01 {target}")
    second = next(i for i in islands_of(landing(target)[0]) if i != target)
    refused(m, f"build T1 {second}", "already_acted")
    refused(m, f"collect {target}", "already_acted")
    refused(m, f"place bamboo {links(landing(target)[0])[0]}", "wrong_phase")
    assert legal_starting(m, "build") == []


@pytest.mark.parametrize("typed", ["#01", "#1", "b1"])
def test_a_building_tile_may_be_typed_as_the_picture_writes_it(m: Match, typed: str) -> None:
    target = _ready_to_build(m)
    m.play(f"build {typed} {target}")
    assert m.log[-1][1] == f"build B01 {target}"


def test_with_no_standard_building_left_only_prestige_tiles_can_be_built(m: Match) -> None:
    give(m, to_act(m), buildings_left=0)
    target = _ready_to_build(m)
    refused(m, f"build B01 {target}", "no_buildings_left")
    assert f"build B01 {target}" not in m.legal_actions()
    m.play(f"build T1 {target}")
    assert island(m, target).building == (m.current_seat, "T1")


def test_the_last_standard_building_ends_the_game_when_the_round_is_over(m: Match) -> None:
    me = to_act(m)
    give(m, me, buildings_left=1)
    target = _ready_to_build(m)
    events = m.play(f"build B01 {target}")
    assert events_of(events, "build")[0]["last_building"] is True
    assert m.state.players[me].buildings_left == 0
    end_turn(m)
    assert m.current_seat is not None and m.outcome is None  # the round goes on
    pass_turn(m)
    assert m.current_seat is not None and m.outcome is None
    events = pass_turn(m)
    assert m.current_seat is None
    assert events_of(events, "game_end")[0]["reasons"] == ["last_building"]
    assert m.outcome is not None and final(m)["end_reason"] == "last_building"


# -- recruiting and the harbor ---------------------------------------------------------------


def test_recruiting_pays_two_identical_or_three_different_tokens_once_per_turn(
    m: Match,
) -> None:
    me = to_act(m)
    set_specialists(m, ["Yasoma", "Riu", "Tomoe", "Ebisu", "Raijin"])
    give(m, me, tokens={"rice": 3, "tea": 1, "silk": 1})
    take_fleet(m, 1)
    m.play("keep bamboo")
    refused(m, "recruit Yasoma rice tea", "bad_payment")
    refused(m, "recruit Yasoma rice rice rice", "bad_payment")
    refused(m, "recruit Yasoma tea tea", "missing_tokens")
    refused(m, "recruit Izanagi rice rice", "specialist_not_available")
    m.play("recruit Yasoma rice rice")
    refused(m, "recruit Riu rice tea silk", "already_recruited")
    assert tokens(m, me) == {"rice": 1, "tea": 1, "silk": 1}


def test_the_harbor_keeps_exactly_as_many_boats_as_it_can(m: Match) -> None:
    me = to_act(m)
    take_fleet(m, 6)  # wood + bamboo
    refused(m, "end", "store_boats_first")
    refused(m, "keep wood bamboo", "harbor")
    refused(m, "keep clay", "harbor")
    refused(m, "keep", "harbor")
    assert legal_starting(m, "end") == []
    assert sorted(legal_starting(m, "keep")) == ["keep bamboo", "keep wood"]
    m.play("keep wood; end")
    assert boats(m, me) == {"wood": 1}


def test_a_player_with_no_boat_ends_with_an_empty_harbor(m: Match) -> None:
    take_fleet(m, 1)
    m.play(f"place bamboo {entry_spots()[0]}")
    assert legal_starting(m, "end") == ["end"]
    assert legal_starting(m, "keep") == []
    refused(m, "end keep bamboo", "keep_first")
    refused(m, "keep bamboo", "nothing_to_keep")
    m.play("end")


def test_placing_stops_once_you_collected(m: Match) -> None:
    first, second = entry_path(2)
    put_token(m, islands_of(first)[0], "sake")
    take_fleet(m, 9)
    m.play(f"place stone {first}; collect {islands_of(first)[0]}")
    refused(m, f"place wood {second}", "wrong_phase")
