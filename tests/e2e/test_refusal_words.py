"""A Yamatai refusal through the real bot on the Discord double names boats in the reader's words
(issue 38, play-through 46 item 1): "Tu ne peux ni acheter ni vendre de bateau gold" is now
"… de bateau d'or", Polish "Łodzi ze złotem …"; building tiles by the number their picture draws
("B01 n'est pas dans la ligne de bâtiments (B02, B05, T2…)" is "Le bâtiment n° 1 n'est pas…");
the notation stays marked as such."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bot.test_refusal_words import CATALOG, COMPONENTS, engine_words_in, tile_codes_in
from tests.e2e.harness import GUEST, HOST, TIMEOUT, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

SAID = {"fr": "de bateau d'or", "pl": "łodzi ze złotem"}


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


#: What the refusal of a tile that is not in the building row says, by language.
NOT_IN_ROW = {"fr": "n'est pas dans la ligne de bâtiments", "pl": "nie leży w rzędzie budynków"}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_a_refused_reservation_names_the_tiles_in_words(tmp_path: Path, lang: str) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            for _ in range(10):  # fleet 2 (reserve a tile) is not on every first round's track
                table = await env.start_game(HOST, [GUEST], game="yamatai")
                match = await env.match(table.id)
                if "fleet 2" in match.legal_actions():
                    break
            else:
                raise AssertionError("no game offered fleet 2")
            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            seat = match.current_seat
            assert seat is not None
            row = [tile["id"] for tile in match.view(seat)["building_row"]]
            absent = next(code for code in COMPONENTS.buildings if code not in row)
            options = {"action": f"fleet 2; reserve {absent}"}
            rec = await env.double.slash(player, table.id, "play", options, locale=lang)
            reply = await rec.reply(TIMEOUT)
            said = reply.content
            assert reply.ephemeral and NOT_IN_ROW[lang] in said, said
            assert tile_codes_in(said) == [], said
            for code in (absent, *row):
                kind = COMPONENTS.buildings[code].kind
                name = CATALOG.text(f"yamatai.tile.{kind}", lang, number=int(code[1:]))
                assert name.lower() in said.lower(), (name, said)
            assert (await env.match(table.id)).log == match.log  # nothing played

    run(body)
