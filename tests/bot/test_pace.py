"""Pace figures: the median time to move per player and per game, from stored action times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app import HimikoBot
from bot.cogs.info import log_text
from bot.service import HistoryResult, PlayerInfo, TurnRecord
from bot.service.pace import pace, turn_times
from tests.bot.test_client import _interaction, _settings

START = datetime(2026, 1, 1, tzinfo=UTC)


def at(minutes: float) -> datetime:
    """A time ``minutes`` after the start."""
    return START + timedelta(minutes=minutes)


def turn(seat: int, actions: int, complete: bool = True) -> TurnRecord:
    """A turn of ``actions`` actions."""
    return TurnRecord(seat=seat, round=1, actions=("x",) * actions, events=(), complete=complete)


def test_each_turn_lasts_from_the_end_of_the_one_before() -> None:
    turns = [turn(0, 2), turn(1, 1), turn(0, 1), turn(1, 3), turn(0, 1, complete=False)]
    times = [at(1), at(10), at(70), at(80), at(200), at(201), at(202), at(999)]
    assert turn_times(turns, times, START) == [
        (0, 600.0),
        (1, 3600.0),
        (0, 600.0),
        (1, 7320.0),
    ]
    figures = pace(turns, times, START, 3)
    assert figures.seats == (600.0, 5460.0, None)
    assert figures.game == 2100.0
    assert pace([], [], START, 2).game is None


def test_the_log_ends_with_the_pace_line(tmp_path: Path) -> None:
    bot = HimikoBot(_settings(tmp_path))
    players = (
        PlayerInfo(seat=0, name="Ann", user_id=1, colour="blue"),
        PlayerInfo(seat=1, name="Bo", user_id=None, colour="red"),
    )
    event = {"type": "fleet", "seat": 0, "fleet": 4, "boats": [], "missing": []}
    turns = tuple(
        TurnRecord(seat=i % 2, round=1, actions=("fleet 4",) * 40, events=(event,), complete=True)
        for i in range(30)
    )
    figures = pace(list(turns), [at(i) for i in range(1200)], START, 2)
    text = log_text(
        _interaction(bot),
        HistoryResult(game_id=1, game="yamatai", players=players, turns=turns, pace=figures),
    )
    assert len(text) <= 2000 and text.startswith("**Recent turns**")
    assert text.endswith("**Pace** (median time to move): Ann 40 min, Bo 40 min; whole game 40 min")
