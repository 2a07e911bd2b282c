"""Stand-ins (migration 0010): resigned seats rank last; a resignation never comes undone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.store import resigned_last


def test_resigned_seats_rank_after_everybody_else_whatever_the_score() -> None:
    ranks = {0: 1, 1: 2, 2: 2, 3: 4}
    assert resigned_last(ranks, {0}) == {1: 1, 2: 1, 3: 3, 0: 4}
    assert resigned_last(ranks, {0, 3}) == {1: 1, 2: 1, 0: 3, 3: 4}
    assert resigned_last(ranks, set()) == ranks


@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=5),
    st.sets(st.integers(0, 4)),
)
def test_every_resigned_seat_ranks_below_every_other(ranks: list[int], gone: set[int]) -> None:
    given_ranks = dict(enumerate(ranks))
    resigned = gone & set(given_ranks)
    new = resigned_last(given_ranks, resigned)
    assert set(new) == set(given_ranks)
    playing = [new[s] for s in given_ranks if s not in resigned]
    for seat in resigned:
        assert all(new[seat] > r for r in playing)
    for a in given_ranks:  # order kept within each group
        for b in given_ranks:
            if (a in resigned) == (b in resigned) and given_ranks[a] < given_ranks[b]:
                assert new[a] < new[b]
