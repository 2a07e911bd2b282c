"""Namiji's check (issue 25 item 4): it decides from the rules directly, without listing the legal
actions again, and accepts exactly what ``legal`` lists."""

from __future__ import annotations

import pytest

from engine import games
from engine.errors import IllegalAction
from engine.namiji import rules
from engine.namiji.components import CELLS, PANORAMA_TYPES, components
from engine.namiji.notation import Action
from engine.namiji.state import State
from engine.rng import Rng

WORDS = ("release", "refuse", "draw", "stop", "offer", "end")


def _candidates(st: State) -> list[Action]:
    """Every action of every kind with arguments near the legal ones, and some wrong ones."""
    comp = components(st.direction)
    spaces = [str(q) for q in range(len(comp.route))] + ["07", "x", "-1", "999"]
    slots = ["1", "2", "3", "4", "5", "0", "6", "01"]
    pool = [Action(w) for w in WORDS] + [Action(w, ("x",)) for w in WORDS]
    pool += [Action("move", (q,)) for q in spaces]
    pool += [Action("move", (q, s)) for q in spaces[: len(comp.route)] for s in slots]
    pool += [Action("move", ("1", "1", "1"))]
    pool += [Action("fish", (k,)) for k in [*comp.fish, "hidden", "zz"]] + [Action("fish")]
    pool += [Action("keep", (c,)) for c in [*CELLS, "r9c9", ""]] + [Action("keep")]
    for kind in [*comp.nets, "zz"]:
        for cell in [*CELLS, "r0c0"]:
            pool += [Action("net", (kind, cell, o)) for o in ("h", "v", "", "hv", "x")]
    pool += [Action("rock", (c,)) for c in [*comp.rocks, "R99"]] + [Action("rock")]
    pool += [Action("panorama", (t,)) for t in [*PANORAMA_TYPES, "X"]] + [Action("panorama")]
    pool += [Action("pick", (c,)) for c in [*comp.meals, *comp.upgrades, "Z1"]]
    return [*pool, Action("pick"), Action("sail", ("1",))]


def _accepted(st: State, action: Action) -> bool:
    try:
        rules.check(st, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (3, 5)])
def test_check_accepts_exactly_the_legal_actions(players: int, seed: int) -> None:
    options = {"direction": "reversed"} if seed == 5 else None
    match = games.new("namiji", [f"P{i}" for i in range(players)], seed=seed, options=options)
    rng = Rng(seed)
    step = 0
    while match.current_seat is not None:
        st: State = match.state
        legal = rules.legal(st)
        if step % 3 == 0 or st.phase == "station":
            before = match.to_json()
            for action in _candidates(st):
                assert _accepted(st, action) == (action in legal), action
            assert match.to_json() == before
        match.play(match.legal_actions()[rng.below(len(legal))])
        step += 1


def test_check_does_not_list_the_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A legal action is accepted without a second generation of the legal actions."""
    match = games.new("namiji", ["Ann", "Bo", "Cy", "Di"], seed=9)
    rng = Rng(9)

    def listed(st: State) -> list[Action]:
        raise AssertionError("check listed the legal actions")

    while match.current_seat is not None:
        st: State = match.state
        legal = rules.legal(st)
        with monkeypatch.context() as patched:
            patched.setattr(rules, "legal", listed)
            patched.setattr(rules, "moves", listed)
            for action in legal:
                rules.check(st, action)
        match.play(match.legal_actions()[rng.below(len(legal))])


def test_a_refusal_still_says_what_comes_now() -> None:
    match = games.new("namiji", ["Ann", "Bo", "Cy"], seed=3)
    st: State = match.state
    with pytest.raises(IllegalAction) as wrong:
        rules.check(st, Action("draw"))
    assert wrong.value.reason == "wrong_step" and "move" in wrong.value.detail
    with pytest.raises(IllegalAction) as far:
        rules.check(st, Action("move", (str(len(components().route) - 1),)))
    assert far.value.reason == "not_allowed"
