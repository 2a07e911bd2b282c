"""``/rating``, ``/leaderboard`` and ``/profile`` write a rating as the reader's language does
and agree ("12,3" in French, "12.3" in English: issue 38 item 12); ``/rating`` without a game
shows the game the player played (D216), not the first game of the list."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.store.models import RatingChange
from tests.discord_double import UserSpec
from tests.discord_double.records import MessageRecord
from tests.e2e.harness import CHANNEL, GUEST, GUILD, HOST, TIMEOUT, WATCHER, Env, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


async def ask(
    env: Env, user: UserSpec, command: str, options: dict[str, object], locale: str = "en-US"
) -> str:
    """What the card answering ``/command`` by ``user`` reading Discord in ``locale`` says."""
    reader = replace(user, locale=locale)
    rec = await env.double.slash(reader, CHANNEL, command, options, locale=locale)
    answer: MessageRecord = await rec.reply(TIMEOUT)
    return "\n".join(answer.text_displays())


async def rated_in_nim(env: Env, rating: float) -> None:
    """The host and the guest rated in Nim (one game's changes, stored as the ratings service
    stores them): the host's displayed rating is ``rating``."""
    table = await env.start_game(HOST, [GUEST], game="nim")
    repo = env.bot.repo
    assert repo is not None
    game_id = (await repo.load_game_by_thread(table.id)).id
    changes = [
        RatingChange(game_id, HOST.id, 25.0, 8.333, rating + 6.0, 2.0),
        RatingChange(game_id, GUEST.id, 25.0, 8.333, 10.0, 2.0),
    ]
    assert await repo.record_ratings(game_id, GUILD, "nim", changes)


def test_a_rating_is_written_as_the_readers_language_writes_it(tmp_path: Path) -> None:
    """12.3 is "12,3" on the French /rating, /leaderboard and /profile cards alike, "12,3" in
    Polish and Italian, "12.3" in English (/rating and /leaderboard wrote "12.3" everywhere)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            await rated_in_nim(env, 12.3)
            french = [
                await ask(env, WATCHER, "rating", {"user": HOST.id, "game": "nim"}, "fr"),
                await ask(env, WATCHER, "leaderboard", {"game": "nim"}, "fr"),
                await ask(env, WATCHER, "profile", {"user": HOST.id}, "fr"),
            ]
            for said in french:
                assert "**12,3**" in said and "12.3" not in said
            for locale in ("pl", "it"):
                said = await ask(env, WATCHER, "rating", {"user": HOST.id, "game": "nim"}, locale)
                assert "**12,3**" in said
            english = await ask(env, WATCHER, "leaderboard", {"game": "nim"})
            assert "**12.3**" in english and "**4.0**" in english

    run(body, timeout=120)


def test_rating_without_a_game_shows_the_game_the_player_played(tmp_path: Path) -> None:
    """A player who played only Namiji (against the computer: no rating yet) is told about
    Namiji, not Yamatai; once rated in a game they played last, that one."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            await env.start_game(HOST, computers=1, game="namiji")
            said = await ask(env, HOST, "rating", {})
            assert "no Namiji rating on this server yet" in said
            await rated_in_nim(env, 12.3)
            said = await ask(env, HOST, "rating", {})
            assert "Nim rating **12.3**" in said
            assert "Namiji" not in said

    run(body, timeout=180)
