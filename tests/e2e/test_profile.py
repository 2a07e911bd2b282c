"""``/profile [user] [public]`` (issue 21 item 14): how a player's games ended, their time to
move and their ratings, private unless ``public:true``, in the reader's language; a card
(D203)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.discord_double.records import MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    custom_id,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

USERS = {HOST.id: HOST, GUEST.id: GUEST}


def card_text(message: MessageRecord) -> str:
    """What a card says (its text displays, in order); the answer is a card."""
    assert message.is_v2 and message.content == ""
    return "\n".join(message.text_displays())


async def nim_to_the_end(env: Env) -> None:
    """A game of Nim of the host and the guest, played to its end."""
    table = await env.start_game(HOST, [GUEST], game="nim")
    while (current := await env.current_user(table.id)) is not None:
        action = (await env.match(table.id)).legal_actions()[-1]
        await (await env.play(USERS[current], table.id, action)).reply(TIMEOUT)


async def nim_resigned_by_the_guest(env: Env) -> None:
    """A game of Nim the guest resigns after the first turn."""
    table = await env.start_game(HOST, [GUEST], game="nim")
    current = await env.current_user(table.id)
    assert current is not None
    action = (await env.match(table.id)).legal_actions()[0]
    await (await env.play(USERS[current], table.id, action)).reply(TIMEOUT)
    ask = await (await env.double.slash(GUEST, table.id, "resign")).reply(TIMEOUT)
    ok = custom_id(ask, "himiko:resign:ok:")
    await (await env.double.click(GUEST, table.id, ask.id, ok)).reply(TIMEOUT)


def test_profile_counts_finished_and_resigned_games_and_shows_ratings(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            await nim_to_the_end(env)
            await nim_resigned_by_the_guest(env)
            rec = await double.slash(HOST, CHANNEL, "profile", {"user": GUEST.id})
            guest = await rec.reply(TIMEOUT)
            said = card_text(guest)
            assert guest.ephemeral and f"<@{GUEST.id}> on this server" in said
            assert "Games: 1 finished, 0 abandoned, 1 resigned, 0 being played" in said
            assert "Median time to move: < 1 min" in said
            assert "Nim rating: **" in said and "(games: 2," in said
            shown = await (await double.slash(HOST, CHANNEL, "profile", {"public": True})).reply(
                TIMEOUT
            )
            said = card_text(shown)
            assert not shown.ephemeral and "2 finished, 0 abandoned, 0 resigned" in said
            french = replace(WATCHER, locale="fr")
            rec = await double.slash(french, CHANNEL, "profile", {}, locale="fr")
            nobody = await rec.reply(TIMEOUT)
            said = card_text(nobody)
            assert nobody.ephemeral and "Parties finies\u00a0: 0" in said
            assert "aucun coup encore" in said and "Pas encore de cote" in said

    run(body, timeout=120)
