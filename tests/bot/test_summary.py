"""A turn in words, from engine events."""

from __future__ import annotations

from typing import Any

from bot.catalog import default_catalog
from bot.service.history import replay_turns
from bot.summary import Summary, describe_turn
from engine import games
from engine.players import greedy_player

NAMES = ["Ann", "Bo"]

TURN: list[dict[str, Any]] = [
    {"type": "fleet", "seat": 0, "fleet": 6, "boats": ["wood", "bamboo"], "missing": []},
    {"type": "buy", "seat": 0, "boat": "clay", "coins": -4},
    {"type": "place", "seat": 0, "boat": "clay", "spot": "12"},
    {"type": "place", "seat": 0, "boat": "wood", "spot": "13"},
    {
        "type": "build",
        "seat": 0,
        "tile": "B07",
        "island": "C4",
        "kind": "standard",
        "pp_tokens": 1,
        "coins": 3,
        "bonus": {"group": 3, "mountain": 1},
        "last_building": False,
    },
    {"type": "end_turn", "seat": 0, "kept": ["bamboo"], "set_aside": []},
    {"type": "turn", "seat": 1, "round": 1},
]


def test_turn_summary_text() -> None:
    text = describe_turn("Ann", TURN, NAMES, default_catalog())
    assert text == (
        "**Ann** took fleet 6, bought clay, placed 2 boats, built B07 on C4: +3 coins, +1 PP"
    )


def test_other_events() -> None:
    summary = Summary(default_catalog())
    events: list[dict[str, Any]] = [
        {"type": "fleet", "seat": 1, "fleet": 10, "boats": ["clay"], "missing": ["wood"]},
        {"type": "place", "seat": 1, "boat": "clay", "spot": "3"},
        {"type": "collect", "seat": 1, "tokens": [{"island": "A1", "culture": "silk"}]},
        {"type": "recruit", "seat": 1, "specialist": "Riu", "tokens": ["silk"], "coins": 4},
        {"type": "izanami", "seat": 0, "from": 1, "coins": 2},
        {"type": "slide", "seat": 1, "boat": "clay", "from": "3", "to": "4"},
        {"type": "swap_tokens", "seat": 1, "islands": ["C4", "D2"]},
        {"type": "end_turn", "seat": 1, "kept": ["gold"], "set_aside": ["wood", "stone"]},
        {"type": "round_end", "round": 2},
    ]
    text = summary.turn("Bo", events, NAMES)
    assert text == (
        "**Bo** took fleet 10 (no wood boat left), placed 1 boat, collected silk, "
        "recruited Riu: +4 coins, Ann took 2 coins (Izanami), slid a clay boat from 3 to 4, "
        "swapped the tokens on C4, D2, set aside 2 boats\nRound 2 is over."
    )


def test_every_turn_of_a_real_game_reads_well() -> None:
    match = games.new("yamatai", ["Ann", "Bo", "Cy"], seed=11)
    while match.current_seat is not None:
        seat = match.current_seat
        match.play(greedy_player(match.view(seat), 3), seat=seat)
    summary = Summary(default_catalog())
    turns = replay_turns(match)
    assert turns and all(t.complete for t in turns)
    for turn in turns:
        text = summary.turn(match.players[turn.seat], turn.events, match.players)
        assert "{" not in text and "used " not in text, text
        assert text.startswith(f"**{match.players[turn.seat]}** took fleet")
    assert "The game ends:" in summary.turn("x", turns[-1].events, match.players)
    outcome = match.outcome
    assert outcome is not None
