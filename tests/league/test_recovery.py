"""Crashes and refusals in the league service: nothing lost, nothing doubled, nothing changed."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import cast

import pytest
from PIL import Image, ImageChops

from bot.service import ServiceError
from bot.store.__main__ import main as store_main
from render.league import NAME_WIDTH, PAD, StandingRow, render_standings
from render.text import measuring
from render.theme import DEFAULT
from tests.league.season import (
    CHANNEL,
    GUILD,
    ORGANISER,
    PLAYERS,
    Leagues,
    open_round,
    play_out,
    run,
    with_leagues,
)

GOLDEN = Path(__file__).parent / "golden"


async def _league(env: Leagues, players: int = 4) -> int:
    league = await env.leagues.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=ORGANISER, name="Cup", game_key="yamatai"
    )
    for user, name in PLAYERS[:players]:
        await env.leagues.join(GUILD, "Cup", user, name)
    return league.id


def test_a_kill_between_seating_and_opening_neither_loses_nor_doubles_a_table(
    tmp_path: Path,
) -> None:
    """The game was created in the thread but the table never recorded it (process killed).

    The retry finds the thread's game and records it: one game, no second table.
    """

    async def body(env: Leagues) -> None:
        league_id = await _league(env)
        await env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)
        league = await env.repo.load_league_by_id(league_id)
        assert league is not None
        [table] = await env.leagues.tables_to_open(league)
        await env.leagues.table_message(table, 4242)
        players = [(s.user_id, s.name) for s in table.players]
        first = await env.games.playing.create_game(  # the first try got this far, then died
            guild_id=GUILD, channel_id=CHANNEL, thread_id=4242, players=players, game_key="yamatai"
        )
        [again] = await env.leagues.tables_to_open(league)  # still owed after the restart
        assert again.table.message_id == 4242
        assert await env.leagues.open_table(again, 4242) is None
        assert await env.leagues.tables_to_open(league) == []
        [stored] = await env.repo.league_tables(league_id)
        assert stored.game_id == first.game_id and stored.thread_id == 4242
        with pytest.raises(ServiceError) as caught:
            await env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)
        assert caught.value.key == "league.already_started"
        assert len(await env.repo.league_tables(league_id)) == 1

    run(lambda: with_leagues(tmp_path, body))


def test_refusals_change_nothing(tmp_path: Path) -> None:
    """Unknown league, taken name, joining twice, too few players, not an organiser."""

    async def body(env: Leagues) -> None:
        league_id = await _league(env, players=1)

        async def refused(key: str, call: object) -> None:
            with pytest.raises(ServiceError) as caught:
                await call  # type: ignore[misc]
            assert caught.value.key == key

        await refused("league.unknown", env.leagues.join(GUILD, "Nope", 1, "x"))
        await refused(
            "league.name_taken",
            env.leagues.create(
                guild_id=GUILD, channel_id=CHANNEL, creator_id=1, name="cup", game_key="yamatai"
            ),
        )
        await refused("league.already_joined", env.leagues.join(GUILD, "Cup", *PLAYERS[0]))
        await refused("league.not_organiser", env.leagues.start(GUILD, "Cup", 5, organiser=False))
        await refused(
            "league.too_few_players", env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)
        )
        await refused(
            "league.bad_table_size",
            env.leagues.create(
                guild_id=GUILD,
                channel_id=CHANNEL,
                creator_id=1,
                name="Big",
                game_key="yamatai",
                table_size=6,
            ),
        )
        await refused(
            "league.bad_points",
            env.leagues.create(
                guild_id=GUILD,
                channel_id=CHANNEL,
                creator_id=1,
                name="Odd",
                game_key="yamatai",
                points="1,2,3",
            ),
        )
        league = await env.repo.load_league_by_id(league_id)
        assert league is not None and league.status == "signup" and league.current_round == 0
        assert len(await env.repo.league_players(league_id)) == 1
        assert [x.name for x in await env.repo.list_leagues(GUILD)] == ["Cup"]

    run(lambda: with_leagues(tmp_path, body))


def test_withdrawal_mid_season_forfeits_and_ranks_last(tmp_path: Path) -> None:
    """A player who leaves during round 1 forfeits their game, ranks last and is withdrawn."""

    async def body(env: Leagues) -> None:
        league_id = await _league(env)
        await env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)
        [game_id] = await open_round(env, league_id)
        quitter = PLAYERS[2][0]
        left = await env.leagues.leave(GUILD, "Cup", quitter)
        assert left.withdrawn
        game = await env.repo.load_game(game_id)
        if game.status == "active":  # resign gave the seat to a computer: the game goes on
            await play_out(env, game_id)
        standings = await env.leagues.standings(left.league)
        last = standings.lines[-1]
        assert last.user_id == quitter and last.withdrawn and last.points == 0
        with pytest.raises(ServiceError):
            await env.leagues.leave(GUILD, "Cup", quitter)

    run(lambda: with_leagues(tmp_path, body))


def test_ratings_rebuild_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot.store ratings --rebuild`` gives back exactly the stored ratings."""

    async def body(env: Leagues) -> None:
        league_id = await _league(env)
        await env.leagues.start(GUILD, "Cup", ORGANISER, organiser=True)
        for game_id in await open_round(env, league_id):
            await play_out(env, game_id)

    run(lambda: with_leagues(tmp_path, body))
    db = tmp_path / "league.sqlite3"

    async def ratings() -> list[object]:
        async def read(env: Leagues) -> list[object]:
            return list(await env.repo.all_ratings())

        return await with_leagues(tmp_path, read)

    before = asyncio.run(ratings())
    assert len(before) == 4
    assert store_main(["ratings", "--db", str(db), "--rebuild"]) == 0
    assert "rated 1 games (every rating rebuilt)" in capsys.readouterr().out
    assert asyncio.run(ratings()) == before


