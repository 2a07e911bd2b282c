"""The eighteen specialists: one test (or a few) for each power."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.yamatai.scenario import (
    BOARD,
    COMP,
    Match,
    arrive,
    boats,
    border_spots,
    coins,
    end_turn,
    entry_spots,
    events_of,
    far_from,
    give,
    hub,
    island,
    islands_of,
    landing,
    legal_starting,
    links,
    private_chain,
    put_boat,
    put_building,
    put_mountain,
    put_sacred,
    put_token,
    refused,
    reserve,
    score_lines,
    set_row,
    set_specialists,
    surround,
    take_fleet,
    to_act,
    tokens,
)


def rival_of(m: Match) -> int:
    """The seat after the current one."""
    return (to_act(m) + 1) % len(m.players)


def prepare_build(m: Match, target: str, needs: list[str], arrive_with: str) -> None:
    """Boats ``needs`` around ``target`` (placed earlier), then the current player places
    ``arrive_with`` next to it; the player must already hold that boat."""
    at, _ = landing(target)
    surround(m, target, needs, skip=[at])
    arrive(m, target, arrive_with)


# -- scoring specialists ---------------------------------------------------------------------


def test_amateratsu_doubles_pp_tokens_at_scoring(m: Match) -> None:
    me, rival = to_act(m), rival_of(m)
    give(m, me, pp_tokens=3, specialists=["Amateratsu"])
    give(m, rival, pp_tokens=3)
    assert score_lines(m, me)["pp_tokens"] == 6
    assert score_lines(m, rival)["pp_tokens"] == 3


def test_fu_hsi_scores_one_point_per_three_coins(m: Match) -> None:
    me, rival = to_act(m), rival_of(m)
    give(m, me, coins=11, specialists=["Fu-Hsi"])
    give(m, rival, coins=11)
    assert score_lines(m, me)["coins"] == 3
    assert score_lines(m, rival)["coins"] == 2


def test_yasoma_is_worth_six_points(m: Match) -> None:
    me = to_act(m)
    give(m, me, specialists=["Yasoma"])
    assert score_lines(m, me)["specialists"] == 6


# -- trading ---------------------------------------------------------------------------------


def test_izanagi_allows_a_second_transaction(m: Match) -> None:
    me = to_act(m)
    give(m, me, specialists=["Izanagi"])
    take_fleet(m, 1)
    assert m.view(me)["turn"]["trades_allowed"] == 2
    m.play("buy wood; sell bamboo")
    assert coins(m, me) == 10 - 2 + 1
    assert boats(m, me) == {"wood": 1}
    refused(m, "buy bamboo", "no_trades_left")


@pytest.mark.parametrize(("boat", "price"), [("stone", 6), ("clay", 7), ("wood", 1)])
def test_susanoo_sells_stone_for_six_and_clay_for_seven(m: Match, boat: str, price: int) -> None:
    me = to_act(m)
    give(m, me, specialists=["Susanoo"])
    take_fleet(m, 1)
    give(m, me, boats={boat: 1})
    events = m.play(f"sell {boat}")
    assert events[0]["coins"] == price
    assert coins(m, me) == 10 + price


def test_without_susanoo_stone_and_clay_sell_at_the_mat_price(m: Match) -> None:
    me = to_act(m)
    take_fleet(m, 1)
    give(m, me, boats={"clay": 1})
    m.play("sell clay")
    assert coins(m, me) == 13


def test_tomoe_buys_gold_for_five_within_the_one_transaction(m: Match) -> None:
    me = to_act(m)
    give(m, me, specialists=["Tomoe"])
    take_fleet(m, 1)
    m.play("buy gold")
    assert coins(m, me) == 5
    assert boats(m, me) == {"bamboo": 1, "gold": 1}
    refused(m, "sell gold", "no_trades_left")


def test_tomoe_sells_gold_for_five(m: Match) -> None:
    me = to_act(m)
    give(m, me, specialists=["Tomoe"])
    take_fleet(m, 5)
    m.play("sell gold")
    assert coins(m, me) == 15


def test_without_tomoe_gold_cannot_be_bought_or_sold(m: Match) -> None:
    take_fleet(m, 5)
    refused(m, "buy gold", "gold_not_tradable")
    refused(m, "sell gold", "gold_not_tradable")


# -- boats -----------------------------------------------------------------------------------


def test_raijin_exchanges_two_boats_for_a_gold_boat_once_per_turn(m: Match) -> None:
    me = to_act(m)
    give(m, me, specialists=["Raijin"])
    take_fleet(m, 6)  # wood + bamboo
    give(m, me, boats={"wood": 2, "bamboo": 2})
    before = reserve(m)
    events = m.play("raijin wood bamboo")
    assert events[0]["took"] == ["gold"]
    assert boats(m, me) == {"wood": 1, "bamboo": 1, "gold": 1}
    after = reserve(m)
    assert after["gold"] == before["gold"] - 1
    assert (after["wood"], after["bamboo"]) == (before["wood"] + 1, before["bamboo"] + 1)
    refused(m, "raijin wood bamboo", "power_used")


def test_raijin_needs_the_two_boats_and_the_specialist(m: Match) -> None:
    me = to_act(m)
    take_fleet(m, 6)
    refused(m, "raijin wood bamboo", "no_specialist")
    give(m, me, specialists=["Raijin"])
    refused(m, "raijin wood wood", "no_such_boat")


def test_raijin_gold_gained_after_building_cannot_be_placed_that_turn(m: Match) -> None:
    (start, _), (own, _) = private_chain(2)
    put_token(m, own, "rice")
    me = to_act(m)
    give(m, me, specialists=["Raijin"])
    take_fleet(m, 10, "bamboo")  # clay + wood + bamboo
    put_boat(m, "clay", next(s for s in links(start)))
    m.play(f"place clay {start}; collect {own}")
    m.play("raijin bamboo wood")
    assert boats(m, me) == {"gold": 1}
    assert legal_starting(m, "place") == []


def test_nakatsu_exchanges_a_gold_boat_for_two_other_boats(m: Match) -> None:
    me = to_act(m)
    give(m, me, specialists=["Nakatsu"])
    take_fleet(m, 5)  # gold
    refused(m, "nakatsu gold bamboo", "no_gold")
    before = reserve(m)
    m.play("nakatsu clay clay")
    assert boats(m, me) == {"clay": 2}
    assert reserve(m)["gold"] == before["gold"] + 1
    assert reserve(m)["clay"] == before["clay"] - 2
    give(m, me, boats={"gold": 1})
    refused(m, "nakatsu wood bamboo", "power_used")


def test_nakatsu_needs_a_gold_boat(m: Match) -> None:
    give(m, to_act(m), specialists=["Nakatsu"])
    take_fleet(m, 1)
    refused(m, "nakatsu wood bamboo", "no_such_boat")


def test_michimata_turns_a_culture_token_into_a_gold_boat_once_per_turn(m: Match) -> None:
    me = to_act(m)
    give(m, me, tokens={"silk": 2}, specialists=["Michimata"])
    take_fleet(m, 1)
    refused(m, "michimata rice", "missing_tokens")
    gold = reserve(m)["gold"]
    m.play("michimata silk")
    assert tokens(m, me) == {"silk": 1}
    assert boats(m, me) == {"bamboo": 1, "gold": 1}
    assert reserve(m)["gold"] == gold - 1
    refused(m, "michimata silk", "power_used")


def test_hetsuka_turns_a_culture_token_into_four_coins_once_per_turn(m: Match) -> None:
    me = to_act(m)
    give(m, me, tokens={"sake": 2}, specialists=["Hetsuka"])
    take_fleet(m, 1)
    m.play("hetsuka sake")
    assert coins(m, me) == 14
    assert tokens(m, me) == {"sake": 1}
    refused(m, "hetsuka sake", "power_used")


def test_riu_harbor_keeps_three_boats(m: Match) -> None:
    me = to_act(m)
    give(m, me, specialists=["Riu"])
    take_fleet(m, 1)
    give(m, me, boats={"bamboo": 1, "wood": 1, "stone": 1, "clay": 1})
    assert m.view(me)["players"][me]["harbor_capacity"] == 3
    refused(m, "keep clay stone", "harbor")
    m.play("keep clay stone wood; end")
    assert boats(m, me) == {"wood": 1, "stone": 1, "clay": 1}
    assert m.state.players[me].set_aside == [1, 0, 0, 0, 0]


def test_toyo_tama_may_start_on_any_empty_border_spot(m: Match) -> None:
    start = next(s for s in border_spots() if s not in entry_spots())
    me = to_act(m)
    take_fleet(m, 1)
    refused(m, f"place bamboo {start}", "not_an_entry")
    give(m, me, specialists=["Toyo-Tama"])
    m.play(f"place bamboo {start}")
    assert boats(m, me) == {}


def test_toyo_tama_does_not_open_inner_spots_or_taken_border_spots(m: Match) -> None:
    inner = next(s for s in links("28") if s not in border_spots())
    first, second = [s for s in border_spots() if s not in entry_spots()][:2]
    put_boat(m, "clay", second)
    me = to_act(m)
    give(m, me, specialists=["Toyo-Tama"])
    take_fleet(m, 1)
    refused(m, f"place bamboo {inner}", "not_an_entry")
    refused(m, f"place bamboo {second}", "spot_taken")
    m.play(f"place bamboo {first}")


# -- tokens ----------------------------------------------------------------------------------


def test_ebisu_takes_one_more_token_from_any_island_after_collecting(m: Match) -> None:
    (start, _), (own, _) = private_chain(2)
    distant = far_from(own)
    third = next(i for i in BOARD.island_labels if i not in (own, distant, *islands_of(start)))
    put_token(m, own, "rice")
    put_token(m, distant, "pearl")
    put_token(m, third, "tea")
    me = to_act(m)
    give(m, me, specialists=["Ebisu"])
    take_fleet(m, 4)  # clay
    refused(m, f"ebisu {distant}", "not_collected")
    put_boat(m, "clay", next(s for s in links(start)))
    m.play(f"place clay {start}; collect {own}")
    m.play(f"ebisu {distant}")
    assert tokens(m, me) == {"rice": 1, "pearl": 1}
    assert island(m, distant).token is None
    refused(m, f"ebisu {third}", "power_used")


def test_ebisu_recruited_after_collecting_does_not_reach_back_to_that_collect(m: Match) -> None:
    """R20: the extra token comes with a collect made while you already had Ebisu."""
    (start, _), (own, _) = private_chain(2)
    distant = far_from(own)
    put_token(m, own, "rice")
    put_token(m, distant, "pearl")
    me = to_act(m)
    set_specialists(m, ["Ebisu", "Riu", "Yasoma", "Tomoe", "Susanoo"])
    give(m, me, tokens={"silk": 2})
    take_fleet(m, 4)  # clay
    put_boat(m, "clay", next(s for s in links(start)))
    m.play(f"place clay {start}; collect {own}; recruit Ebisu silk silk")
    refused(m, f"ebisu {distant}", "not_collected")


def test_kachiko_pays_two_coins_to_remove_a_sacred_ground_once_per_turn(m: Match) -> None:
    put_sacred(m, "A1")
    put_sacred(m, "G4")
    me = to_act(m)
    give(m, me, specialists=["Kachiko"])
    take_fleet(m, 1)
    refused(m, "kachiko C1", "no_sacred_ground")
    m.play("kachiko A1")
    assert not island(m, "A1").sacred
    assert coins(m, me) == 8
    assert m.state.sacred_left == 7  # the token is back in the supply
    refused(m, "kachiko G4", "power_used")


def test_kachiko_cannot_remove_without_two_coins(m: Match) -> None:
    put_sacred(m, "A1")
    me = to_act(m)
    give(m, me, specialists=["Kachiko"], coins=1)
    take_fleet(m, 1)
    refused(m, "kachiko A1", "unaffordable")


def test_izanami_takes_half_the_coins_when_an_opponent_recruits(m: Match) -> None:
    me, owner = to_act(m), rival_of(m)
    give(m, owner, specialists=["Izanami"])
    set_specialists(m, ["Yasoma", "Riu"], coins=[5, 4])
    give(m, me, tokens={"tea": 2})
    take_fleet(m, 1)
    events = m.play("keep bamboo; recruit Yasoma tea tea")
    assert coins(m, owner) == 10 + 2
    assert coins(m, me) == 10 + 3
    assert events_of(events, "izanami") == [
        {"type": "izanami", "seat": owner, "from": me, "coins": 2}
    ]


def test_izanami_owner_recruiting_keeps_all_the_coins(m: Match) -> None:
    me = to_act(m)
    give(m, me, specialists=["Izanami"], tokens={"tea": 2})
    set_specialists(m, ["Yasoma"], coins=[4])
    take_fleet(m, 1)
    m.play("keep bamboo; recruit Yasoma tea tea")
    assert coins(m, me) == 14


# -- buildings -------------------------------------------------------------------------------


def test_ananda_owner_receives_two_coins_when_an_opponent_builds_next_door(m: Match) -> None:
    target, (next_door, *_) = hub()
    me, owner = to_act(m), rival_of(m)
    give(m, owner, specialists=["Ananda"])
    put_building(m, owner, "B10", next_door)
    set_row(m, ["B01"])  # G G
    take_fleet(m, 1)
    prepare_build(m, target, ["bamboo"], "bamboo")
    events = m.play(f"build B01 {target}")
    assert [e["type"] for e in events] == ["ananda", "build"]
    assert events[0] == {"type": "ananda", "seat": me, "to": owner, "coins": 2}
    assert coins(m, me) == 8
    assert coins(m, owner) == 12


def test_ananda_applies_to_a_prestige_building_next_door(m: Match) -> None:
    target, (next_door, *_) = hub()
    me, owner = to_act(m), rival_of(m)
    give(m, owner, specialists=["Ananda"])
    put_building(m, owner, "B10", next_door)
    set_row(m, ["T1"])  # G S Y
    take_fleet(m, 5)  # gold
    prepare_build(m, target, ["bamboo", "stone"], "gold")
    m.play(f"build T1 {target}")
    assert coins(m, me) == 8
    assert coins(m, owner) == 12


def test_ananda_ignores_the_owners_prestige_buildings_and_the_owners_own_building(
    m: Match,
) -> None:
    target, (first, second) = hub()
    me, rival = to_act(m), rival_of(m)
    give(m, rival, specialists=["Ananda"])
    put_building(m, rival, "T2", first)  # a Torii is not a standard building
    put_building(m, me, "B10", second)
    set_row(m, ["B01"])
    take_fleet(m, 1)
    prepare_build(m, target, ["bamboo"], "bamboo")
    events = m.play(f"build B01 {target}")
    assert events_of(events, "ananda") == []
    assert coins(m, rival) == 10


def test_ananda_blocks_an_opponent_who_cannot_pay_even_with_bonus_coins_to_come(
    m: Match,
) -> None:
    target, (next_door, mine) = hub()
    me, owner = to_act(m), rival_of(m)
    give(m, owner, specialists=["Ananda"])
    put_building(m, owner, "B10", next_door)
    put_building(m, me, "B11", mine)  # the new building would earn 2 x 2 group coins
    give(m, me, coins=1)
    set_row(m, ["B01"])
    take_fleet(m, 1)
    prepare_build(m, target, ["bamboo"], "bamboo")
    refused(m, f"build B01 {target}", "cannot_pay_ananda")
    assert f"build B01 {target}" not in m.legal_actions()


def test_awashima_gives_standard_bonuses_to_a_prestige_building(m: Match) -> None:
    target, (torii, mine) = hub()
    me = to_act(m)
    give(m, me, specialists=["Awashima"])
    put_building(m, rival_of(m), "T2", torii)
    put_building(m, me, "B10", mine)
    put_mountain(m, target)
    set_row(m, ["T1"])  # G S Y
    take_fleet(m, 5)  # gold
    prepare_build(m, target, ["bamboo", "stone"], "gold")
    events = m.play(f"build T1 {target}")
    assert events_of(events, "build")[0]["bonus"] == {"shrines": 1, "mountain": 1, "group": 2}
    assert m.state.players[me].pp_tokens == 2
    assert coins(m, me) == 12


def test_without_awashima_a_prestige_building_earns_no_bonus(m: Match) -> None:
    target, (torii, mine) = hub()
    me = to_act(m)
    put_building(m, rival_of(m), "T2", torii)
    put_building(m, me, "B10", mine)
    put_mountain(m, target)
    set_row(m, ["T1"])
    take_fleet(m, 5)
    prepare_build(m, target, ["bamboo", "stone"], "gold")
    events = m.play(f"build T1 {target}")
    assert events_of(events, "build")[0]["bonus"] == {}
    assert (m.state.players[me].pp_tokens, coins(m, me)) == (0, 10)


def test_kagutsuchi_earns_a_pp_token_for_a_building_away_from_your_others(m: Match) -> None:
    target, (theirs, _) = hub()
    me = to_act(m)
    give(m, me, specialists=["Kagutsuchi", "Amateratsu"])
    put_building(m, me, "B10", far_from(target))
    put_building(m, rival_of(m), "B11", theirs)
    set_row(m, ["B01"])
    take_fleet(m, 1)
    prepare_build(m, target, ["bamboo"], "bamboo")
    events = m.play(f"build B01 {target}")
    assert events_of(events, "build")[0]["bonus"] == {"kagutsuchi": 1}
    assert m.state.players[me].pp_tokens == 1
    assert score_lines(m, me)["pp_tokens"] == 2  # a PP token: Amateratsu doubles it


def test_kagutsuchi_earns_nothing_next_to_your_own_building(m: Match) -> None:
    target, (mine, _) = hub()
    me = to_act(m)
    give(m, me, specialists=["Kagutsuchi"])
    put_building(m, me, "B10", mine)
    set_row(m, ["B06"])  # standard: group of two, 2 coins
    take_fleet(m, 6)
    give(m, me, boats={"wood": 1})
    prepare_build(m, target, ["bamboo", "bamboo"], "wood")
    events = m.play(f"build B06 {target}")
    assert events_of(events, "build")[0]["bonus"] == {"group": 2}
    assert m.state.players[me].pp_tokens == 0


def test_every_specialist_is_covered_here() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    missing = [name for name in COMP.specialists if f'"{name}"' not in source]
    assert missing == []


def test_specialist_powers_end_with_the_turn(m: Match) -> None:
    me = to_act(m)
    give(m, me, tokens={"sake": 2}, specialists=["Hetsuka"])
    take_fleet(m, 1)
    m.play("hetsuka sake")
    end_turn(m)
    refused(m, "hetsuka sake", "choose_fleet_first")
    take_fleet(m, 2)
    refused(m, "hetsuka sake", "no_specialist")


def test_ananda_is_paid_once_for_a_building_next_to_two_of_the_owners_buildings(
    m: Match,
) -> None:
    target, (first, second) = hub()
    me, owner = to_act(m), rival_of(m)
    give(m, owner, specialists=["Ananda"])
    put_building(m, owner, "B10", first)
    put_building(m, owner, "B11", second)
    set_row(m, ["B01"])
    take_fleet(m, 1)
    prepare_build(m, target, ["bamboo"], "bamboo")
    m.play(f"build B01 {target}")
    assert (coins(m, me), coins(m, owner)) == (8, 12)


def test_kagutsuchi_does_not_apply_to_a_prestige_building(m: Match) -> None:
    target, _ = hub()
    me = to_act(m)
    give(m, me, specialists=["Kagutsuchi"])
    set_row(m, ["T1"])
    take_fleet(m, 5)
    prepare_build(m, target, ["bamboo", "stone"], "gold")
    events = m.play(f"build T1 {target}")
    assert events_of(events, "build")[0]["bonus"] == {}
    assert m.state.players[me].pp_tokens == 0
