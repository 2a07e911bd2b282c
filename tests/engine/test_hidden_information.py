"""Hidden information stays hidden: sequences, previews and the public log (R16, R29, R30)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from tests.engine.scenario import Match, face_up_fleets, legal_starting, pass_turn, refused


def test_look_inside_a_sequence_must_come_last(m: Match) -> None:
    """A failing action after 'look' would otherwise show the deck and roll everything back."""
    face_up_fleets(m, [3, 1, 2, 4, 5])
    error = refused(m, "fleet 3; look; arrange B01", "reveal_alone")
    assert "B01" not in error.message.replace("arrange B01", "")
    m.play("fleet 3; look")
    assert m.state.turn.looked


def test_preview_refuses_look_and_changes_nothing(m: Match) -> None:
    face_up_fleets(m, [3, 1, 2, 4, 5])
    before = m.to_json()
    assert "look" not in m.preview("fleet 3").legal_next  # never offered inside a preview
    with pytest.raises(IllegalAction) as caught:
        m.preview("fleet 3; look")
    assert caught.value.reason == "reveal_alone"
    assert m.to_json() == before


def test_preview_of_a_round_ending_turn_does_not_prepare_the_next_round(m: Match) -> None:
    """The last player's preview shows the end of the turn, not the next round's draws."""
    for _ in range(len(m.state.turn_order) - 1):
        pass_turn(m)
    m.play(legal_starting(m, "fleet")[0])
    keep = legal_starting(m, "keep")[0]
    row, track = m.state.building_row[:], m.state.specialist_track[:]
    before = m.to_json()
    preview = m.preview(f"{keep}; end")
    assert m.to_json() == before
    assert preview.ends_turn and preview.legal_next == []
    assert preview.view["round"] == 1
    assert [t["id"] for t in preview.view["building_row"]] == row
    assert [s["name"] if s else None for s in preview.view["specialist_track"]] == track
    assert [e["type"] for e in preview.events] == ["harbor", "end_turn"]
    m.play(f"{keep}; end")
    assert m.state.round == 2


def test_the_public_log_leaves_out_where_looked_tiles_went(m: Match) -> None:
    face_up_fleets(m, [3, 1, 2, 4, 5])
    m.play("fleet 3; look")
    top = m.state.turn.looked
    m.play(f"arrange {top[0]} / {' '.join(top[1:])}")
    text = m.log[-1][1]
    assert text.startswith(f"arrange {top[0]} /")
    assert m.public_text(text) == "arrange (1 on top, 2 at the bottom)"
    assert m.public_text("fleet 3") == "fleet 3"
