"""A refusal goes on after a colon in lower case in French and Polish (V1, issue 38: "…
n'est pas possible maintenant : Ton tour commence…", "Je n'ai pas compris `build A1` : Indique
…", "Nie rozumiem `build A1`: Podaj …"): the engine's reason keeps its capital only where it
stands alone or begins with a name; English keeps its sentence capital."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.present import error_text
from bot.service import EngineRejected
from engine.yamatai.refusals import REFUSALS as YAMATAI
from tests.discord_double import UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, Table, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: A capital letter that begins a word straight after a colon on the same line ("… : Ton").
CAPITAL_AFTER_COLON = re.compile(r":[ \u00a0\u202f]+(\w+)")
#: What each language says, in lower case, after the colon (fleet step, ``keep`` and
#: ``build A1`` refused).
SAID = {
    "fr": ("maintenant\u00a0: ton tour commence", "`build A1`\u00a0: indique"),
    "pl": (": turę zaczynasz", "`build A1`: podaj"),
}
#: Typed actions refused at a Yamatai turn's first step.
REFUSED = ("keep", "build A1", "fleet 99", "blah", "sell or")


async def _refusal(env: Env, user: UserSpec, table: Table, lang: str, action: str) -> str:
    rec = await env.double.slash(user, table.id, "play", {"action": action}, locale=lang)
    reply = await rec.reply(TIMEOUT)
    assert reply.ephemeral, reply.content
    return str(reply.content)


def _capitals_after_colons(text: str) -> list[str]:
    """Words after a colon that begin with a capital and are not names or codes."""
    return [
        word
        for word in CAPITAL_AFTER_COLON.findall(text)
        if word[:1].isupper() and word[1:2].islower() and word not in ("Hana", "Kenji")
    ]


@pytest.mark.parametrize("lang", sorted(SAID))
def test_a_refusal_goes_on_after_its_colon_in_lower_case(tmp_path: Path, lang: str) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="yamatai")
            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            first = (await env.match(table.id)).legal_actions()[0]
            typed = (*REFUSED, f"{first}; keep", f"{first}; build A1")
            said = {a: await _refusal(env, player, table, lang, a) for a in typed}
            step, build = SAID[lang]
            assert step in said["keep"], said["keep"]
            assert build in said["build A1"], said["build A1"]
            for action, text in said.items():
                first = text.split("\n")[0]
                assert not _capitals_after_colons(first), (action, text)

    run(body)


def test_english_keeps_the_capital_of_its_sentence(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="yamatai")
            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            said = await _refusal(env, player, table, "en-US", "keep")
            assert re.search(r": Your turn (begins|starts)", said), said

    run(body)


def test_a_name_that_begins_the_reason_keeps_its_capital() -> None:
    """ "Nakatsu donne …" (a specialist's name) stays capitalised after the colon; "Ton tour
    …" does not (issue 38, V1 finding 12)."""
    catalog = default_catalog()
    named = error_text(catalog, EngineRejected(YAMATAI.illegal("no_gold")), "fr")
    assert "\u00a0: Nakatsu donne" in named, named
    told = error_text(catalog, EngineRejected(YAMATAI.illegal("choose_fleet_first")), "fr")
    assert told.endswith("\u00a0: ton tour commence par le choix d'une tuile Flotte."), told
