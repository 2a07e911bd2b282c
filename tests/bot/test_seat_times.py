"""A player's times to move from the action log alone (``/profile``, issue 21 item 14)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.service.pace import seat_times
from bot.store import Action

START = datetime(2027, 1, 1, tzinfo=UTC)


def _log(*moves: tuple[int, int]) -> list[Action]:
    """Actions (seat, minutes after the start), numbered from 1."""
    return [
        Action(i, seat, "x", START + timedelta(minutes=minutes))
        for i, (seat, minutes) in enumerate(moves, 1)
    ]


def test_each_run_of_the_players_actions_counts_from_the_action_before_it() -> None:
    log = _log((0, 2), (0, 3), (1, 10), (0, 14), (1, 20), (0, 30))
    assert seat_times(log, {0}, START, set()) == [180.0, 240.0, 600.0]
    assert seat_times(log, {1}, START, set()) == [420.0, 360.0]


def test_runs_the_computer_played_for_the_player_are_left_out() -> None:
    log = _log((0, 2), (0, 3), (1, 10), (0, 14), (1, 20), (0, 30))
    assert seat_times(log, {0}, START, {2, 6}) == [240.0]
    assert seat_times([], {0}, START, set()) == []
