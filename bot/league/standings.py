"""League points and standings from finished tables.

Placement: the seats of a finished game in the game's own rank order (ties as the game's rules
decide: equal ranks share their places); a forfeited seat (the player withdrew or resigned) is
placed after every seat that played on. Points per place come from the league's points list,
scaled to the table's size; tied places share the points of the places they cover.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from math import isfinite

DEFAULT_POINTS: tuple[float, ...] = (3, 2, 1, 0)
MOST_POINTS = 1000  # for one place


@dataclass(frozen=True)
class SeatOutcome:
    """One league seat at an ended table: the game's rank, a forfeit, or no result (None).

    A seat without a rank that is not forfeited sat in a game that did not finish: it scores
    nothing and its game is not counted as played.
    """

    user_id: int
    rank: int | None
    forfeited: bool = False


@dataclass(frozen=True)
class TableOutcome:
    """A finished table of a round."""

    round: int
    table: int
    seats: tuple[SeatOutcome, ...]


@dataclass(frozen=True)
class Placement:
    """A player's place at a table (1 = first; tied players share the better place) and points."""

    user_id: int
    place: int
    points: float


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    user_id: int
    points: float
    played: int
    wins: int
    opponents_points: float
    withdrawn: bool
    rank: int = 0
    resigned: int = 0  # games forfeited: resigned, or left by a withdrawal


def parse_points(text: str) -> tuple[float, ...]:
    """A points list typed as ``3,2,1,0``: at least two finite numbers from 0 to 1000, not
    increasing (ValueError; ``nan`` and ``inf`` are no numbers of points)."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    values = tuple(float(p) for p in parts)
    if len(values) < 2 or not all(isfinite(v) and 0 <= v <= MOST_POINTS for v in values):
        raise ValueError(f"two or more numbers from 0 to {MOST_POINTS}")
    if any(a < b for a, b in pairwise(values)):
        raise ValueError("the points must not increase from one place to the next")
    return values


def place_points(size: int, points: Sequence[float] = DEFAULT_POINTS) -> list[float]:
    """Points for places 1..size: the list itself at its own size, else scaled linearly.

    With the default 3/2/1/0: a 3-player table gives 3/1.5/0, a 5-player one 3/2.25/1.5/0.75/0.
    """
    if size == len(points):
        return [float(p) for p in points]
    if size == 1:
        return [float(points[0])]
    result = []
    for place in range(size):
        x = place * (len(points) - 1) / (size - 1)
        low = int(x)
        high = min(low + 1, len(points) - 1)
        result.append(round(points[low] + (points[high] - points[low]) * (x - low), 4))
    return result


def placements(table: TableOutcome, points: Sequence[float] = DEFAULT_POINTS) -> list[Placement]:
    """Each seat's place and points at a finished table (forfeits last, ties share)."""
    ranked = [(s.rank, s) for s in table.seats if not s.forfeited and s.rank is not None]
    ranked.sort(key=lambda pair: pair[0])
    groups: list[list[SeatOutcome]] = []
    last: int | None = None
    for rank, seat in ranked:
        if groups and last == rank:
            groups[-1].append(seat)
        else:
            groups.append([seat])
        last = rank
    scale = place_points(len(table.seats), points)
    result, place = [], 0
    forfeits = [s for s in table.seats if s.forfeited]
    if forfeits:
        groups.append(forfeits)
    for group in groups:
        if group is forfeits:
            place = len(table.seats) - len(forfeits)
        shared = sum(scale[place : place + len(group)]) / len(group)
        result += [Placement(s.user_id, place + 1, round(shared, 4)) for s in group]
        place += len(group)
    return result


def standings(
    players: Sequence[int],
    tables: Sequence[TableOutcome],
    *,
    withdrawn: frozenset[int] = frozenset(),
    ratings: Mapping[int, float] | None = None,
    points: Sequence[float] = DEFAULT_POINTS,
) -> list[Standing]:
    """The standings, best first, of ``players`` (in join order) over the finished tables.

    Tie-breaks, in order: league points; first places; the points of every opponent met
    (each opponent counted once per game together); the displayed rating; join order.
    Withdrawn players are listed after everyone else.
    """
    totals = {p: 0.0 for p in players}
    played = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    resigned = dict.fromkeys(players, 0)
    opponents: dict[int, list[int]] = {p: [] for p in players}
    for table in tables:
        for place in placements(table, points):
            if place.user_id not in totals:
                continue
            totals[place.user_id] += place.points
            played[place.user_id] += 1
            wins[place.user_id] += place.place == 1
        for seat in table.seats:
            if seat.forfeited and seat.user_id in resigned:
                resigned[seat.user_id] += 1
            opponents[place.user_id] += [
                s.user_id for s in table.seats if s.user_id != place.user_id
            ]
    rated = ratings or {}
    lines = [
        Standing(
            p,
            round(totals[p], 4),
            played[p],
            wins[p],
            round(sum(totals.get(o, 0.0) for o in opponents[p]), 4),
            p in withdrawn,
            resigned=resigned[p],
        )
        for p in players
    ]
    join = {p: i for i, p in enumerate(players)}
    lines.sort(
        key=lambda s: (
            s.withdrawn,
            -s.points,
            -s.wins,
            -s.opponents_points,
            -rated.get(s.user_id, 0.0),
            join[s.user_id],
        )
    )
    return [replace(s, rank=i + 1) for i, s in enumerate(lines)]
