"""Per-game quiet and the server's limit on games through the double (issue 39 item 5): a
player chooses in a game's thread to be pinged on every turn or only by reminders, which
changes whom the turn messages ping; the choice is exported and deleted with the settings; a
server's ``max-games`` refuses joining past it with the count, and 0 lifts it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from tests.discord_double import MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    as_posted,
    custom_id,
    himiko_env,
    run,
)
from tests.e2e.test_recovery import finish_turn
from tests.e2e.test_reminders import reminders_to

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

HOUR = 3600
MANAGE_GUILD = 1 << 5


def said(key: str, locale: str = "en", **params: Any) -> str:
    """A catalog text as the bot says it."""
    return default_catalog().text(key, locale, **params)


async def ask(env: Env, user: Any, channel: int, name: str, options: Any = None) -> MessageRecord:
    """A slash command's private answer."""
    return await (await env.double.slash(user, channel, name, options)).reply(TIMEOUT)


def last_turn_pings(env: Env, table: Table) -> list[int]:
    """Whom the thread's last turn message pinged when it was posted."""
    return sorted(as_posted(env.double, env.turn_messages(table.id)[-1]).pinged_user_ids())


def test_every_turn_and_only_reminders_change_who_is_pinged(tmp_path: Path) -> None:
    """Hana follows every turn, Kenji wants only reminders, Mio keeps the default: over the
    game's first turns (in its own turn order), each turn message pings the player it calls
    unless they chose only reminders, and Hana whenever it calls someone else."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST, WATCHER])
            every = await ask(env, HOST, table.id, "settings this_game", {"mode": "every"})
            assert every.content == said("pings.set.every")
            quiet = await ask(env, GUEST, table.id, "settings this_game", {"mode": "reminders"})
            assert quiet.content == said("pings.set.reminders")
            players = {u.id: u for u in (HOST, GUEST, WATCHER)}
            called_kenji = False
            for _ in range(4):
                player = players[await env.current_user(table.id) or 0]
                await finish_turn(env, player, table)
                await env.quiet()  # its turn message is posted
                called = await env.current_user(table.id)
                follows = player is not HOST and called != HOST.id  # not for her own move
                expected = {HOST.id} if follows else set()
                if called is not None and called != GUEST.id:
                    expected.add(called)
                assert last_turn_pings(env, table) == sorted(expected)
                posted = as_posted(env.double, env.turn_messages(table.id)[-1]).content
                assert (f"🔔 <@{HOST.id}>" in posted) == follows
                called_kenji |= called == GUEST.id
            assert called_kenji, "the turns never called Kenji"
            # his reminder still pings him when it is his turn
            while await env.current_user(table.id) != GUEST.id:
                await finish_turn(env, players[await env.current_user(table.id) or 0], table)
            env.clock.advance(24 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            assert reminders_to(env, table, GUEST)
            back = await ask(env, GUEST, table.id, "settings this_game", {"mode": "turn"})
            assert back.content == said("pings.set.turn")
            # a channel without a game: refused
            nowhere = await ask(env, WATCHER, CHANNEL, "settings this_game", {"mode": "every"})
            assert nowhere.content == said("pings.no_game")
            # /mygames shows the choice
            mine = (await ask(env, HOST, CHANNEL, "mygames")).text()
            assert said("mygames.pings.every") in mine
            assert (
                said("mygames.pings.every")
                not in (await ask(env, WATCHER, CHANNEL, "mygames")).text()
            )
            # exported with the settings, and deleted with them
            game = await env.game(table.id)
            exported = await ask(env, HOST, CHANNEL, "settings export")
            data = json.loads(exported.content.split("```json\n")[1].split("\n```")[0])
            assert data["game_pings"] == {str(game.id): "every"}
            deleted = await ask(env, HOST, CHANNEL, "settings delete")
            assert deleted.content == said("settings.deleted")
            assert "game_pings" not in (await ask(env, HOST, CHANNEL, "settings export")).content

    run(body, timeout=180)


def test_a_server_limit_on_games_refuses_joining_past_it(tmp_path: Path) -> None:
    admin = replace(GUEST, permissions=GUEST.permissions | MANAGE_GUILD)

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            await env.start_game(HOST, computers=1)  # Hana holds one active game
            set_it = await ask(env, admin, CHANNEL, "server", {"max-games": 1})
            assert said("server.max_games_set", count=1) in set_it.content
            refused = await env.double.slash(HOST, CHANNEL, "new", {"game": "yamatai"})
            assert (await refused.reply(TIMEOUT)).content == said("limits.reached", count=1, most=1)
            queued = await ask(env, HOST, CHANNEL, "queue join", {"game": "namiji"})
            assert queued.content == said("limits.reached", count=1, most=1)
            lobby = await env.open_lobby(GUEST)  # Kenji holds none: his lobby opens
            join = custom_id(lobby, "himiko:lobby:join:")
            clicked = await env.double.click(HOST, CHANNEL, lobby.id, join)
            assert (await clicked.reply(TIMEOUT)).content == said("limits.reached", count=1, most=1)
            assert len(env.double.message(lobby.id).pinged_user_ids()) == 0
            lifted = await ask(env, admin, CHANNEL, "server", {"max-games": 0})
            assert said("server.max_games_none") in lifted.content
            clicked = await env.double.click(HOST, CHANNEL, lobby.id, join)
            assert (await clicked.response(TIMEOUT)).type == 7  # joined: the card updated

    run(body, timeout=120)
