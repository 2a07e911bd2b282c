"""Every view of a few random games renders without error (2, 3 and 4 players)."""

from __future__ import annotations

import pytest

from engine.yamatai.view import yamatai_view
from render.yamatai.layout import HEIGHT, WIDTH
from render.yamatai.picture import render_board, render_image
from tests.render.games import random_views


@pytest.mark.parametrize(("players", "seed"), [(2, 101), (3, 202), (4, 303)])
def test_every_view_of_a_random_game_renders(players: int, seed: int) -> None:
    count = 0
    last = None
    for view in random_views(players, seed):
        image = render_image(yamatai_view(view))
        assert image.size == (WIDTH, HEIGHT)
        count += 1
        last = view
    assert last is not None and last["over"]
    assert render_board(yamatai_view(last))[:4] == b"\x89PNG"
    assert count > 50
