"""What users type into leagues: points that are numbers, names that are text, safe exports."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from bot.catalog import LOCALES, default_catalog
from bot.present import error_text
from bot.service import ServiceError
from tests.league.season import (
    CHANNEL,
    GUILD,
    ORGANISER,
    Leagues,
    open_round,
    play_out,
    run,
    with_leagues,
)

pytestmark = pytest.mark.usefixtures("backend")


async def _refused(env: Leagues, key: str, **options: object) -> ServiceError:
    """Create a league with these options; the refusal (and nothing stored)."""
    arguments: dict[str, object] = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "creator_id": ORGANISER,
        "name": "Cup",
        "game_key": "yamatai",
        **options,
    }
    with pytest.raises(ServiceError) as caught:
        await env.leagues.create(**arguments)  # type: ignore[arg-type]
    assert caught.value.key == key
    assert await env.repo.list_leagues(GUILD) == []
    return caught.value


@pytest.mark.parametrize(
    "points",
    ["nan,1", "3,nan", "NaN,NaN", "inf,1", "3,-inf", "Infinity,0", "1e999,1", "3,2,1,-0.5"],
)
def test_points_that_are_not_finite_numbers_are_refused(tmp_path: Path, points: str) -> None:
    """NaN and infinities are no points: refused with what is allowed, nothing created."""

    async def body(env: Leagues) -> None:
        error = await _refused(env, "league.bad_points", points=points)
        for locale in LOCALES:
            text = error_text(default_catalog(), error, locale)
            assert "1000" in text and "3,2,1,0" in text and "{" not in text

    run(lambda: with_leagues(tmp_path, body))


def test_points_echoed_in_a_code_span_cannot_close_it(tmp_path: Path) -> None:
    """The typed points are shown between backticks: a backtick in them cannot end the span."""

    async def body(env: Leagues) -> None:
        error = await _refused(env, "league.bad_points", points="`[x](https://e.vil)`")
        text = error_text(default_catalog(), error, "en")
        assert text.startswith("`'[x](https://e.vil)'` ")

    run(lambda: with_leagues(tmp_path, body))


def test_finite_points_within_the_range_are_kept(tmp_path: Path) -> None:
    """Plain numbers, decimals included, are stored as typed."""

    async def body(env: Leagues) -> None:
        league = await env.leagues.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            creator_id=ORGANISER,
            name="Cup",
            game_key="yamatai",
            points="1000, 2.5, 0",
        )
        assert league.points == "1000,2.5,0"

    run(lambda: with_leagues(tmp_path, body))


EVIL_NAMES = (
    '=HYPERLINK("https://e.vil","x")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "\tTab",
    "\rReturn",
    "\uff1d1+1",
    "Plain",
)
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def test_export_neutralizes_every_cell_a_spreadsheet_would_run(tmp_path: Path) -> None:
    """Player names that look like formulas get a leading quote; the bot's numbers stay numbers."""

    async def body(env: Leagues) -> None:
        league = await env.leagues.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            creator_id=ORGANISER,
            name="Cup",
            game_key="nim",
            table_size=2,
        )
        for user, name in enumerate(EVIL_NAMES, start=1000):
            await env.leagues.join(GUILD, "Cup", user, name)
        await env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)
        for game_id in await open_round(env, league.id):
            await play_out(env, game_id)
        files = await env.leagues.export(league)
        names = []
        for text in files.values():
            rows = list(csv.reader(io.StringIO(text, newline="")))
            player = rows[0].index("player")
            names += [row[player] for row in rows[1:]]
            for row in rows[1:]:
                for cell in row:
                    if cell[:1] in ("=", "+", "-", "@", "\t", "\r", "\uff1d"):
                        assert NUMBER.fullmatch(cell), cell  # only a number the bot wrote
        assert set(names) == {"'" + n for n in EVIL_NAMES[:-1]} | {"Plain"}
        assert any(c.startswith("-") for c in files["standings"].split(","))  # a number stays

    run(lambda: with_leagues(tmp_path, body))
