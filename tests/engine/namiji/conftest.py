"""Namiji is not in the registry yet (picture and bot parts come later): tests register it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import games
from engine.namiji.game import Namiji


@pytest.fixture(autouse=True)
def namiji_registered() -> Iterator[None]:
    """Namiji in ``games.GAMES`` for the test, removed afterwards."""
    games.register(Namiji())
    try:
        yield
    finally:
        games.GAMES.pop("namiji", None)
