"""A building tile reserved with fleet 2 is named as a reader reads it, on the Discord double
(issue 38 play-through, finding 8): the ``/play`` suggestions, the private answer and the
thread's turn message said "Réserver le bâtiment B04", "a réservé B16"; they say the number
the picture draws ("#16" is "bâtiment n° 16", "T2" is "torii n° 2")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.yamatai.components import load_components
from tests.discord_double import UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, Table, himiko_env, run, told

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

NB = "\u00a0"
#: A tile's code (an island is B1, a tile B01).
CODE = re.compile(r"\bB\d\d\b|\b[TP]\d\b")
#: A tile as the object of the verb, by kind: French with its article, Polish in its case.
OBJECT = {
    "fr": {
        "standard": f"le bâtiment n°{NB}",
        "trading_post": f"l'échoppe n°{NB}",
        "torii": f"le torii n°{NB}",
        "palace": f"le palais n°{NB}",
    },
    "pl": {
        "standard": f"budynek nr{NB}",
        "trading_post": f"faktorię nr{NB}",
        "torii": f"torii nr{NB}",
        "palace": f"pałac nr{NB}",
    },
}
RESERVE = {"fr": "Réserver", "pl": "Zarezerwuj"}
RESERVED = {"fr": "a réservé", "pl": "rezerwuje"}
#: What ends a turn soonest, first (the harbor, then the end).
FINISH = ("end", "keep", "collect", "place", "build")


def _object(locale: str, code: str) -> str:
    kind = load_components().buildings[code].kind
    return OBJECT[locale][kind] + str(int(code[1:]))


async def _play(env: Env, user: UserSpec, table: Table, action: str, locale: str) -> str:
    rec = await env.double.slash(user, table.id, "play", {"action": action}, locale=locale)
    reply = await rec.reply(TIMEOUT)
    assert reply.ephemeral, reply.content
    return reply.content


@pytest.mark.parametrize("locale", ["fr", "pl"])
def test_a_reserved_tile_is_named_in_suggestions_answer_and_thread(
    tmp_path: Path, locale: str
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale=locale) as env:
            for _ in range(10):  # fleet 2 (reserve a tile) is not on every first round's track
                table = await env.start_game(HOST, [GUEST])
                if "fleet 2" in (await env.match(table.id)).legal_actions():
                    break
            else:
                raise AssertionError("no game offered fleet 2")
            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            await _play(env, player, table, "fleet 2", locale)
            legal = (await env.match(table.id)).legal_actions()
            reserves = [a for a in legal if a.startswith("reserve ")]
            assert reserves, legal
            found = await env.double.autocomplete(
                player,
                table.id,
                "play",
                {"action": "reserve"},
                "action",
                timeout=TIMEOUT,
                locale=locale,
            )
            assert [c["value"] for c in found] == reserves
            for choice in found:  # QA: "Réserver le bâtiment B04"
                code = str(choice["value"]).split()[1]
                assert choice["name"] == f"{RESERVE[locale]} {_object(locale, code)}", choice
            code = reserves[0].split()[1]
            said = await _play(env, player, table, reserves[0], locale)
            assert _object(locale, code) in said, said
            while await env.current_user(table.id) == player.id:  # the turn, to its end
                legal = (await env.match(table.id)).legal_actions()
                action = next(
                    (a for kind in FINISH for a in legal if a.split()[0] == kind), legal[0]
                )
                await _play(env, player, table, action, locale)
            message = await env.double.wait_for_message(
                table.id,
                lambda m: not m.ephemeral and RESERVED[locale] in told(m),
                TIMEOUT,
            )
            text = told(message)
            # QA: "a réservé B16" in the thread
            assert f"{RESERVED[locale]} {_object(locale, code)}" in text, text
            assert not CODE.search(text), text

    run(body)
