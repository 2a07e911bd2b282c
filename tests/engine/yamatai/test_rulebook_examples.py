"""Every worked example of the rulebook, played through Match.play."""

from __future__ import annotations

from tests.engine.yamatai.scenario import (
    Match,
    arrive,
    boats,
    chain_around,
    coins,
    end_turn,
    entry_path,
    events_of,
    give,
    island,
    island_path,
    landing,
    legal_starting,
    neighbours,
    open_chain,
    pass_turn,
    private_chain,
    put_building,
    put_mountain,
    put_token,
    refused,
    score_lines,
    set_row,
    set_specialists,
    spot,
    surround,
    take_fleet,
    to_act,
    tokens,
)


def test_buying_a_wood_boat_costs_two_coins_and_is_the_only_transaction(m: Match) -> None:
    # "This player decides to buy one wood boat for 2 coins. This is the only transaction
    # that he can do during his turn."
    me = to_act(m)
    take_fleet(m, 1)
    events = m.play("buy wood")
    assert events == [{"type": "buy", "seat": me, "boat": "wood", "coins": -2}]
    assert coins(m, me) == 8
    assert boats(m, me) == {"bamboo": 1, "wood": 1}
    refused(m, "buy bamboo", "no_trades_left")
    refused(m, "sell wood", "no_trades_left")
    assert not legal_starting(m, "buy") and not legal_starting(m, "sell")


def test_a_chain_from_an_entry_spot_then_another_player_chains_from_the_wood_boat(
    m: Match,
) -> None:
    # "Starting from an entry spot, this player places one stone boat and one wood boat."
    entry, second, third, fourth = entry_path(4)
    take_fleet(m, 9)  # stone + wood
    m.play(f"place stone {entry}; place wood {second}")
    assert (spot(m, entry), spot(m, second)) == ("stone", "wood")
    end_turn(m)
    # "On the next turn, another player uses the existing wood boat as a basis to place
    # their own wood and bamboo boats."
    take_fleet(m, 6)  # wood + bamboo
    refused(m, f"place bamboo {third}", "not_an_entry")  # only a wood boat may start there
    m.play(f"place wood {third}")
    m.play(f"place bamboo {fourth}")
    assert [spot(m, s) for s in (entry, second, third, fourth)] == [
        "stone",
        "wood",
        "wood",
        "bamboo",
    ]


def test_collecting_takes_one_token_per_placed_boat_each_next_to_its_boat(m: Match) -> None:
    # "The player now claims as many tokens as he placed boats. Claimed tokens must have been
    # adjacent to the spots where the boats were placed."
    chain, own = private_chain(3)
    for label, culture in zip(own, ("rice", "tea", "silk"), strict=True):
        put_token(m, label, culture)
    me = to_act(m)
    take_fleet(m, 10, "bamboo")  # clay + wood + bamboo
    open_chain(m, "clay", chain)
    m.play(f"place clay {chain[0]}; place wood {chain[1]}; place bamboo {chain[2]}")
    refused(m, f"collect {own[0]} {own[1]}", "take_all_tokens")
    events = m.play("collect " + " ".join(own))
    assert tokens(m, me) == {"rice": 1, "tea": 1, "silk": 1}
    assert all(island(m, label).token is None for label in own)
    assert {t["island"] for t in events_of(events, "collect")[0]["tokens"]} == set(own)


def test_clay_and_two_bamboo_boats_build_and_stay_on_the_board(m: Match) -> None:
    # "This player has placed one clay boat and two bamboo boats next to an empty island.
    # He uses them to construct a building ... Note that the boats remain in place."
    target = "A5"
    chain = chain_around(target, 3)
    set_row(m, ["B04"])  # G C: a trading post the clay and a bamboo boat build
    me = to_act(m)
    take_fleet(m, 8)  # clay + bamboo
    m.play("buy bamboo")
    open_chain(m, "clay", chain, target)
    m.play(f"place clay {chain[0]}; place bamboo {chain[1]}; place bamboo {chain[2]}")
    events = m.play(f"build B04 {target}")
    assert events_of(events, "build")[0]["tile"] == "B04"
    assert island(m, target).building == (me, "B04")
    assert [spot(m, s) for s in chain] == ["clay", "bamboo", "bamboo"]
    assert m.state.players[me].tiles == ["B04"]
    assert m.state.players[me].buildings_left == 7
    assert "B04" not in m.state.building_row


