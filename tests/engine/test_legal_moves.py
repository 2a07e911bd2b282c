"""Structured legal actions (D60): ``Rules.legal_moves`` formatted is ``legal_actions``, in the
same order, for every game; and the lists and the computer players' choices are those of the
engine before the structured path (digests of seeded games recorded with it)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from engine import games
from engine.contract import Budget
from engine.games import Match
from engine.rng import Rng
from engine.yamatai import powers, rules, turn
from engine.yamatai.context import context
from engine.yamatai.notation import Action
from engine.yamatai.state import FLEET, NONE
from engine.yamatai.state import State as YamataiState

SMALL = Budget(iterations=12, determinizations=3, candidates=4, turns=2)


def _tables() -> list[tuple[str, int]]:
    return [
        (key, n)
        for key, rules_ in sorted(games.GAMES.items())
        for n in range(rules_.min_players, rules_.max_players + 1)
    ]


def _one_by_one(st: YamataiState) -> list[Action]:
    """Yamatai's legal actions the plain way: every kind of ``rules.ORDER`` asked in turn."""
    ctx = context(st.board)
    if st.over:
        return []
    if st.turn.looked:
        return [Action("arrange", a) for a in powers.gen_power(ctx, st, "arrange")]
    found: list[Action] = []
    for kind in rules.ORDER:
        if (kind == "fleet") != (st.turn.step == FLEET) or kind == "arrange":
            continue
        if kind in powers.FLEET_POWERS or kind in powers.SPECIALIST_POWERS:
            found += [Action(kind, a) for a in powers.gen_power(ctx, st, kind)]
        else:
            found += [Action(kind, a) for a in getattr(turn, f"gen_{kind}")(ctx, st)]
    return found


def _assert_moves_are_the_actions(match: Match) -> None:
    st, game = match.state, match.rules
    moves = game.legal_moves(st)
    assert [game.format(st, m) for m in moves] == game.legal_actions(st)
    for move, text in zip(moves, game.legal_actions(st), strict=True):
        parsed = game.parse(st, text)
        assert parsed == move, "a move equals the parse of its own text"
        assert game.reveals(move) == game.reveals(parsed)
        assert game.ends_turn(move) == game.ends_turn(parsed)
    if match.game_key == "yamatai":
        assert moves == _one_by_one(st)


@settings(max_examples=10, deadline=None)
@given(table=st_.sampled_from(_tables()), seed=st_.integers(0, 10**6))
def test_legal_moves_formatted_are_the_legal_actions_in_order(
    table: tuple[str, int], seed: int
) -> None:
    game, players = table
    options = {"step_order": "recruit-first"} if game == "yamatai" and seed % 4 == 3 else None
    match = games.new(game, [f"P{i}" for i in range(players)], seed=seed, options=options)
    rng = Rng(seed)
    while match.current_seat is not None:
        _assert_moves_are_the_actions(match)
        legal = match.legal_actions()
        match.play(legal[rng.below(len(legal))])
    assert match.rules.legal_moves(match.state) == []


