"""What the bot says about itself matches what happens, in words (issue 38 play-through 46,
findings 14, 17, 24, 31), on the Discord double: ``/help`` on ``/resign`` says what the resign
prompt says, a language is named in the reader's language inside a sentence, the closed lobby
of a game with computers lists every seat, a league table's thread is named in words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.service.leagues import MAX_NAME
from tests.discord_double.records import ChannelRecord, MessageRecord
from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, WATCHER, custom_id, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: What the resign prompt (``resign.confirm``) says happens with one other player left.
ONE_LEFT_WINS = {"fr": "il gagne aussitôt", "pl": "od razu wygrywa"}


@pytest.mark.parametrize("locale", ["fr", "pl"])
def test_help_on_resign_says_what_the_resign_prompt_says(tmp_path: Path, locale: str) -> None:
    """QA: "`/resign` abandonner une partie (l'ordinateur continue à ta place)", while with one
    other player left they win at once, as the prompt and the ending card say."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            user = replace(WATCHER, locale=locale)
            said = await env.double.slash(user, CHANNEL, "help", locale=locale)
            text = (await said.reply(TIMEOUT)).text()
            [entry] = [part for part in text.split(" · ") if part.startswith("`/resign`")]
            prompt = default_catalog().text("resign.confirm", locale)
            assert ONE_LEFT_WINS[locale] in prompt  # the prompt's own words
            assert ONE_LEFT_WINS[locale] in entry, entry
            last = {"fr": "dernière place", "pl": "ostatnie miejsce"}[locale]
            assert last in prompt and last in entry, entry

    run(body)


@pytest.mark.parametrize(
    ("locale", "sentence", "listed"),
    [("fr", "langue\u00a0: polonais.", "polonais"), ("pl", "język: polski.", "polski")],
)
def test_a_language_is_named_in_the_readers_language_inside_a_sentence(
    tmp_path: Path, locale: str, sentence: str, listed: str
) -> None:
    """QA: "Ses parties : 48 h par tour ; langue : Polski." on a Polish server read in French;
    the own name (Polski) belongs to the lobby's 🌐 picker only."""

    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale="pl") as env:
            await env.open_lobby(HOST, seats=2)  # a Polish lobby, listed on the table
            await env.quiet()
            user = replace(WATCHER, locale=locale)
            done = await env.double.slash(user, CHANNEL, "games", locale=locale)
            text = (await done.reply(TIMEOUT)).text()
            assert sentence in text, text
            [line] = [x for x in text.splitlines() if "**Yamatai**" in x and "<t:" in x]
            assert f" · {listed} · " in line, line
            assert "Polski" not in text, text

    run(body)


@pytest.mark.parametrize(
    ("locale", "words"),
    [("fr", "{name} · ronde 1 · table 1"), ("pl", "{name} · runda 1 · stół 1")],
)
def test_a_league_table_thread_is_named_in_words(tmp_path: Path, locale: str, words: str) -> None:
    """QA: "Printemps R1 T1" (R and T read as "round" and "table" only by guess); the longest
    league name still leaves the round and the table in Discord's 100 characters."""

    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale=locale) as env:
            double = env.double
            for name in ("Printemps", "W" * MAX_NAME):
                options = {"name": name, "game": "nim", "rounds": 1, "table_size": 2}
                rec = await double.slash(HOST, CHANNEL, "league create", options, locale=locale)
                await rec.reply(TIMEOUT)
                for player in (HOST, GUEST):
                    rec = await double.slash(
                        player, CHANNEL, "league join", {"name": name}, locale=locale
                    )
                    await rec.reply(TIMEOUT)
                before = {t.id for t in double.threads(CHANNEL)}
                rec = await double.slash(
                    HOST, CHANNEL, "league start", {"name": name}, locale=locale
                )
                await rec.reply(TIMEOUT)
                thread = await double.wait_for_thread(CHANNEL, _not_in(before))
                assert thread.name == words.format(name=name), thread.name
                assert len(thread.name) <= 100

    run(body, timeout=120)


def _not_in(seen: set[int]) -> Callable[[ChannelRecord], bool]:
    """A thread none of ``seen``."""
    return lambda thread: thread.id not in seen


@pytest.mark.parametrize(
    ("locale", "title", "computer", "ended"),
    [
        ("fr", "Joueurs (2/2)", "Ordinateur 1 (normal)", "gagnée par"),
        ("pl", "Gracze (2/2)", "Komputer 1 (normalny)", "wygrywa"),
    ],
)
def test_the_closed_lobby_lists_the_computer_seats_that_played(
    tmp_path: Path, locale: str, title: str, computer: str, ended: str
) -> None:
    """QA: "Gra w … dobiegła końca: wygrywa **Komputer 1 (normalny)**" over "👥 Gracze (1/2)
    1. Hana": the winner was not among the players listed."""

    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale=locale) as env:
            table = await env.start_game(HOST, computers=1)
            game = await env.game(table.id)
            assert [s.player for s in game.seats if s.user_id == 0] == [computer]
            lobby = await env.double.wait_for_message(CHANNEL, _closed(table.lobby.id), TIMEOUT)
            assert title in lobby.text() and f"2. {computer}" in lobby.text(), lobby.text()
            await env.game(table.id)
            ask = await env.double.slash(HOST, table.id, "resign", locale=locale)
            asked = await ask.reply(TIMEOUT)
            ok = custom_id(asked, "himiko:resign:ok:")
            await (await env.double.click(HOST, table.id, asked.id, ok)).reply(TIMEOUT)
            closed = await env.double.wait_for_message(
                CHANNEL, lambda m: m.id == table.lobby.id and ended in m.text(), TIMEOUT
            )
            text = closed.text()
            assert computer in text.split(ended, 1)[1], text  # the winner
            assert title in text and f"2. {computer}" in text, text  # among the players

    run(body)


def _closed(lobby_id: int) -> Callable[[MessageRecord], bool]:
    """The lobby message once closed (no button or menu of a lobby left)."""
    return lambda m: (
        m.id == lobby_id and not any(c.startswith("himiko:lobby:") for c in m.custom_ids())
    )
