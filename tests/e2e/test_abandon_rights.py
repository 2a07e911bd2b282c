"""Who may abandon a game, through the Discord double: a league game has no host (its league's
organisers decide, and it is ranked as it stood), and a host who resigned has no host rights
left over the game the others play on."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

import pytest

from tests.discord_double import UserSpec
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    custom_id,
    has_png,
    himiko_env,
    run,
)
from tests.e2e.test_league import FOURTH, PLAYERS

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

MANAGE_THREADS = 1 << 34
MODERATOR = FOURTH  # not seated in the casual game


async def ask(env: Env, user: UserSpec, channel_id: int, command: str, **options: object) -> str:
    """Run a command in a channel or thread; the text of its reply."""
    rec = await env.double.slash(user, channel_id, command, options)
    return (await rec.reply(TIMEOUT)).content


async def confirm_abandon(env: Env, user: UserSpec, thread_id: int) -> str:
    """``/abandon`` then Confirm; the question asked."""
    question = await (await env.double.slash(user, thread_id, "abandon")).reply(TIMEOUT)
    asked = question.content  # the message becomes the answer to the click
    yes = custom_id(question, "himiko:abandon:ok:")
    done = await env.double.click(user, thread_id, question.id, yes)
    assert "abandoned" in (await done.reply(TIMEOUT)).content
    return asked


def test_a_league_game_is_abandoned_by_the_league_s_organisers_and_ranked_as_it_stood(
    tmp_path: Path,
) -> None:
    """The first seat of a league table is no host: refused. The league's creator, seated
    elsewhere, may; the game then counts for the league as it stood (both players placed)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            options = {"name": "Piles", "game": "nim", "rounds": 2, "table_size": 2}
            assert "created" in await ask(env, HOST, CHANNEL, "league create", **options)
            for player in PLAYERS:
                assert "You joined" in await ask(env, player, CHANNEL, "league join", name="Piles")
            assert "started" in await ask(env, HOST, CHANNEL, "league start", name="Piles")
            threads = double.threads(CHANNEL)
            assert len(threads) == 2
            for thread in threads:
                await double.wait_for_message(thread.id, has_png, TIMEOUT)
            users = {p.id: p for p in PLAYERS}
            games = {t.id: await env.game(t.id) for t in threads}
            [table] = [t for t in threads if HOST.id not in {s.user_id for s in games[t.id].seats}]
            first, second = (users[s.user_id] for s in games[table.id].seats)
            refused = await ask(env, first, table.id, "abandon")
            assert "only its organisers" in refused and "**Piles**" in refused
            assert "host" not in await ask(env, second, table.id, "abandon")
            assert (await env.game(table.id)).status == "active"
            question = await confirm_abandon(env, HOST, table.id)
            assert "**Piles**" in question and "points they have scored so far" in question
            ended = await double.wait_for_message(
                table.id, lambda m: "abandoned this game" in m.text(), TIMEOUT
            )
            said = ended.text()  # the ending's card (D200)
            assert "counts as it stood" in said and "without a winner" not in said
            assert (await env.game(table.id)).status == "abandoned"
            export = await double.slash(WATCHER, CHANNEL, "league export", {"name": "Piles"})
            [games_csv] = [
                a for a in (await export.reply(TIMEOUT)).attachments if a.filename == "games.csv"
            ]
            rows = list(csv.DictReader(io.StringIO(games_csv.data.decode())))
            placed = {
                int(r["user_id"]): (r["place"], r["points"])
                for r in rows
                if r["game_id"] == str(games[table.id].id)
            }
            # Nim has no score before the last take: both share first place and its points
            assert placed == {first.id: ("1", "1.5"), second.id: ("1", "1.5")}

    run(body, timeout=120)


def test_a_host_who_resigned_may_no_longer_abandon_the_game_the_others_play(
    tmp_path: Path,
) -> None:
    """Three humans; the host resigns and the game goes on: the host's ``/abandon`` is refused,
    and so is another player's; a member who manages threads still may."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST, WATCHER])
            resign = await (await env.double.slash(HOST, table.id, "resign")).reply(TIMEOUT)
            yes = custom_id(resign, "himiko:resign:ok:")
            done = await env.double.click(HOST, table.id, resign.id, yes)
            assert "You resigned" in (await done.reply(TIMEOUT)).content
            await env.settled()
            assert (await env.game(table.id)).status == "active"
            refused = await ask(env, HOST, table.id, "abandon")
            assert "The host resigned from this game" in refused
            assert "The host resigned" in await ask(env, GUEST, table.id, "abandon")
            assert (await env.game(table.id)).status == "active"
            moderator = replace(MODERATOR, permissions=MODERATOR.permissions | MANAGE_THREADS)
            question = await confirm_abandon(env, moderator, table.id)
            assert "without a winner" in question
            assert (await env.game(table.id)).status == "abandoned"

    run(body, timeout=120)
