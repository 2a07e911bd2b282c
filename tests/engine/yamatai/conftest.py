"""Fixtures for the Yamatai behaviour tests (see scenario.py for the helpers)."""

from __future__ import annotations

import pytest

from tests.engine.yamatai import scenario
from tests.engine.yamatai.scenario import Match


@pytest.fixture
def m() -> Match:
    """A 3-player game (seed 7) with an empty board and a row nobody can build by accident."""
    return scenario.fresh(players=3, seed=7)


@pytest.fixture
def m2() -> Match:
    """The same for 2 players."""
    return scenario.fresh(players=2, seed=7)


@pytest.fixture
def natural() -> Match:
    """A 3-player game (seed 7) exactly as the engine sets it up."""
    return scenario.new_match(players=3, seed=7)
