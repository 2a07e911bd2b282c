"""Invariants over random games: nothing is created or lost, the score track equals a recount."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st_

from engine import games
from engine.namiji.components import components
from engine.namiji.scoring import neighbours, score_lines
from engine.namiji.state import State
from engine.players import random_player


def _counted(st: State) -> tuple[int, int, int, int]:
    """Fish tokens, crustaceans, pontoon cards and sacred rock cards wherever they are."""
    nets = sum(len(p.nets) for p in st.players)
    cells = sum(sum(bool(k) for k in p.crate) for p in st.players)
    fish = len(st.bank_up) + len(st.bank_down) + cells - 2 * nets + bool(st.catch)
    crustaceans = sum(st.bag.values()) + len(st.drawn) + sum(len(p.trap) for p in st.players)
    pontoon = len(st.pontoon_deck) + len(st.hand) + sum(len(p.pontoon) for p in st.players)
    rocks = len(st.rock_deck) + len(st.rocks_shown) + sum(len(p.rocks) for p in st.players)
    return fish, crustaceans, pontoon, rocks


def _connected_from_top_left(crate: list[str]) -> bool:
    """Crate tokens start at r1c1 and touch each other (the placement rules)."""
    filled = {i for i, k in enumerate(crate) if k}
    if not filled:
        return True
    seen, todo = {0}, [0]
    while todo:
        for n in neighbours(todo.pop()):
            if n in filled and n not in seen:
                seen.add(n)
                todo.append(n)
    return 0 in filled and seen == filled


@settings(max_examples=12, deadline=None)
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10**6))
def test_supplies_are_conserved_and_the_score_track_is_the_recount(players: int, seed: int) -> None:
    comp = components()
    total = (sum(comp.fish.values()), 50, len(comp.meals) + len(comp.upgrades), len(comp.rocks))
    match = games.new("namiji", [f"P{i}" for i in range(players)], seed=seed)
    step = 0
    while (seat := match.current_seat) is not None:
        match.play(random_player(match.view(seat), seed + step), seat=seat)
        st: State = match.state
        assert _counted(st) == total
        nets = len(st.net_pile) + len(st.nets_shown) + sum(len(p.nets) for p in st.players)
        assert nets == sum(comp.nets.values())
        for p in st.players:
            assert _connected_from_top_left(p.crate)
            assert p.score == sum(score_lines(p, final=st.phase == "over").values())
            assert len(p.lines) == len(set(p.lines))
        step += 1
    assert all(b.pos == comp.arrival for b in match.state.boats)
