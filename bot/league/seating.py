"""Seating a league round: how many tables of which size, and who sits where.

Pure functions of plain data (user ids, who met whom); the same input gives the same seating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

Pair = frozenset[int]
REPEAT_COST = 1000  # one repeated meeting outweighs any spread of standings at a table


class SeatingError(ValueError):
    """The players cannot be seated at tables the game allows."""


def table_sizes(players: int, size: int, fewest: int, most: int) -> list[int]:
    """Table sizes for ``players`` aiming at ``size`` seats, as even as possible, largest first.

    Uses as many tables as ``size`` allows; if that leaves a table below the game's ``fewest``
    seats, one table fewer (tables then hold up to ``size + 1``, at most the game's ``most``).
    """
    if players < fewest:
        raise SeatingError(f"{players} players cannot fill a table of at least {fewest}")
    count = max(1, -(-players // size))
    while count >= 1:
        sizes = [players // count + (1 if i < players % count else 0) for i in range(count)]
        if min(sizes) >= fewest and max(sizes) <= most:
            return sizes
        count -= 1
    raise SeatingError(f"{players} players do not fit tables of {fewest} to {most} seats")


def meetings(tables: Sequence[Sequence[int]]) -> dict[Pair, int]:
    """How often each pair of players sat at the same table, over the given tables."""
    met: dict[Pair, int] = {}
    for table in tables:
        for a, b in combinations(table, 2):
            pair = frozenset((a, b))
            met[pair] = met.get(pair, 0) + 1
    return met


def _cost(table: Sequence[int], met: Mapping[Pair, int], position: Mapping[int, int]) -> int:
    repeats = sum(met.get(frozenset((a, b)), 0) for a, b in combinations(table, 2))
    places = [position[p] for p in table]
    return repeats * REPEAT_COST + max(places) - min(places)


def _chunks(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def seat_swiss(
    order: Sequence[int], sizes: Sequence[int], met: Mapping[Pair, int]
) -> list[list[int]]:
    """Tables for players listed best first: neighbours in the standings meet, repeats avoided.

    Starts from consecutive groups of the standings and swaps two players of different tables
    while that lowers the cost (repeated meetings first, then the spread of standings at a
    table), until no swap helps. Each table lists its players in standings order.
    """
    if sum(sizes) != len(order) or len(set(order)) != len(order):
        raise SeatingError("every player must be seated exactly once")
    position = {player: i for i, player in enumerate(order)}
    tables = _chunks(order, sizes)
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for a in range(len(tables[i])):
                for b in range(len(tables[j])):
                    before = _cost(tables[i], met, position) + _cost(tables[j], met, position)
                    tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                    after = _cost(tables[i], met, position) + _cost(tables[j], met, position)
                    if after < before:
                        improved = True
                    else:
                        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
    return [sorted(t, key=position.__getitem__) for t in tables]


def divisions(order: Sequence[int], size: int) -> list[list[int]]:
    """Fixed divisions for a round-robin season: groups of two tables' worth, by seed order.

    A remainder smaller than one table joins the last division.
    """
    span = 2 * size
    groups = [list(order[i : i + span]) for i in range(0, len(order), span)]
    if len(groups) > 1 and len(groups[-1]) < size:
        groups[-2].extend(groups.pop())
    return groups


def repeats(tables: Sequence[Sequence[int]], met: Mapping[Pair, int]) -> int:
    """How many earlier meetings the tables repeat (a pair that met twice counts twice)."""
    return sum(met.get(frozenset((a, b)), 0) for t in tables for a, b in combinations(t, 2))
