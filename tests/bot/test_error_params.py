"""A refusal's own parameters reach its text, whatever their name: ``game`` fills "{game}" in
``error.seats``, ``league.bad_table_size`` and ``queue.bad_players`` (it was taken for the refused
game's key by ServiceError and the text said "{game}")."""

from __future__ import annotations

from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.present import error_text
from bot.service.errors import ServiceError


@pytest.mark.parametrize(
    ("key", "params"),
    [
        ("error.seats", {"min": 2, "max": 4}),
        ("league.bad_table_size", {"min": 2, "max": 4}),
        ("queue.bad_players", {"typed": "7", "min": 2, "max": 4}),
        ("queue.bad_game", {}),
    ],
)
@pytest.mark.parametrize("locale", ["en-US", "fr", "pl"])
def test_a_refusal_says_the_game_it_was_given(
    key: str, params: dict[str, Any], locale: str
) -> None:
    """The game's name is in the text, no placeholder is left."""
    text = error_text(default_catalog(), ServiceError(key, game="Yamatai", **params), locale)
    assert "Yamatai" in text
    assert "{" not in text
