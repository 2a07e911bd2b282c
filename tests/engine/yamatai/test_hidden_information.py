"""Hidden information stays hidden: sequences, previews, the public log, built tiles (R16, R29,
R30, R34)."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalAction
from engine.yamatai.infer import state_from_view
from engine.yamatai.players import greedy_player
from tests.engine.yamatai.scenario import (
    COMP,
    Match,
    face_up_fleets,
    legal_starting,
    pass_turn,
    put_building,
    refused,
    to_act,
)


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


# -- built tiles lie face down ---------------------------------------------------------------


def test_others_see_where_a_player_built_but_not_which_tiles(m: Match) -> None:
    """'Take the building tile and place it face down in front of you.'"""
    builder = to_act(m)
    other = (builder + 1) % 3
    put_building(m, builder, "B21", "C4")  # 6 PP
    put_building(m, builder, "T1", "A1")  # 4 PP
    mine = m.view(builder)["players"][builder]
    assert mine["tiles"] == ["B21", "T1"] and mine["hidden_tiles"] == 0
    assert mine["score"]["lines"]["buildings"] == 10
    for viewer in (other, None):
        view = m.view(viewer)
        theirs = view["players"][builder]
        assert theirs["tiles"] == [] and theirs["hidden_tiles"] == 2
        assert theirs["score"]["lines"]["buildings"] == 0
        assert theirs["score"]["total"] == mine["score"]["total"] - 10
        islands = {i["label"]: i["building"] for i in view["islands"]}
        assert islands["C4"] == {"tile": None, "owner": builder, "kind": "standard"}
        assert islands["A1"] == {"tile": None, "owner": builder, "kind": "torii"}
        assert "B21" not in json.dumps(view)


def test_the_public_log_names_the_island_not_the_tile(m: Match) -> None:
    assert m.public_text("build B21 C4") == "build C4 (a standard building, tile face down)"
    assert m.public_text("build P1 C4") == "build C4 (a palace, tile face down)"


def test_every_tile_is_shown_once_the_game_is_over(m: Match) -> None:
    builder = to_act(m)
    put_building(m, builder, "B21", "C4")
    m.state.reserve[0] = 0  # no bamboo: the game ends when this round is over
    while m.current_seat is not None:
        pass_turn(m)
    view = m.view(None)
    assert view["players"][builder]["tiles"] == ["B21"]
    assert {i["label"]: i["building"] for i in view["islands"]}["C4"]["tile"] == "B21"
    assert m.public_text("build B21 C4") == "build B21 C4"


def test_a_computer_player_guesses_face_down_tiles_of_the_right_figure(m: Match) -> None:
    builder = to_act(m)
    put_building(m, builder, "B21", "C4")
    put_building(m, builder, "P2", "A1")
    pass_turn(m)
    other = to_act(m)
    guessed = state_from_view(m.view(other), seed=5)
    kinds = sorted(COMP.buildings[t].kind for t in guessed.players[builder].tiles)
    assert kinds in (["palace", "standard"], ["palace", "trading_post"])
    every = guessed.building_deck + guessed.building_row
    every += [t for p in guessed.players for t in p.tiles + p.reserved]
    assert sorted(every) == sorted(COMP.buildings)
    greedy_player(m.view(other), seed=5)