def _digest(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


def _legal_digest(game: str, players: int, seed: int, options: dict[str, Any] | None) -> str:
    """Every legal list of a seeded random game, in order."""
    match = games.new(game, [f"P{i}" for i in range(players)], seed=seed, options=options)
    lists: list[str] = []
    step = 0
    while (seat := match.current_seat) is not None:
        legal = match.legal_actions()
        lists += [*legal, ""]
        match.play(legal[Rng(seed + step).below(len(legal))], seat=seat)
        step += 1
    return _digest(lists)


# Recorded with the engine before legal_moves (commit ed454b2).
LEGAL_LISTS = [
    ("yamatai", 2, 11, None, "41c3975e047baf40"),
    ("yamatai", 3, 12, None, "7b323fecec5d087a"),
    ("yamatai", 4, 13, None, "562647655702d8a0"),
    ("yamatai", 3, 14, {"step_order": "recruit-first"}, "f1ad1b06dc87fadc"),
    ("namiji", 2, 21, None, "e49374ac9ea5c56f"),
    ("namiji", 4, 22, None, "6bd0ad968405191e"),
    ("namiji", 5, 23, {"direction": "reversed"}, "a0b0fe88775730e8"),
]


@pytest.mark.parametrize(("game", "players", "seed", "options", "digest"), LEGAL_LISTS)
def test_the_legal_lists_are_the_same_as_before(
    game: str, players: int, seed: int, options: dict[str, Any] | None, digest: str
) -> None:
    assert _legal_digest(game, players, seed, options) == digest


# The action logs of seeded games between computer players, recorded as above: a level's choices
# (the strong one with the SMALL budget, its first decisions only) did not change.
DECISIONS = [
    ("yamatai", 4, 31, "normal", 10_000, "9fc6e53a2f74fcf2"),
    ("yamatai", 2, 32, "easy", 10_000, "911052f8988b16de"),
    ("yamatai", 3, 33, "strong", 40, "864f8ea57026dfd2"),
    ("namiji", 3, 34, "normal", 10_000, "7ca780ee35370b13"),
    ("namiji", 5, 35, "strong", 40, "a21e6dda9162121d"),
]


@pytest.mark.parametrize(("game", "players", "seed", "level", "limit", "digest"), DECISIONS)
def test_the_computer_players_choose_as_before(
    game: str, players: int, seed: int, level: str, limit: int, digest: str
) -> None:
    player = games.computer_player(game, level, budget=SMALL)
    match = games.new(game, [f"P{i}" for i in range(players)], seed=seed)
    while (seat := match.current_seat) is not None and len(match.log) < limit:
        match.play(player(match.view(seat), seed + len(match.log)), seat=seat)
    assert _digest([text for _, text in match.log]) == digest


def _walked_collect_sets(ctx: Any, st: YamataiState) -> list[tuple[int, ...]]:
    """The largest sets of islands to collect, the straightforward way (the engine's before
    D126): every island or none for each placed boat in turn, no island twice."""
    options = [
        tuple(i for i in ctx.board.spot_islands[s] if st.island_tokens[i] != NONE)
        for s in st.turn.placed
    ]
    found: set[frozenset[int]] = set()

    def walk(k: int, chosen: frozenset[int]) -> None:
        if k == len(options):
            found.add(chosen)
            return
        for island in options[k]:
            if island not in chosen:
                walk(k + 1, chosen | {island})
        walk(k + 1, chosen)

    walk(0, frozenset())
    best = max(len(s) for s in found)
    return sorted(
        (ctx.by_label(s) for s in found if len(s) == best and best > 0),
        key=lambda islands: [ctx.island_rank[i] for i in islands],
    )


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 10**6), tokens=st_.lists(st_.integers(-1, 4), min_size=34, max_size=34))
def test_collect_sets_are_those_of_the_walk(seed: int, tokens: list[int]) -> None:
    """D126: the collections found from the product of the placed boats' islands are the walk's,
    in order, with any tokens on the board and any chain of placed boats."""
    match = games.new("yamatai", ["A", "B", "C"], seed=seed)
    st = match.state
    ctx = context(st.board)
    rng = Rng(seed)
    st.island_tokens = tokens[: len(st.island_tokens)]
    spots = len(ctx.board.spot_labels)
    st.turn.placed = [rng.below(spots) for _ in range(1 + rng.below(6))]
    assert turn.collect_sets(ctx, st) == _walked_collect_sets(ctx, st)


def test_the_actions_of_a_kind_are_made_once() -> None:
    """D126: asked again, the legal list gives the same action objects (looked up by their
    arguments, not made again), but for 'collect' and 'arrange', which are made each time."""
    match = games.new("yamatai", ["A", "B", "C", "D"], seed=5)
    rng = Rng(5)
    looked_up = 0
    while match.current_seat is not None:
        first = match.rules.legal_moves(match.state)
        again = match.rules.legal_moves(match.state)
        assert first == again
        for a, b in zip(first, again, strict=True):
            assert type(a) is Action
            if a.kind not in ("collect", "arrange"):
                assert a is b, a
                looked_up += 1
        legal = match.legal_actions()
        match.play(legal[rng.below(len(legal))])
    assert looked_up > 1000
