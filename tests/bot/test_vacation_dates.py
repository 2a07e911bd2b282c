"""``/settings vacation until:``: exactly ``YYYY-MM-DD``, within the allowed range; any other
text gets one of the vacation refusals in words, never the generic failure."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from string import Formatter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.catalog import LOCALES, default_catalog
from bot.service import ServiceError
from bot.service.notify import MAX_VACATION_DAYS, vacation_end

NOW = int(datetime(2030, 6, 15, 12, tzinfo=UTC).timestamp())
REFUSALS = {"settings.bad_date", "settings.vacation_past", "settings.vacation_too_long"}
ZONES = (None, "UTC", "Pacific/Kiritimati", "Etc/GMT+12", "Europe/Warsaw", "America/St_Johns")


def answer(text: str, zone: str | None, now: int = NOW) -> str | int:
    """The vacation's end, or the refusal's key (after checking it reads in every language)."""
    try:
        return vacation_end(text, zone, now)
    except ServiceError as refusal:
        assert refusal.key in REFUSALS, refusal.key
        for locale in LOCALES:
            raw = default_catalog().raw(refusal.key, locale)
            wanted = {name for _, name, _, _ in Formatter().parse(raw) if name}
            assert wanted <= set(refusal.params), (locale, raw)
        return refusal.key


DAY_LIKE = st.one_of(
    st.dates(date.min, date.max).map(date.isoformat),
    st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z"),
    st.builds(
        lambda day, tail: day.isoformat() + tail,
        st.dates(date(2030, 6, 1), date(2030, 8, 1)),
        st.text(max_size=12),
    ),
    st.sampled_from(
        [
            "20300620",
            "2030-W25-3",
            "2030-06-20T10:00",
            "2030-6-20",
            "\uff12\uff10\uff13\uff10-06-20",
        ]
    ),
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=40), DAY_LIKE), st.sampled_from(ZONES), st.integers(0, 31))
def test_any_text_gets_an_end_in_range_or_a_vacation_refusal(
    text: str, zone: str | None, days: int
) -> None:
    now = NOW + days * 86400 * 40  # some years on, still far from datetime's limits
    found = answer(text, zone, now)
    if isinstance(found, int):
        assert now < found <= now + (MAX_VACATION_DAYS + 1) * 86400
        assert text.strip() == date.fromisoformat(text.strip()).isoformat()


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("9999-12-31", "settings.vacation_too_long"),
        ("0001-01-01", "settings.vacation_past"),
        ("2030-02-30", "settings.bad_date"),
        ("2030-06-20xyz", "settings.bad_date"),
        ("2030-06-20 and more", "settings.bad_date"),
        ("20300620", "settings.bad_date"),
        ("2030-W25-3", "settings.bad_date"),
        ("2030-06-20T10:00", "settings.bad_date"),
        ("0000-01-01", "settings.bad_date"),
    ],
)
def test_dates_out_of_range_or_with_more_text_are_refused_by_name(
    text: str, key: str, zone: str | None
) -> None:
    assert answer(text, zone) == key


def test_a_day_in_range_lasts_to_its_end_in_the_player_s_zone() -> None:
    end = answer(" 2030-06-20 ", "UTC")  # spaces around the date are not part of it
    assert end == int(datetime(2030, 6, 21, tzinfo=UTC).timestamp())
    last = (datetime.fromtimestamp(NOW, UTC).date() + timedelta(days=MAX_VACATION_DAYS)).isoformat()
    assert isinstance(answer(last, None), int)
