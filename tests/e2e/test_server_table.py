"""``/games``, the server's table, through the double (issue 39 item 2): the open lobbies (a Join
link to each, kept up to date by every lobby change and across a restart, gone once started
or cancelled), the queue with a Join the queue button per game, and the games being played."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from tests.discord_double import MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    custom_id,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

LOCALES = ("en-US", "fr", "it", "pl")
# a relative time (<t:...:R>) is shown as "5 minutes ago", "il y a 5 minutes", "5 minuti fa",
# "5 minut temu": after "since", "depuis", "da" or "od" it reads wrong
SINCE_AGO = re.compile(r"\b(since|depuis|da|od) <t:\d+:R>")


def said(key: str, locale: str = "en", **params: Any) -> str:
    """A catalog text as the bot says it."""
    return default_catalog().text(key, locale, **params)


async def table(env: Env, user: Any = WATCHER, locale: str = "en-US") -> MessageRecord:
    """``/games``: the private card, once the bot is idle (a lobby is listed after its answer)."""
    await env.quiet()
    done = await env.double.slash(user, CHANNEL, "games", locale=locale)
    card = await done.reply(TIMEOUT)
    assert card.ephemeral and card.is_v2
    return card


def links(card: MessageRecord) -> list[str]:
    """The card's link buttons' addresses."""
    return [str(c["url"]) for c in card.iter_components() if c.get("url")]


def test_the_table_lists_lobbies_the_queue_and_the_games_being_played(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            empty = await table(env)
            text = empty.text()
            assert said("table.none_playing") in text and said("table.no_lobby") in text
            assert said("table.queue_empty", game="Yamatai") in text
            clock = said("lobby.deadline_hours", hours=48)  # the games the queue opens
            assert said("table.queue_games", clock=clock, language="English") in text
            lobby = await env.open_lobby(HOST, seats=3, computers=True)
            url = f"https://discord.com/channels/{GUILD}/{CHANNEL}/{lobby.id}"
            shown = await table(env)
            assert links(shown) == [url]
            assert said("table.seats_free", count=2, total=3) in shown.text()
            assert "48" in shown.text() and "English" in shown.text()
            joined = await env.lobby_click(GUEST, env.double.message(lobby.id), "join")
            await joined.response(TIMEOUT)
            await env.restart()  # the list is stored, not this process' memory
            shown = await table(env, locale="fr")
            assert said("table.seats_free", "fr", count=1, total=3) in shown.text()
            # the queue's button joins it, every player count of the game
            join = custom_id(shown, "himiko:queue:join:namiji")
            clicked = await env.double.click(WATCHER, CHANNEL, shown.id, join)
            answer = await clicked.reply(TIMEOUT)
            assert answer.ephemeral and "**Namiji**" in answer.content and "2-5" in answer.content
            shown = await table(env)
            assert "Mio (2-5)" in shown.text()
            # Kenji waits for 3 players; the table's button keeps what he typed
            typed = {"game": "namiji", "players": "3"}
            await (await env.double.slash(GUEST, CHANNEL, "queue join", typed)).reply(TIMEOUT)
            clicked = await env.double.click(GUEST, CHANNEL, shown.id, join)
            assert "**Namiji**" in (await clicked.reply(TIMEOUT)).content
            shown = await table(env)
            assert "Kenji (3)" in shown.text() and "Kenji (2-5)" not in shown.text()
            for locale in LOCALES:  # when the lobby opened and the first waiter joined
                read = (await table(env, locale=locale)).text()
                assert read.count(":R>") == 2 and not SINCE_AGO.search(read), read
            # started: no longer open, now being played
            start = await env.lobby_click(HOST, env.double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            await env.double.wait_for_thread(CHANNEL)
            await env.settled()
            shown = await table(env)
            assert links(shown) == [] and said("table.no_lobby") in shown.text()
            assert said("table.playing", count=1) in shown.text()
            # cancelled: gone
            other = await env.open_lobby(GUEST, seats=2)
            assert len(links(await table(env))) == 1
            cancel = await env.lobby_click(GUEST, env.double.message(other.id), "cancel")
            await cancel.response(TIMEOUT)
            assert links(await table(env)) == []

    run(body, timeout=120)
