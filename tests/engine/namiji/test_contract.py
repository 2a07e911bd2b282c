"""Namiji against the engine contract, beyond the conformance suite (which plays it like every
registered game): every computer player at every player count, setup, the registries."""

from __future__ import annotations

import pytest

from engine import games
from engine.errors import EngineError
from tests.engine.test_conformance import (
    MAX_ACTIONS,
    _check_outcome,
)


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