def test_standings_picture_golden() -> None:
    """The standings picture, compared with its approved golden file (looked at by eye)."""
    rows = [
        StandingRow("1", "Hana", "6", "2", "8.1", "+2.3"),
        StandingRow("2", "Kenji", "4.5", "2", "3.2", "-0.4"),
        StandingRow("3", "Mio", "1.5", "2", "-1.0", ""),
        StandingRow("4", "Ren (withdrawn)", "0", "1", "-2.5", "-1.2", withdrawn=True),
    ]
    headers = ["#", "Player", "Points", "Games", "Rating", "Change"]
    png = render_standings("Spring Cup — Yamatai", "after round 2 of 3", headers, rows)
    golden = GOLDEN / "standings.png"
    if not golden.exists():
        golden.parent.mkdir(exist_ok=True)
        golden.write_bytes(png)
    with Image.open(io.BytesIO(png)) as got, Image.open(golden) as want:
        assert got.size == want.size
        diff = ImageChops.difference(got.convert("RGB"), want.convert("RGB"))
        extrema = cast("list[tuple[int, int]]", diff.getextrema())
        assert max(high for _, high in extrema) <= 24  # font hinting may differ a bit


def test_a_resigned_player_s_note_follows_the_name_within_its_column() -> None:
    """Issue 21 item 6: the standings marked league withdrawals only; a player who resigned
    games is marked after the name, in the warning colour, the name cut to leave it room."""
    long = "Bartholomew Fitzgerald-Worthington"
    rows = [
        StandingRow("1", "Hana", "6", "2", "8.1", "+2.3", note="(resigned: 1)"),
        StandingRow("2", long, "4.5", "2", "3.2", "-0.4", note="(resigned: 2)"),
    ]
    headers = ["#", "Player", "Points", "Games", "Rating", "Change"]
    with measuring() as drawn:
        png = render_standings("Spring Cup — Yamatai", "after round 2 of 3", headers, rows)
    name_column = (PAD + 56, PAD + 56 + NAME_WIDTH)
    notes = [d for d in drawn if d.text.startswith("(resigned")]
    assert [d.text for d in notes] == ["(resigned: 1)", "(resigned: 2)"]
    assert all(name_column[0] < d.box[0] and d.box[2] <= name_column[1] for d in notes)
    cut = next(d for d in drawn if d.text.startswith("Bartholomew"))
    assert cut.text.endswith("…") and cut.box[2] < notes[1].box[0]
    with Image.open(io.BytesIO(png)) as picture:
        first = notes[0].box
        inks = picture.convert("RGB").crop(first).getcolors(4096) or []
        assert DEFAULT.negative in {colour for _, colour in inks}