def _group_of_three(m: Match, tile: str) -> tuple[int, dict[str, int]]:
    first, second, target = island_path(3, min_spots=4)
    me = to_act(m)
    put_building(m, me, "B10", first)
    put_building(m, me, "B11", second)
    set_row(m, [tile])
    take_fleet(m, 6)  # wood + bamboo
    give(m, me, boats={"wood": 1}, coins=10)
    at, _ = landing(target)
    surround(m, target, ["bamboo", "bamboo"], skip=[at])
    arrive(m, target, "wood")
    events = m.play(f"build {tile} {target}")
    return coins(m, me) - 10, events_of(events, "build")[0]["bonus"]


def test_a_building_making_a_group_of_three_pays_three_coins(m: Match) -> None:
    # "This player constructs a building next to two of his buildings. He receives 3 coins."
    gained, bonus = _group_of_three(m, "B06")  # G G W, standard
    assert gained == 3
    assert bonus == {"group": 3}


def test_a_trading_post_making_a_group_of_three_pays_six_coins(m: Match) -> None:
    # "If this player constructs a trading post instead, he receives 6 coins instead of 3."
    gained, bonus = _group_of_three(m, "B01")  # G G, trading post
    assert gained == 6
    assert bonus == {"group": 6}


def test_the_harbor_keeps_one_boat_and_the_second_boat_set_aside_costs_a_point(
    m: Match,
) -> None:
    # "This player keeps 1 gold boat in his harbor. He cannot keep the bamboo boat and
    # chooses to discard it ... Doing that a second time would result in a penalty of 1 PP."
    me = to_act(m)
    take_fleet(m, 5)  # gold
    give(m, me, boats={"gold": 1, "bamboo": 1})
    refused(m, "keep gold bamboo", "harbor")
    refused(m, "end", "store_boats_first")
    events = m.play("keep gold")
    m.play("end")
    assert events_of(events, "harbor")[0]["set_aside"] == ["bamboo"]
    assert boats(m, me) == {"gold": 1}
    assert m.state.players[me].set_aside == [1, 0, 0, 0, 0]
    assert score_lines(m, me)["set_aside"] == 0
    while m.current_seat != me:
        pass_turn(m)
    single = ("fleet 1", "fleet 2", "fleet 3", "fleet 4")  # one non-gold boat each
    m.play(next(f for f in legal_starting(m, "fleet") if f in single))
    m.play("keep gold; end")
    assert sum(m.state.players[me].set_aside) == 2
    assert score_lines(m, me)["set_aside"] == -1


def test_a_building_on_a_mountain_next_to_a_torii_earns_two_pp_tokens(m: Match) -> None:
    # "This player constructs a building on a mountain next to a Torii. As a result, he
    # immediately receives two Prestige Point Tokens."
    torii_island, target = island_path(2, min_spots=4)
    me = to_act(m)
    rival = (me + 1) % 3
    put_building(m, rival, "T1", torii_island)
    put_mountain(m, target)
    set_row(m, ["B06"])
    take_fleet(m, 6)
    give(m, me, boats={"wood": 1})
    at, _ = landing(target)
    surround(m, target, ["bamboo", "bamboo"], skip=[at])
    arrive(m, target, "wood")
    events = m.play(f"build B06 {target}")
    build = events_of(events, "build")[0]
    assert build["pp_tokens"] == 2
    assert build["bonus"] == {"shrines": 1, "mountain": 1}
    assert m.state.players[me].pp_tokens == 2
    assert torii_island in neighbours(target)


def test_recruiting_with_three_different_tokens_takes_the_coins_on_the_specialist(
    m: Match,
) -> None:
    # "This player discards 3 different Culture Tokens and recruits this Specialist. As there
    # are 4 coins on it, he also receives these coins."
    me = to_act(m)
    set_specialists(m, ["Yasoma", "Riu", "Tomoe", "Ebisu", "Raijin"], coins=[4, 0, 0, 0, 0])
    give(m, me, tokens={"rice": 1, "tea": 1, "silk": 1, "pearl": 1})
    take_fleet(m, 1)
    events = m.play("keep bamboo; recruit Yasoma rice silk tea")
    assert events_of(events, "recruit")[0]["coins"] == 4
    assert coins(m, me) == 14
    assert tokens(m, me) == {"pearl": 1}
    assert m.state.players[me].specialists == ["Yasoma"]
    assert "Yasoma" not in m.state.specialist_track
