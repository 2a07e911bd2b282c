"""What users type into leagues: points that are numbers, names that are text, safe exports."""

from __future__ import annotations

import asyncio
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


INVISIBLE = {
    "\u202e": "U+202E",  # right-to-left override
    "\u2066": "U+2066",  # left-to-right isolate
    "\u2069": "U+2069",  # pop directional isolate
    "\u200f": "U+200F",  # right-to-left mark
    "\ufeff": "U+FEFF",  # byte order mark
    "\u200b": "U+200B",  # zero-width space
    "\u200d": "U+200D",  # zero-width joiner
    "\u2060": "U+2060",  # word joiner
    "\u00ad": "U+00AD",  # soft hyphen
    "\u3164": "U+3164",  # Hangul filler
    "\x00": "U+0000",
    "\x1b": "U+001B",
    "\x7f": "U+007F",
    "\U000e0041": "U+E0041",  # tag letter A
}


@pytest.mark.parametrize("char", list(INVISIBLE))
def test_names_with_invisible_characters_are_refused(tmp_path: Path, char: str) -> None:
    """Control, bidi, BOM and zero-width characters: refused naming the character."""

    async def body(env: Leagues) -> None:
        error = await _refused(env, "league.name_invisible", name=f"Cup{char}gnirpS")
        assert error.params["character"] == INVISIBLE[char]
        for locale in LOCALES:
            assert INVISIBLE[char] in error_text(default_catalog(), error, locale)

    run(lambda: with_leagues(tmp_path, body))


LOOK_ALIKES = [
    "CUP",
    "cup",
    "\uff23\uff35\uff30",  # full-width
    "\U0001d402\U0001d42e\U0001d429",  # mathematical bold
    "Cu\ufe0fp",  # a variation selector inside
    "  Cup ",
]


def test_look_alikes_of_an_existing_league_are_refused_and_find_it(tmp_path: Path) -> None:
    """Names equal in NFKC, case-folded, without invisible characters are one league."""

    async def body(env: Leagues) -> None:
        await env.leagues.create(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=ORGANISER, name="Cup", game_key="nim"
        )
        for name in LOOK_ALIKES:
            with pytest.raises(ServiceError) as caught:
                await env.leagues.create(
                    guild_id=GUILD, channel_id=CHANNEL, creator_id=1, name=name, game_key="nim"
                )
            assert caught.value.key == "league.name_taken"
            assert caught.value.params["name"] == "Cup"  # the league it looks like
            assert (await env.leagues.get(GUILD, name)).name == "Cup"
        assert [x.name for x in await env.repo.list_leagues(GUILD)] == ["Cup"]
        assert await env.leagues.names(GUILD, "\uff43") == ["Cup"]  # typed full-width

    run(lambda: with_leagues(tmp_path, body))


def test_look_alikes_created_at_once_make_one_league(tmp_path: Path) -> None:
    """The database decides between look-alikes created at the same moment: one league."""

    async def body(env: Leagues) -> None:
        async def create(name: str) -> str:
            try:
                await env.leagues.create(
                    guild_id=GUILD, channel_id=CHANNEL, creator_id=1, name=name, game_key="nim"
                )
            except ServiceError as error:
                return error.key
            return "created"

        told = await asyncio.gather(*(create(n) for n in ["Cup", *LOOK_ALIKES]))
        assert sorted(told) == ["created"] + ["league.name_taken"] * len(LOOK_ALIKES)
        assert len(await env.repo.list_leagues(GUILD)) == 1

    run(lambda: with_leagues(tmp_path, body))


@pytest.mark.parametrize(
    "name",
    ["[click](https://e.vil)", "**Cup** @everyone <@123456789012345678>", "`x` ||y|| # z"],
)
def test_league_names_are_escaped_in_every_error(tmp_path: Path, name: str) -> None:
    """A name typed back to the user in a refusal is text: no masked link, no markdown."""

    async def body(env: Leagues) -> None:
        with pytest.raises(ServiceError) as caught:
            await env.leagues.join(GUILD, name, 1, "x")
        text = error_text(default_catalog(), caught.value, "en")
        assert not MASKED_LINK.search(text) and "**Cup**" not in text and "@everyone" not in text
        assert "||y||" not in text and "`x`" not in text

    run(lambda: with_leagues(tmp_path, body))


MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")
