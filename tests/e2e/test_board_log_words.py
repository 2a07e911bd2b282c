"""``/board`` and ``/log`` in the reader's words (issue 38 items 3 and 9; play-through 46):
``/board`` told anyone the step in the player's imperative ("C'est à **Kenji** de jouer
(choisis une tuile Flotte)", "Teraz gra **Hana** (wybierz kafelek floty)"): now a spectator or
the other player reads the spectators' third person, the player to act "À toi de jouer : …";
``/log`` put a turn's notation first and unmarked: now its words, then "(notation : `…`)"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.service.tables import step_of
from bot.web.work import spectator_step
from tests.discord_double import UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, WATCHER, Env, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

USERS = {HOST.id: HOST, GUEST.id: GUEST}
#: How each language marks the notation after a ``/log`` turn's words.
MARKED = {
    "fr": "(notation\u00a0: `",
    "pl": "(notacja: `",
    "en": "(notation: `",
    "it": "(notazione: `",
}


def say(key: str, lang: str, **params: object) -> str:
    return default_catalog().text(key, lang, **params)


async def board(env: Env, user: UserSpec, thread: int, lang: str, public: bool = False) -> str:
    options = {"public": True} if public else None
    reply = await (await env.double.slash(user, thread, "board", options, locale=lang)).reply(
        TIMEOUT
    )
    return reply.content


@pytest.mark.parametrize("lang", ["fr", "pl", "it", "en"])
@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_board_speaks_to_the_player_to_act_and_of_them_to_anyone_else(
    tmp_path: Path, game: str, lang: str
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game=game)
            step = step_of(await env.match(table.id))
            assert step is not None
            mine, theirs = say(step, lang), say(spectator_step(step), lang)
            # the player's words speak to them (English says both alike)
            assert mine != theirs or lang == "en"
            current = await env.current_user(table.id)
            player = USERS[current or 0]
            other = GUEST if player is HOST else HOST
            name = player.global_name or player.name

            said = await board(env, player, table.id, lang)
            assert say("board.yours", lang, step=mine) in said, said

            expected = say("board.current", lang, player=name, step=theirs)
            for reader in (WATCHER, other):
                said = await board(env, reader, table.id, lang)
                assert expected in said and (mine == theirs or mine not in said), said
            said = await board(env, player, table.id, lang, public=True)  # everyone reads it
            assert expected in said, said

    run(body)


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_french_and_polish_board_words_read_in_the_third_person(tmp_path: Path, lang: str) -> None:
    """The play-through's own lines: no imperative to a reader who does not play."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            said = await board(env, WATCHER, table.id, lang)
            wanted = {
                "fr": "de jouer\u00a0: choisir une tuile Flotte.",
                "pl": ": wybrać kafelek floty.",
            }
            assert wanted[lang] in said, said
            assert "choisis" not in said and "wybierz" not in said, said

    run(body)


@pytest.mark.parametrize("lang", ["fr", "pl", "it", "en"])
@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_log_says_each_turn_in_words_then_its_notation_marked(
    tmp_path: Path, game: str, lang: str
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game=game)
            player = USERS[await env.current_user(table.id) or 0]
            first = (await env.match(table.id)).legal_actions()[0]
            await (await env.play(player, table.id, first)).reply(TIMEOUT)
            rec = await env.double.slash(WATCHER, table.id, "log", locale=lang)
            log = (await rec.reply(TIMEOUT)).content
            name = re.escape(player.global_name or player.name)
            found = re.search(rf"\*\*{name}\*\* \([^)]*\)\s?: (.*)", log)
            assert found, log
            words, mark, notation = found[1].partition(MARKED[lang])
            assert mark and notation == f"{first}`)", log  # second, and marked as such
            assert words.strip() and "`" not in words, log  # words first
            assert say("log.in_progress", lang) in words, log

    run(body)
