"""The legality check and legal-action generation agree on every candidate action."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import pytest

from engine import games
from engine.errors import IllegalAction
from engine.rng import Rng
from engine.yamatai import rules
from engine.yamatai.context import context
from engine.yamatai.notation import Action
from engine.yamatai.state import State

CTX = context()
BOATS = range(len(CTX.comp.boat_names))
CULTURES = range(len(CTX.comp.culture_names))
ISLANDS = range(len(CTX.board.island_labels))
SPOTS = range(len(CTX.board.spot_labels))
TILES = sorted(CTX.comp.buildings)


def candidates(st: State, rng: Rng, sample: int) -> list[Action]:
    """A broad sample of syntactically valid actions, legal or not."""
    pool: list[Action] = []
    pool += [Action("fleet", (n, -1)) for n in CTX.comp.fleets]
    pool += [Action("fleet", (10, b)) for b in BOATS] + [Action("fleet", (3, 0))]
    pool += [Action(k, (b,)) for k in ("buy", "sell") for b in BOATS]
    pool += [Action("place", (b, s)) for b in BOATS for s in SPOTS]
    near = sorted({i for s in st.turn.placed for i in CTX.board.spot_islands[s]})
    pool += [Action("collect", ((i,),)) for i in ISLANDS]
    pool += [Action("collect", (pair,)) for pair in combinations(near, 2)]
    pool += [Action("collect", (triple,)) for triple in combinations(near, 3)]
    pool += [Action("build", (t, i)) for t in TILES for i in [*near, 0, 17, 33]]
    pays = [(c, c) for c in CULTURES] + list(combinations(CULTURES, 3)) + [(0, 1), (0, 0, 1)]
    pool += [Action("recruit", (n, p)) for n in CTX.comp.specialists for p in pays]
    harbors = [kept for k in range(4) for kept in combinations_with_replacement(BOATS, k)]
    pool += [Action(kind, (kept,)) for kind in ("keep", "end") for kept in harbors]
    pool += [Action("reserve", (t,)) for t in TILES] + [Action("look")]
    pool += [Action("slide", (a, b)) for a in SPOTS for b in CTX.board.spot_links[a]]
    pool += [Action("sacred", (i,)) for i in ISLANDS]
    pool += [Action("swap_tokens", pair) for pair in combinations(ISLANDS, 2)]
    occupied = sorted({s for s in SPOTS if st.spot_boats[s] >= 0} | {0, 40, 79})
    pool += [Action("remove", ((s,),)) for s in SPOTS]
    pool += [Action("remove", (pair,)) for pair in combinations(occupied, 2)]
    pool += [Action("swap_boats", pair) for pair in combinations(occupied, 2)]
    pairs = list(combinations_with_replacement(BOATS, 2))
    pool += [Action(k, p) for k in ("raijin", "nakatsu") for p in pairs]
    pool += [Action(k, (c,)) for k in ("michimata", "hetsuka") for c in CULTURES]
    pool += [Action(k, (i,)) for k in ("kachiko", "ebisu") for i in ISLANDS]
    if st.turn.looked:
        looked = tuple(st.turn.looked)
        pool += [Action("arrange", (looked, ())), Action("arrange", ((), looked))]
        pool += [Action("arrange", (looked[:1], ()))]
    picked = [pool[rng.below(len(pool))] for _ in range(sample)]
    every = ("fleet", "keep", "end", "arrange", "build", "recruit", "swap_boats")
    picked += [a for a in pool if a.kind in every]
    return [canonical(a) for a in picked]


def canonical(action: Action) -> Action:
    """The action as the parser would produce it from its own text."""
    return CTX.notation.parse(CTX.notation.format(action))


def is_legal(st: State, action: Action) -> bool:
    try:
        rules.check(CTX, st, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("seed", range(12))
def test_check_agrees_with_legal_actions(seed: int) -> None:
    """An action passes the check exactly when legal_actions lists it; checking changes nothing."""
    players = 2 + seed % 3
    old_order = {"step_order": "recruit-first"} if seed % 4 == 3 else None  # stored old games
    m = games.new("yamatai", [f"P{i}" for i in range(players)], seed=seed, options=old_order)
    rng = Rng(seed)
    step = 0
    while m.current_seat is not None:
        legal = rules.legal_actions(CTX, m.state)
        if step % 3 == 0:
            before = m.to_json()
            listed = set(legal)
            for action in candidates(m.state, rng, 300):
                assert is_legal(m.state, action) == (action in listed), CTX.notation.format(action)
            for action in legal:
                assert is_legal(m.state, action)
            assert m.to_json() == before
        m.play(CTX.notation.format(legal[rng.below(len(legal))]))
        step += 1
