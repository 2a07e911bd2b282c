"""Highlight: the last turn's changes found in engine events."""

from __future__ import annotations

from engine.yamatai.view import yamatai_view
from render.yamatai.highlight import Highlight
from tests.render.games import highlight_from_json, highlight_to_json, play_turns


def test_placed_boats_follow_slides_swaps_and_removals() -> None:
    events = [
        {"type": "fleet", "seat": 2, "fleet": 8, "boats": ["clay", "bamboo"], "missing": []},
        {"type": "place", "seat": 2, "boat": "clay", "spot": "12"},
        {"type": "place", "seat": 2, "boat": "bamboo", "spot": "13"},
        {"type": "place", "seat": 2, "boat": "wood", "spot": "20"},
        {"type": "slide", "seat": 2, "boat": "clay", "from": "12", "to": "5"},
        {"type": "swap_boats", "seat": 2, "spots": ["13", "40"]},
        {"type": "remove", "seat": 2, "boats": [{"boat": "wood", "spot": "20"}]},
        {"type": "end_turn", "seat": 2, "kept": [], "set_aside": []},
        {"type": "turn", "seat": 3, "round": 1},
    ]
    hl = Highlight.from_events(events)
    assert hl.seat == 2
    assert hl.fleet == 8
    assert hl.placed == {"5", "40"}
    assert hl.moved == {"5", "13", "40"}


def test_collect_build_recruit_and_powers() -> None:
    events = [
        {"type": "fleet", "seat": 0, "fleet": 5, "boats": ["gold"], "missing": []},
        {"type": "sacred", "seat": 0, "island": "B2"},
        {"type": "swap_tokens", "seat": 0, "islands": ["C4", "D1"]},
        {"type": "collect", "seat": 0, "tokens": [{"island": "C4", "culture": "silk"}]},
        {"type": "ebisu", "seat": 0, "island": "G1", "culture": "tea"},
        {"type": "recruit", "seat": 0, "specialist": "Riu", "tokens": [], "coins": 2},
        {"type": "reserve", "seat": 0, "tile": "B07"},
    ]
    hl = Highlight.from_events(events)
    assert hl.collected == (("C4", "silk"), ("G1", "tea"))
    assert hl.sacred == {"B2"}
    assert hl.swapped == {"C4", "D1"}
    assert hl.recruited == "Riu"
    assert hl.reserved == "B07"
    built = Highlight.from_events([{"type": "build", "seat": 1, "tile": "T1", "island": "A2"}])
    assert built.built == "A2"


def test_only_the_last_turn_counts() -> None:
    events = [
        {"type": "fleet", "seat": 0, "fleet": 1, "boats": ["bamboo"], "missing": []},
        {"type": "place", "seat": 0, "boat": "bamboo", "spot": "7"},
        {"type": "build", "seat": 0, "tile": "B01", "island": "A1"},
        {"type": "end_turn", "seat": 0, "kept": [], "set_aside": []},
        {"type": "fleet", "seat": 1, "fleet": 2, "boats": ["wood"], "missing": []},
        {"type": "place", "seat": 1, "boat": "wood", "spot": "8"},
        {"type": "end_turn", "seat": 1, "kept": [], "set_aside": []},
    ]
    hl = Highlight.from_events(events)
    assert (hl.seat, hl.placed, hl.built) == (1, frozenset({"8"}), None)


def test_empty_events_give_an_empty_highlight() -> None:
    assert Highlight.from_events([]) == Highlight()


def test_from_view_reads_the_turn_in_progress() -> None:
    view = {
        "current_seat": 1,
        "turn": {"fleet": 6},
        "spots": [
            {"label": "1", "boat": "wood", "placed_this_turn": True},
            {"label": "2", "boat": None, "placed_this_turn": False},
        ],
    }
    assert Highlight.from_view(yamatai_view({"game": "yamatai", **view})) == Highlight(
        seat=1, placed=frozenset({"1"}), fleet=6
    )


def test_real_game_events_and_json_round_trip() -> None:
    _, hl = play_turns(4, 7, 12)
    assert hl.seat is not None
    assert highlight_from_json(highlight_to_json(hl)) == hl
