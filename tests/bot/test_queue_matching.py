"""Who the queue matches (issue 39 item 1), as a pure function: player counts, waking hours,
the oldest waiter first, seats in the order players joined."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st

from bot.service.errors import ServiceError
from bot.service.queue import QueueService, player_counts
from bot.service.queue_matching import SHARED_HOURS, Waiter, awake_hours, pick, waiters
from bot.store import QueueEntry, UserSettings

NOW = 1_800_000_000  # 2027-01-15 08:00 UTC


def entry(user: int, fewest: int, most: int, at: int | None = None) -> QueueEntry:
    """User ``user`` waiting for ``fewest`` to ``most`` players since ``at`` (default: user)."""
    joined = user if at is None else at
    return QueueEntry(
        guild_id=1, user_id=user, game_key="yamatai", name=f"P{user}", fewest=fewest,
        most=most, channel_id=9, joined_at=joined, expires_at=joined + 10**10,
    )  # fmt: skip


def users(group: tuple[QueueEntry, ...] | None) -> list[int] | None:
    return None if group is None else [e.user_id for e in group]


def test_the_issue_s_three_players_make_one_game_of_three() -> None:
    two_to_four, three_or_four, three = entry(1, 2, 4), entry(2, 3, 4), entry(3, 3, 3)
    assert pick([Waiter(two_to_four)]) is None
    assert pick([Waiter(two_to_four), Waiter(three_or_four)]) is None  # 2 is not in 3-4
    everyone = [Waiter(three), Waiter(three_or_four), Waiter(two_to_four)]
    assert users(pick(everyone)) == [1, 2, 3]  # seated in the order they joined


def test_the_oldest_waiter_gets_the_largest_game_that_fits_them() -> None:
    waiting = [Waiter(entry(u, 2, 4)) for u in range(1, 7)]
    assert users(pick(waiting)) == [1, 2, 3, 4]
    # the oldest cannot be served: the next ones still play together
    waiting = [Waiter(entry(1, 4, 4)), Waiter(entry(2, 2, 2)), Waiter(entry(3, 2, 3))]
    assert users(pick(waiting)) == [2, 3]


def test_players_who_sleep_at_opposite_hours_are_not_matched() -> None:
    tokyo = UserSettings(1, time_zone="Asia/Tokyo", quiet_start=1, quiet_end=19)
    paris = UserSettings(2, time_zone="Europe/Paris", quiet_start=1, quiet_end=19)
    night_owl = UserSettings(3)  # no quiet hours: any hours fit
    shared = awake_hours(tokyo, NOW)
    assert shared is not None and len(shared) == 6 and awake_hours(night_owl, NOW) is None
    entries = [entry(1, 2, 2), entry(2, 2, 2), entry(3, 2, 2)]
    found = waiters(entries, {1: tokyo, 2: paris, 3: night_owl}, NOW)
    assert users(pick(found)) == [1, 3]  # Tokyo's and Paris' evenings do not meet
    assert users(pick(found[1:])) == [2, 3]


def test_an_expired_entry_waits_no_more() -> None:
    old = entry(1, 2, 2, at=NOW - 10**10)
    assert waiters([old, entry(2, 2, 2)], {}, NOW) == [Waiter(entry(2, 2, 2))]


def test_player_counts_as_typed() -> None:
    assert player_counts(None, "yamatai") == (2, 4)
    assert player_counts(" 3 ", "yamatai") == (3, 3)
    assert player_counts("2 \u2013 3", "yamatai") == (2, 3)  # an en dash
    assert player_counts("2-5", "namiji") == (2, 5)
    for bad in ("1", "5", "3-2", "x", "2-", "2-3-4", "٣"):
        try:
            player_counts(bad, "yamatai")
        except ServiceError as refused:
            assert refused.key == "queue.bad_players" and refused.params["max"] == 4
        else:
            raise AssertionError(bad)


@st.composite
def queues(draw: st.DrawFn) -> list[Waiter]:
    """Up to eight waiters with any counts from 2 to 4 and maybe waking hours."""
    found = []
    for user in range(1, draw(st.integers(0, 8)) + 1):
        fewest = draw(st.integers(2, 4))
        most = draw(st.integers(fewest, 4))
        hours = draw(st.none() | st.frozensets(st.integers(0, 23), min_size=1))
        found.append(Waiter(entry(user, fewest, most, at=draw(st.integers(0, 50))), hours))
    return found


@given(queues())
def test_a_group_picked_fits_every_member(waiting: list[Waiter]) -> None:
    group = pick(waiting)
    if group is None:
        # nobody could have played with the oldest of any pair that fits by counts alone
        return
    size = len(group)
    assert len({e.user_id for e in group}) == size
    assert all(e.fewest <= size <= e.most for e in group)
    hours = [w.awake for w in waiting if w.entry in group and w.awake is not None]
    if len(hours) >= 2:
        assert len(frozenset.intersection(*hours)) >= SHARED_HOURS
    assert list(group) == sorted(group, key=lambda e: (e.joined_at, e.user_id))


@given(queues())
def test_two_players_who_fit_each_other_are_never_left_waiting(waiting: list[Waiter]) -> None:
    """If any two waiters could play a game of two, a group is found."""
    pairs = [
        (a, b)
        for a in waiting
        for b in waiting
        if a.entry.user_id < b.entry.user_id
        and a.entry.fewest == 2
        and b.entry.fewest == 2
        and (a.awake is None or b.awake is None or len(a.awake & b.awake) >= SHARED_HOURS)
    ]
    if pairs:
        assert pick(waiting) is not None


def test_a_game_that_does_not_exist_is_refused_before_anything_is_stored() -> None:
    """Discord offers only the games' choices; a forged value still changes nothing."""
    store = cast(Any, object())  # any call on it would fail: nothing is read or written
    service = QueueService(store, playing=cast(Any, None), reading=cast(Any, None), clock=lambda: 0)
    try:
        asyncio.run(
            service.join(
                guild_id=1, user_id=2, name="Ann", game_key="chess", players=None, channel_id=3
            )
        )
    except ServiceError as refused:
        assert refused.key == "queue.bad_game" and refused.params["game"] == "chess"
    else:
        raise AssertionError("a game that does not exist was queued for")
