"""``/profile [user] [public]`` (issue 21 item 14): how a player's games ended, their time to
move and their ratings, private unless ``public:true``, in the reader's language."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

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
            assert guest.ephemeral and f"<@{GUEST.id}> on this server" in guest.content
            assert "Games: 1 finished, 0 abandoned, 1 resigned, 0 being played" in guest.content
            assert "Median time to move: < 1 min" in guest.content
            assert "Nim rating: **" in guest.content and "(games: 2," in guest.content
            shown = await (await double.slash(HOST, CHANNEL, "profile", {"public": True})).reply(
                TIMEOUT
            )
            assert not shown.ephemeral and "2 finished, 0 abandoned, 0 resigned" in shown.content
            french = replace(WATCHER, locale="fr")
            rec = await double.slash(french, CHANNEL, "profile", {}, locale="fr")
            nobody = await rec.reply(TIMEOUT)
            assert nobody.ephemeral and "Parties : 0 finies" in nobody.content
            assert "aucun coup encore" in nobody.content and "Pas encore de cote" in nobody.content

    run(body, timeout=120)
