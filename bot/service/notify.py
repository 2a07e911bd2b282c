"""Each player's notification settings: how to be told it is their turn, and quiet hours."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.store import UserSettings

from .errors import ServiceError

NOTIFY_MODES = ("ping", "dm", "both", "none")
MAX_VACATION_DAYS = 30
_DAY = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")  # the one date format /settings vacation takes
MAX_ZONE = 64
#: Offered first by the time zone autocomplete.
COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Rome",
    "Europe/Warsaw",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Tokyo",
    "Asia/Shanghai",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Australia/Sydney",
    "Pacific/Auckland",
)


@dataclass(frozen=True)
class Delivery:
    """How one message to a player goes out: a ping in the thread, a direct message; ``also``:
    the other players a turn message pings too (per-game pings: every turn)."""

    ping: bool
    dm: bool
    also: tuple[int, ...] = ()


def check_zone(name: str) -> str:
    """The IANA time zone name, validated (``settings.bad_time_zone`` if unknown)."""
    cleaned = name.strip()
    try:
        if not cleaned or len(cleaned) > MAX_ZONE:
            raise ValueError(cleaned)
        ZoneInfo(cleaned)
    except (ZoneInfoNotFoundError, ValueError):
        raise ServiceError("settings.bad_time_zone", zone=cleaned[:MAX_ZONE]) from None
    return cleaned


def zone_choices(typed: str, limit: int = 25) -> list[str]:
    """Time zone names containing what was typed: common ones first, then the rest A-Z."""
    needle = typed.strip().lower()
    common = [z for z in COMMON_ZONES if needle in z.lower()]
    rest = sorted(z for z in available_timezones() if needle in z.lower() and z not in common)
    return (common + rest)[:limit]


def is_quiet(settings: UserSettings, now: int) -> bool:
    """Whether ``now`` (UTC unix seconds) falls in the player's quiet hours, in their zone.

    Quiet hours run from ``quiet_start`` to ``quiet_end`` o'clock and may wrap past midnight.
    """
    start, end, zone = settings.quiet_start, settings.quiet_end, settings.time_zone
    if start is None or end is None or zone is None or start == end:
        return False
    try:
        hour = datetime.fromtimestamp(now, UTC).astimezone(ZoneInfo(zone)).hour
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return start <= hour < end if start < end else hour >= start or hour < end


def delivery(settings: UserSettings, now: int) -> Delivery:
    """How to tell the player now: the thread message always appears; ping and DM per settings."""
    if is_quiet(settings, now):
        return Delivery(ping=False, dm=False)
    mode = settings.notify
    return Delivery(ping=mode in ("ping", "both"), dm=mode in ("dm", "both"))


def vacation_end(until: str, zone: str | None, now: int) -> int:
    """The end of a vacation lasting to the end of the day ``until`` (YYYY-MM-DD) in the
    player's time zone (UTC without one), as UTC unix seconds; at most ``MAX_VACATION_DAYS``
    ahead, and not in the past (``settings.bad_date``, ``settings.vacation_past``,
    ``settings.vacation_too_long``)."""
    text = until.strip()
    try:  # date.fromisoformat alone also takes 20301231, 2030-W01-1 and 2030-12-31T...
        day = date.fromisoformat(text) if _DAY.fullmatch(text) else None
    except ValueError:  # a day that does not exist: 2030-02-30, 2030-13-01, 0000-01-01
        day = None
    if day is None:
        raise ServiceError("settings.bad_date", date=text[:20].replace("`", "'"))
    tz = ZoneInfo(zone) if zone else UTC
    today = datetime.fromtimestamp(now, tz).date()
    # by the calendar first, so that a day like 9999-12-31 is refused before any arithmetic
    # on it could leave the range of ``datetime`` (OverflowError)
    if day < today - timedelta(days=1):
        raise ServiceError("settings.vacation_past", date=day.isoformat())
    if day > today + timedelta(days=MAX_VACATION_DAYS + 1):
        raise ServiceError("settings.vacation_too_long", days=MAX_VACATION_DAYS)
    end = int(datetime.combine(day + timedelta(days=1), time(), tzinfo=tz).timestamp())
    if end <= now:
        raise ServiceError("settings.vacation_past", date=day.isoformat())
    if end - now > (MAX_VACATION_DAYS + 1) * 86400:
        raise ServiceError("settings.vacation_too_long", days=MAX_VACATION_DAYS)
    return end
