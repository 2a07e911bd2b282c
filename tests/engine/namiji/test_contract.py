"""Namiji against the engine contract: the conformance suite's checks, run on Namiji directly."""

from __future__ import annotations

import pytest

from engine import games
from engine.errors import EngineError
from engine.players import random_player
from engine.rng import Rng
from tests.engine.test_conformance import (
    MAX_ACTIONS,
    _check_outcome,
    _check_position,
    _undo_equals_replay,
)


@pytest.mark.parametrize("seed", [1000, 2000])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playout_keeps_the_contract(players: int, seed: int) -> None:
    seed += players
    match = games.new("namiji", [f"Player {i}" for i in range(players)], seed=seed)
    rng = Rng(seed)
    step = 0
    ended = False
    while (seat := match.current_seat) is not None:
        assert step < MAX_ACTIONS, "the game never ended"
        if step % 3 == 0:
            _check_position(match, rng)
            _undo_equals_replay(match)
        events = match.play(random_player(match.view(seat), seed + step), seat=seat)
        milestones = match.milestones(events)
        ended = milestones.game_ended
        assert milestones.game_ended == (match.current_seat is None)
        step += 1
    assert ended
    _check_outcome(match, match.outcome)
    replayed = games.replay("namiji", match.players, seed, match.options, match.log)
    assert replayed.to_json() == match.to_json()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("name", ["greedy", "random"])
def test_every_computer_player_finishes_a_game(name: str, players: int) -> None:
    player = games.computer_player("namiji", name)
    match = games.new("namiji", [f"Player {i}" for i in range(players)], seed=3)
    for step in range(MAX_ACTIONS):
        seat = match.current_seat
        if seat is None:
            break
        match.play(player(match.view(seat), step), seat=seat)
    _check_outcome(match, match.outcome)


def test_setup_is_validated() -> None:
    rules = games.rules_for("namiji")
    assert rules.display_name == "Namiji" and (rules.min_players, rules.max_players) == (2, 5)
    for count in (1, 6):
        with pytest.raises(EngineError):
            games.new("namiji", [f"Player {i}" for i in range(count)], seed=1)
    with pytest.raises(EngineError):
        games.new("namiji", ["Player 0", "Player 1"], seed=1, options={"no such option": 1})
    match = games.new("namiji", [f"Player {i}" for i in range(5)], seed=1)
    assert match.colours == ["green", "pink", "yellow", "blue", "violet"]


def test_namiji_is_in_the_shipped_registry() -> None:
    """Namiji is registered in every layer: the engine, the picture and the bot."""
    from bot.games import PRESENTATIONS
    from engine.games import _registry
    from render import RENDERERS

    assert "namiji" in _registry() and "namiji" in RENDERERS and "namiji" in PRESENTATIONS
