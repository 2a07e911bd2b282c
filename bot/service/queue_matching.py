"""Which waiting players the queue matches (issue 39 item 1): pure, no store, no clock.

A group fits when its size is within every member's player counts and the members who said
when they are about (their ``/settings`` time zone and quiet hours) share at least
``SHARED_HOURS`` waking hours a day. The oldest waiter is served first, in the largest group
that fits them; the others join in the order they joined. A player without quiet hours fits
any hours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.store import QueueEntry, UserSettings

from .notify import is_quiet

#: Waking hours a day a group must share (of those who set quiet hours) to be matched.
SHARED_HOURS = 2
HOUR = 3600


@dataclass(frozen=True)
class Waiter:
    """A queue entry and the hours of the next day (0-23 from now) its player is awake;
    None: they did not say (any hours fit)."""

    entry: QueueEntry
    awake: frozenset[int] | None = None


def awake_hours(settings: UserSettings, now: int) -> frozenset[int] | None:
    """The hours of the next day (hour 0 is the one starting ``now``) outside the player's
    quiet hours, or None if they set none."""
    if settings.quiet_start is None or settings.time_zone is None:
        return None
    return frozenset(h for h in range(24) if not is_quiet(settings, now + h * HOUR))


def waiters(
    entries: Sequence[QueueEntry], settings: Mapping[int, UserSettings], now: int
) -> list[Waiter]:
    """The entries still waiting at ``now`` (not expired), with their players' waking hours."""
    return [
        Waiter(e, awake_hours(settings.get(e.user_id, UserSettings(e.user_id)), now))
        for e in entries
        if e.expires_at > now
    ]


def _shared(group: Sequence[Waiter]) -> bool:
    """Whether the group's players who said their hours share enough of them."""
    said = [w.awake for w in group if w.awake is not None]
    if len(said) < 2:
        return True
    return len(frozenset.intersection(*said)) >= SHARED_HOURS


def _fits_size(waiter: Waiter, size: int) -> bool:
    return waiter.entry.fewest <= size <= waiter.entry.most


def pick(waiting: Sequence[Waiter]) -> tuple[QueueEntry, ...] | None:
    """The group of one game to open now, in seat order (who joined first sits first), or
    None. ``waiting``: one server's waiters for one game, in the order they joined."""
    ordered = sorted(waiting, key=lambda w: (w.entry.joined_at, w.entry.user_id))
    for first in ordered:
        for size in range(first.entry.most, first.entry.fewest - 1, -1):
            group = [first]
            for other in ordered:
                if len(group) == size:
                    break
                if other is first or not _fits_size(other, size):
                    continue
                if _shared([*group, other]):
                    group.append(other)
            if len(group) == size:
                seated = sorted(group, key=lambda w: (w.entry.joined_at, w.entry.user_id))
                return tuple(w.entry for w in seated)
    return None
