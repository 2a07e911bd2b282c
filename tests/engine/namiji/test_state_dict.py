"""The state's JSON form, written field by field, is exactly what ``dataclasses.asdict`` gives."""

from __future__ import annotations

from dataclasses import asdict, fields

import pytest

from engine import games
from engine.namiji.state import SCHEMA, Player, State
from engine.players import random_player


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_to_dict_is_asdict_at_every_position(players: int, seed: int) -> None:
    """Same keys in the same order and equal values after every action, and no value shared
    with the state (a saved dict does not change when the game goes on)."""
    match = games.new("namiji", [f"P{i}" for i in range(players)], seed=seed)
    while (seat := match.current_seat) is not None:
        st = match.state
        assert isinstance(st, State)
        data = st.to_dict()
        expected = {**asdict(st), "schema": SCHEMA}
        assert data == expected
        assert list(data) == list(expected)
        assert [list(p) for p in data["players"]] == [[f.name for f in fields(Player)]] * players
        assert data["players"][0]["crate"] is not st.players[0].crate
        assert data["bag"] is not st.bag and data["tasks"] is not st.tasks
        match.play(random_player(match.view(seat), seed), seat=seat)
    assert match.state.to_dict() == {**asdict(match.state), "schema": SCHEMA}
