"""Seeded random play: invariants after every action, across 2, 3 and 4 players."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine import games
from engine.games import Match
from engine.rng import Rng
from engine.yamatai.components import load_components
from tests.engine.yamatai.scenario import to_act

COMP = load_components()
MAX_ACTIONS = 3000


def random_game(players: int, seed: int, check_every_action: bool = True) -> Match:
    """Play a seeded random game, checking the cheap invariants after every action."""
    m = games.new("yamatai", [f"P{i}" for i in range(players)], seed=seed)
    rng = Rng(seed)
    for _ in range(MAX_ACTIONS):
        if m.current_seat is None:
            return m
        legal = m.legal_actions()
        assert legal, "legal actions must not be empty while the game runs"
        m.play(legal[rng.below(len(legal))])
        if check_every_action:
            assert_conserved(m)
    raise AssertionError(f"game {players}p seed {seed} did not end in {MAX_ACTIONS} actions")


def game_for(seed: int) -> Match:
    """A new game whose player count (2, 3 or 4) follows from the seed."""
    return games.new("yamatai", [f"P{i}" for i in range(2 + seed % 3)], seed=seed)


def assert_conserved(m: Match) -> None:
    """Boats of each type: reserve + board + players = count; nothing negative."""
    st = m.state
    on_board = Counter(st.spot_boats)
    kept = [*(p.boats for p in st.players), *(p.set_aside for p in st.players)]
    held = [sum(boats) for boats in zip(*kept, strict=True)]
    for boat, count in enumerate(COMP.boat_counts):
        assert st.reserve[boat] + on_board[boat] + held[boat] == count, COMP.boat_names[boat]
    assert min(st.reserve) >= 0
    for p in st.players:
        assert p.coins >= 0
        assert min(p.tokens) >= 0
        assert min(p.boats) >= 0
        assert p.pp_tokens >= 0
        assert p.buildings_left >= 0
    assert min(st.specialist_coins) >= 0
    assert 0 <= st.sacred_left <= COMP.sacred_grounds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_keep_invariants_and_end(players: int) -> None:
    """Hundreds of games per player count: conservation, termination, JSON and replay at the end."""
    for seed in range(400):
        m = random_game(players, seed)
        assert m.outcome is not None
        assert m.legal_actions() == []
        assert games.from_json(m.to_json()).to_json() == m.to_json()
        if seed % 20 == 0:
            replayed = games.replay("yamatai", m.players, m.seed, m.options, m.log)
            assert replayed.to_json() == m.to_json()


@pytest.mark.parametrize("seed", range(6))
def test_json_round_trip_and_replay_after_every_action(seed: int) -> None:
    """After every action: JSON round trip is lossless and replaying the log gives the same game."""
    m = game_for(seed)
    replay = games.new("yamatai", m.players, seed=seed)
    rng = Rng(seed)
    while m.current_seat is not None:
        legal = m.legal_actions()
        seat = to_act(m)
        action = legal[rng.below(len(legal))]
        m.play(action, seat=seat)
        replay.play(action, seat=seat)
        text = m.to_json()
        loaded = games.from_json(text)
        assert loaded.to_json() == text
        assert loaded.legal_actions() == m.legal_actions()
        assert replay.to_json() == text
    assert json.loads(m.to_json())["log"] == [[s, a] for s, a in m.log]


@pytest.mark.parametrize("seed", range(20))
def test_undo_equals_replay_without_the_last_action(seed: int) -> None:
    """Whenever undo is allowed, it gives exactly the game replayed without the last action."""
    m = game_for(seed)
    rng = Rng(seed + 100)
    undone = 0
    while m.current_seat is not None:
        if m.can_undo() and rng.below(4) == 0:
            before = m.log[:-1]
            last = m.log[-1]
            m.undo(seat=m.current_seat)
            expected = games.replay("yamatai", m.players, m.seed, m.options, before)
            assert m.to_json() == expected.to_json()
            m.play(last[1], seat=last[0])
            undone += 1
        legal = m.legal_actions()
        m.play(legal[rng.below(len(legal))])
    assert undone > 0


@pytest.mark.parametrize("seed", range(25))
def test_every_legal_action_applies_and_its_notation_round_trips(seed: int) -> None:
    """Each listed action is canonical, parses back to itself, and applies without error."""
    m = game_for(seed)
    rng = Rng(seed + 7)
    steps = 0
    while m.current_seat is not None:
        legal = m.legal_actions()
        assert len(set(legal)) == len(legal), "no duplicates"
        if steps % 5 == 0:
            for action in legal:
                assert m.canonical(action) == action
                assert m.canonical("  " + action.upper().replace(" ", "   ") + " ") == action
                trial = games.from_json(m.to_json())
                trial.play(action)
        m.play(legal[rng.below(len(legal))])
        steps += 1


SHOWN_NEXT = (
    ({"place"}, "place"),
    ({"collect", "build"}, "act"),
    ({"keep"}, "acted"),
    ({"recruit"}, "stored"),
)


@pytest.mark.parametrize("seed", range(12))
def test_the_step_shown_names_what_is_legal_next(seed: int) -> None:
    """Rulebook: trade, place boats (optional), then collect or build, the harbor, recruit. The
    step shown is the engine's while trading or placing is legal; once none is, the next thing
    legal (QA: "Now: place boats" with only collect and build legal, "trade or place boats" with
    only "end" or after the turn's one trade, "collect or build" with only the harbor); tiles
    looked at: "look"."""
    m = game_for(seed)
    rng = Rng(seed)
    shown: set[str] = set()
    while (seat := m.current_seat) is not None:
        legal = m.legal_actions()
        turn = m.view(seat)["turn"]
        kinds = {a.split()[0] for a in legal}
        own = {"trade": {"buy", "sell"}, "place": {"place"}}.get(turn["step"])
        if turn["looking"]:
            expected = "look"
        elif own is None or kinds & own:
            expected = turn["label"] if own is None else turn["step"]
        else:
            expected = next((name for want, name in SHOWN_NEXT if kinds & want), "recruited")
        assert turn["label"] == expected, (turn, sorted(kinds))
        assert m.turn_info.step in (expected, "acted_recruit_first")
        shown.add(expected)
        m.play(legal[rng.below(len(legal))])
    assert "act" in shown  # every game meets it
