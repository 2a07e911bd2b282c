"""Pace figures: the median time a player takes to move, from the stored action times."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from datetime import datetime

from .results import Pace, TurnRecord


def turn_times(
    turns: Sequence[TurnRecord], times: Sequence[datetime], started: datetime
) -> list[tuple[int, float]]:
    """(seat, seconds) per complete turn: from the end of the turn before (or the start).

    ``times`` are the stored times of the log's actions in order, one per action of ``turns``.
    """
    found: list[tuple[int, float]] = []
    since, index = started, 0
    for turn in turns:
        index += len(turn.actions)
        if not turn.complete or index > len(times) or index == 0:
            break
        ended = times[index - 1]
        found.append((turn.seat, max(0.0, (ended - since).total_seconds())))
        since = ended
    return found


def pace(
    turns: Sequence[TurnRecord], times: Sequence[datetime], started: datetime, seats: int
) -> Pace:
    """The median time to move of each seat and of the whole game."""
    found = turn_times(turns, times, started)
    per_seat: list[float | None] = []
    for seat in range(seats):
        mine = [seconds for s, seconds in found if s == seat]
        per_seat.append(statistics.median(mine) if mine else None)
    overall = statistics.median([s for _, s in found]) if found else None
    return Pace(tuple(per_seat), overall)
