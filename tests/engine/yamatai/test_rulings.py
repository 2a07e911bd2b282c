"""Rulings R2, R32 and R33 of docs/rules.md (the step order), not covered by the per-power tests."""

from __future__ import annotations

import json

import pytest

from engine import games
from tests.engine.yamatai.scenario import (
    Match,
    boats,
    give,
    grant_specialist,
    legal_starting,
    links,
    private_chain,
    put_boat,
    put_token,
    refused,
    set_specialists,
    take_fleet,
    to_act,
)


def test_r2_the_harbor_step_comes_before_recruiting(m: Match) -> None:
    me = to_act(m)
    set_specialists(m, ["Riu", "Ebisu", "Yasoma", "Tomoe", "Susanoo"])
    give(m, me, tokens={"silk": 2})
    take_fleet(m, 1)  # bamboo
    refused(m, "recruit Riu silk silk", "store_boats_first")
    refused(m, "end", "store_boats_first")
    refused(m, "end keep bamboo", "keep_first")
    assert legal_starting(m, "recruit") == [] and legal_starting(m, "end") == []
    assert legal_starting(m, "keep") == ["keep bamboo"]
    m.play("keep bamboo")
    refused(m, "keep bamboo", "already_stored")
    assert legal_starting(m, "recruit")
    m.play("recruit Riu silk silk; end")
    assert [text for _, text in m.log[-4:]] == [
        "fleet 1",
        "keep bamboo",
        "recruit Riu silk silk",
        "end",
    ]


def test_r32_riu_recruited_this_turn_does_not_widen_this_turns_harbor(m: Match) -> None:
    me = to_act(m)
    set_specialists(m, ["Riu", "Ebisu", "Yasoma", "Tomoe", "Susanoo"])
    give(m, me, tokens={"silk": 2}, boats={"wood": 1, "stone": 1})
    take_fleet(m, 1)  # bamboo
    refused(m, "keep bamboo wood stone", "harbor")
    m.play("keep stone; recruit Riu silk silk; end")
    assert boats(m, me) == {"stone": 1}
    assert sum(m.state.players[me].set_aside) == 2
    assert m.view(me)["players"][me]["harbor_capacity"] == 3  # from the next turn on


@pytest.mark.parametrize(
    ("specialist", "action"),
    [
        ("Raijin", "raijin bamboo bamboo"),
        ("Nakatsu", "nakatsu wood stone"),
        ("Michimata", "michimata silk"),
    ],
)
def test_r32_boat_powers_recruited_this_turn_cannot_reach_stored_boats(
    m: Match, specialist: str, action: str
) -> None:
    me = to_act(m)
    set_specialists(m, [specialist, "Ebisu", "Yasoma", "Tomoe", "Susanoo"])
    give(m, me, tokens={"silk": 3}, boats={"gold": 1, "bamboo": 1})
    take_fleet(m, 1)  # bamboo
    m.play(f"keep gold; recruit {specialist} silk silk")
    refused(m, action, "boats_stored")
    assert not legal_starting(m, action.split()[0])
    m.play("end")


def test_r32_boat_powers_recruited_earlier_work_before_the_harbor(m: Match) -> None:
    me = to_act(m)
    grant_specialist(m, me, "Raijin")
    give(m, me, boats={"wood": 1})
    take_fleet(m, 1)  # bamboo
    m.play("raijin bamboo wood; keep gold; end")
    assert boats(m, me) == {"gold": 1}


def test_r32_other_powers_recruited_this_turn_work_at_once(m: Match) -> None:
    me = to_act(m)
    set_specialists(m, ["Hetsuka", "Ebisu", "Yasoma", "Tomoe", "Susanoo"])
    give(m, me, tokens={"silk": 2, "rice": 1})
    take_fleet(m, 1)
    before = m.state.players[me].coins
    m.play("keep bamboo; recruit Hetsuka silk silk; hetsuka rice; end")
    assert m.state.players[me].coins == before + 4


def test_r2_with_no_boats_held_there_is_nothing_to_store(m: Match) -> None:
    me = to_act(m)
    set_specialists(m, ["Yasoma", "Ebisu", "Riu", "Tomoe", "Susanoo"])
    give(m, me, tokens={"silk": 2})
    take_fleet(m, 1)
    m.play("sell bamboo")
    refused(m, "keep", "nothing_to_keep")
    assert legal_starting(m, "keep") == []
    m.play("recruit Yasoma silk silk; end")


def test_r33_removing_your_placed_boat_lifts_the_collect_obligation(m: Match) -> None:
    (start, _), (own, _) = private_chain(2)
    put_token(m, own, "rice")
    take_fleet(m, 7)  # stone + bamboo, remove up to two boats
    put_boat(m, "stone", next(s for s in links(start)))
    m.play(f"place stone {start}")
    refused(m, "keep bamboo", "must_collect_or_build")
    m.play(f"remove {start}")
    m.play("keep bamboo; end")
    assert m.log[-1][1] == "end"


# -- games begun under the old order ---------------------------------------------------------

OLD_ORDER = {"step_order": "recruit-first"}


def test_a_game_under_the_old_order_recruits_first_and_ends_with_end_keep() -> None:
    """Games stored before the rulebook order keep theirs (R2): R32 as it was, 'end keep'."""
    m = games.new("yamatai", ["Ann", "Bo", "Cy"], seed=7, options=OLD_ORDER)
    me = to_act(m)
    set_specialists(m, ["Riu", "Ebisu", "Yasoma", "Tomoe", "Susanoo"])
    give(m, me, tokens={"silk": 2}, boats={"wood": 1, "stone": 1})
    take_fleet(m, 1)
    refused(m, "keep bamboo", "old_step_order")
    m.play("recruit Riu silk silk")
    assert legal_starting(m, "end")[0].startswith("end keep ")
    m.play("end keep bamboo wood stone")
    assert boats(m, me) == {"bamboo": 1, "wood": 1, "stone": 1}


def test_a_saved_game_of_schema_1_loads_under_the_old_order() -> None:
    """A state saved before schema 2 reads as a game under the old order and plays on.

    (Migration 0003 gives stored games the matching option; tests/store checks a real file.)
    """
    m = games.new("yamatai", ["Ann", "Bo", "Cy"], seed=7, options=OLD_ORDER)
    m.play(legal_starting(m, "fleet")[0])
    data = json.loads(m.to_json())
    del data["state"]["step_order"]
    data["state"]["schema"] = 1
    loaded = games.from_json(json.dumps(data))
    assert loaded.state.step_order == "recruit-first"
    assert legal_starting(loaded, "end")[0].startswith("end keep")
    loaded.play(legal_starting(loaded, "end")[0])


def test_r2_with_no_boat_left_the_step_shown_is_recruit_or_end(m: Match) -> None:
    (start, _), (own, _) = private_chain(2)
    put_token(m, own, "rice")
    me = to_act(m)
    take_fleet(m, 4)  # clay, its only boat
    put_boat(m, "clay", next(s for s in links(start)))
    m.play(f"place clay {start}; collect {own}")
    assert m.view(me)["turn"]["label"] == "stored" and m.turn_info.step == "stored"
    assert m.view(me)["turn"]["step"] == "acted"  # the phase itself (what a computer rebuilds)


def test_r2_end_keep_after_storing_says_to_just_end(m: Match) -> None:
    take_fleet(m, 1)
    m.play("keep bamboo")
    error = refused(m, "end keep bamboo", "already_stored")
    assert "just `end`" in error.message
