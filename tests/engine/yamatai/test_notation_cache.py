"""Canonical texts kept by the notation are the texts a new notation makes."""

from __future__ import annotations

import pytest

from engine import games
from engine.rng import Rng
from engine.yamatai.context import context
from engine.yamatai.notation import Notation


@pytest.mark.parametrize("seed", [5, 6])
def test_kept_texts_are_what_a_fresh_notation_formats(seed: int) -> None:
    """Every legal action of every position of a random game: the shared notation (its texts
    kept across games and positions) says what a notation made now says, then again."""
    match = games.new("yamatai", [f"P{i}" for i in range(2 + seed % 3)], seed=seed)
    rng = Rng(seed)
    while match.current_seat is not None:
        ctx = context(match.state.board)
        moves = match.rules.legal_moves(match.state)
        fresh = Notation(ctx.board, ctx.comp)
        expected = [fresh.format(action) for action in moves]
        assert [ctx.notation.format(action) for action in moves] == expected
        assert match.legal_actions() == expected
        match.play(expected[rng.below(len(expected))])
