"""Pace figures: the median time a player takes to move, from the stored action times."""

from __future__ import annotations

import statistics
from collections.abc import Collection, Sequence
from datetime import datetime

from bot.store import Action

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


def seat_times(
    actions: Sequence[Action], seats: Collection[int], started: datetime, by_computer: set[int]
) -> list[float]:
    """Seconds each run of ``seats``' actions took, from the action before it (or the game's
    start) to its last action: a player's moves without replaying the game. Runs with an
    action the computer played for them are left out."""
    found: list[float] = []
    since, run_start, run_by_computer = started, None, False
    for index, action in enumerate(actions):
        if action.seat in seats:
            if run_start is None:
                run_start, run_by_computer = since, False
            run_by_computer |= action.seq in by_computer
            ends = index + 1 == len(actions) or actions[index + 1].seat not in seats
            if ends and not run_by_computer:
                found.append(max(0.0, (action.created_at - run_start).total_seconds()))
            if ends:
                run_start = None
        since = action.created_at
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
    return Pace(seats=tuple(per_seat), game=overall)
