"""Seating invariants (hypothesis) and the standings rules on small examples."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.seating import (
    SeatingError,
    divisions,
    meetings,
    repeats,
    seat_swiss,
    table_sizes,
)
from bot.league.standings import SeatOutcome, TableOutcome, place_points, placements, standings


@given(st.integers(2, 60), st.integers(2, 5), st.integers(2, 3), st.integers(4, 6))
def test_table_sizes_fill_every_seat_within_the_game(
    players: int, size: int, fewest: int, most: int
) -> None:
    """Every player gets a seat; tables are even (differ by one at most) and within limits."""
    try:
        sizes = table_sizes(players, size, fewest, most)
    except SeatingError:
        assert players < fewest or players > most  # only when nothing fits
        return
    assert sum(sizes) == players
    assert max(sizes) - min(sizes) <= 1
    assert all(fewest <= s <= most for s in sizes)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(4, 16),
    st.lists(st.lists(st.integers(0, 15), min_size=2, max_size=4), max_size=6),
)
def test_everyone_is_seated_once_per_round(players: int, history: list[list[int]]) -> None:
    """Each player sits at exactly one table of the given sizes; the same input, the same seats."""
    order = list(range(players))
    sizes = table_sizes(players, 4, 2, 5)
    met = meetings([[p for p in t if p < players] for t in history])
    tables = seat_swiss(order, sizes, met)
    assert sorted(p for t in tables for p in t) == order
    assert [len(t) for t in tables] == sizes
    assert tables == seat_swiss(order, sizes, met)
    start = [order[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
    assert repeats(tables, met) <= repeats(start, met)  # never worse than plain standings order


def test_neighbours_in_the_standings_meet_when_nobody_met() -> None:
    """Without history the Swiss-like seating is the standings cut into tables."""
    assert seat_swiss(list(range(8)), [4, 4], {}) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_a_repeat_is_avoided_when_possible() -> None:
    """Three who met are split when a seating without any repeat exists."""
    met = meetings([[0, 1], [2, 3]])
    tables = seat_swiss([0, 1, 2, 3], [2, 2], met)
    assert repeats(tables, met) == 0


def test_divisions_keep_a_small_remainder_in_the_last() -> None:
    """Divisions hold two tables' worth; fewer than a table's players join the last one."""
    assert [len(d) for d in divisions(list(range(19)), 4)] == [8, 11]
    assert [len(d) for d in divisions(list(range(12)), 4)] == [8, 4]


def test_points_scale_with_the_table_size() -> None:
    """3/2/1/0 at four seats; the same range, linear, at other sizes."""
    assert place_points(4) == [3, 2, 1, 0]
    assert place_points(3) == [3, 1.5, 0]
    assert place_points(2) == [3, 0]
    assert place_points(5) == [3, 2.25, 1.5, 0.75, 0]


def test_ties_share_and_forfeits_rank_last() -> None:
    """Equal ranks share their places' points; a withdrawn seat is last whatever its score."""
    table = TableOutcome(
        1,
        1,
        (
            SeatOutcome(1, 1, forfeited=True),
            SeatOutcome(2, 1),
            SeatOutcome(3, 1),
            SeatOutcome(4, 3),
        ),
    )
    got = {p.user_id: (p.place, p.points) for p in placements(table)}
    assert got == {2: (1, 2.5), 3: (1, 2.5), 4: (3, 1.0), 1: (4, 0.0)}


def test_an_unfinished_game_counts_only_the_forfeit() -> None:
    """A game abandoned when a player resigned: they rank last, the others score nothing."""
    table = TableOutcome(1, 1, (SeatOutcome(1, None, True), SeatOutcome(2, None)))
    assert [(p.user_id, p.place, p.points) for p in placements(table)] == [(1, 2, 0.0)]
    lines = standings([1, 2], [table], withdrawn=frozenset({1}))
    assert [(s.user_id, s.played, s.withdrawn) for s in lines] == [(2, 0, False), (1, 1, True)]


def test_tie_breaks_wins_then_opponents_then_rating_then_join_order() -> None:
    """Equal points: more first places first; then opponents' points; then rating; join order."""
    tables = [
        TableOutcome(1, 1, (SeatOutcome(1, 1), SeatOutcome(2, 2))),
        TableOutcome(1, 2, (SeatOutcome(3, 1), SeatOutcome(4, 2))),
        TableOutcome(2, 1, (SeatOutcome(2, 1), SeatOutcome(3, 2))),
        TableOutcome(2, 2, (SeatOutcome(4, 1), SeatOutcome(1, 2))),
    ]
    lines = standings([1, 2, 3, 4], tables, ratings={4: 5.0})
    assert all(s.points == 3 for s in lines)
    assert [s.user_id for s in lines] == [4, 1, 2, 3]
