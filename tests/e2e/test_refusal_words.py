"""A Yamatai refusal through the real bot on the Discord double names boats in the reader's words
(issue 38, play-through 46 item 1): "Tu ne peux ni acheter ni vendre de bateau gold" is now
"… de bateau d'or", Polish "Łodzi ze złotem …"; the notation stays marked as such."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bot.test_refusal_words import engine_words_in
from tests.e2e.harness import GUEST, HOST, TIMEOUT, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

SAID = {"fr": "de bateau d'or", "pl": "Łodzi ze złotem"}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_a_refused_purchase_names_the_boat_in_words(tmp_path: Path, lang: str) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="yamatai")
            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            match = await env.match(table.id)
            fleet = next(a for a in match.legal_actions() if a.startswith("fleet"))
            options = {"action": f"{fleet}; buy gold"}
            rec = await env.double.slash(player, table.id, "play", options, locale=lang)
            reply = await rec.reply(TIMEOUT)
            said = reply.content
            assert reply.ephemeral and SAID[lang] in said, said
            assert engine_words_in(re.sub(r"`[^`]*`", "", said), lang) == [], said
            assert (await env.match(table.id)).log == match.log  # nothing played

    run(body)
