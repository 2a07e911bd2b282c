"""Rulings R32 and R33 of docs/rules.md, not covered by the per-power tests."""

from __future__ import annotations

from tests.engine.scenario import (
    Match,
    boats,
    give,
    links,
    private_chain,
    put_boat,
    put_token,
    refused,
    set_specialists,
    take_fleet,
)


def test_r32_riu_recruited_this_turn_already_widens_this_turns_harbor(m: Match) -> None:
    me = m.current_seat
    set_specialists(m, ["Riu", "Ebisu", "Yasoma", "Tomoe", "Susanoo"])
    give(m, me, tokens={"silk": 2}, boats={"wood": 1, "stone": 1})
    take_fleet(m, 1)  # bamboo
    m.play("recruit Riu silk silk")
    m.play("end keep bamboo wood stone")
    assert boats(m, me) == {"bamboo": 1, "wood": 1, "stone": 1}


def test_r33_removing_your_placed_boat_lifts_the_collect_obligation(m: Match) -> None:
    (start, _), (own, _) = private_chain(2)
    put_token(m, own, "rice")
    take_fleet(m, 7)  # stone + bamboo, remove up to two boats
    put_boat(m, "stone", next(s for s in links(start)))
    m.play(f"place stone {start}")
    refused(m, "end keep bamboo", "must_collect_or_build")
    m.play(f"remove {start}")
    m.play("end keep bamboo")
    assert m.log[-1][1] == "end keep bamboo"
