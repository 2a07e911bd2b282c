"""``/queue`` through the double (issue 39 item 1): three players queue (2-4, 3-4 and 3) and one
game of three opens in the queue channel, once, with everyone matched pinged, even with two
joins at once and a restart in between; a week later an entry that found no game is told and
gone; bad input is refused and changes nothing; ``/server queue-channel:`` moves the games."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.store import GameStatus
from tests.backends import database
from tests.discord_double import DiscordDouble, GuildSpec, MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    TOKEN,
    WATCHER,
    Env,
    himiko_env,
    run,
    running_env,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

LOUNGE = 311_000_000_000_000_009  # a second text channel
MANAGE_GUILD = 1 << 5
ADMIN = replace(HOST, permissions=HOST.permissions | MANAGE_GUILD)
WEEK = 7 * 24 * 3600
# a relative time (<t:...:R>) is shown as "5 minutes ago", "il y a 5 minutes", "5 minuti fa",
# "5 minut temu": after "since", "depuis", "da" or "od" it reads wrong
SINCE_AGO = re.compile(r"\b(since|depuis|da|od) <t:\d+:R>")


def said(key: str, locale: str = "en", **params: Any) -> str:
    """A catalog text as the bot says it."""
    return default_catalog().text(key, locale, **params)


async def join(
    env: Env, user: Any, players: str | None, *, channel: int = CHANNEL, locale: str = "en-US"
) -> MessageRecord:
    """``/queue join game:yamatai [players:]``: the private answer."""
    options: dict[str, Any] = {"game": "yamatai"}
    if players is not None:
        options["players"] = players
    done = await env.double.slash(user, channel, "queue join", options, locale=locale)
    return await done.reply(TIMEOUT)


async def moved_on(env: Env) -> None:
    """A sweep (as after a restart) and every queue pass it started, then the games' posts."""
    await env.bot.sweep()
    await asyncio.wait_for(env.bot.queue.idle(), TIMEOUT)
    await env.settled()


def public(env: Env, channel: int) -> list[MessageRecord]:
    """The bot's public messages in a channel."""
    return env.double.messages(channel, include_ephemeral=False)


def test_three_players_queue_and_one_game_of_three_opens_once(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            first = await join(env, HOST, "2-4")
            assert first.ephemeral
            assert "**Yamatai** with 2-4 players: 1 waiting" in first.content
            await asyncio.wait_for(env.bot.queue.idle(), TIMEOUT)
            assert env.double.threads(CHANNEL) == []  # nobody fits Hana yet
            await env.restart()
            # Kenji (3-4) and Mio (3) join at the same moment: one game of three, once
            both = await asyncio.gather(join(env, GUEST, "3-4"), join(env, WATCHER, "3"))
            assert all(r.ephemeral for r in both)
            await env.double.wait_for_thread(CHANNEL)
            await asyncio.wait_for(env.bot.queue.idle(), TIMEOUT)
            await env.settled()
            await moved_on(env)  # a later pass (a sweep after a restart) opens nothing more
            await env.restart()
            await moved_on(env)
            threads = env.double.threads(CHANNEL)
            assert len(threads) == 1
            posts = public(env, CHANNEL)
            assert len(posts) == 1
            pings = f"<@{HOST.id}>, <@{GUEST.id}>, <@{WATCHER.id}>"
            assert posts[0].content == said("queue.matched", game="Yamatai", players=pings)
            assert sorted(posts[0].pinged_user_ids()) == sorted([HOST.id, GUEST.id, WATCHER.id])
            game = await env.game(threads[0].id)
            assert game.status == GameStatus.ACTIVE
            assert [s.user_id for s in game.seats] == [HOST.id, GUEST.id, WATCHER.id]  # join order
            assert public(env, threads[0].id), "the opening board is posted in the thread"
            shown = await env.double.slash(HOST, CHANNEL, "queue show")
            assert (await shown.reply(TIMEOUT)).content == said("queue.empty")

    run(body, timeout=120)


def test_bad_input_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            for typed in ("7", "1-3", "x", "4-2", "2-9"):
                refused = await join(env, HOST, typed, locale="fr")
                assert refused.content == said(
                    "queue.bad_players", "fr", typed=typed, game="Yamatai", min=2, max=4
                )
            left = await env.double.slash(GUEST, CHANNEL, "queue leave", locale="pl")
            assert (await left.reply(TIMEOUT)).content == said("queue.not_waiting", "pl")
            shown = await env.double.slash(HOST, CHANNEL, "queue show")
            assert (await shown.reply(TIMEOUT)).content == said("queue.empty")
            # joining again replaces the entry; leaving takes it out
            await join(env, HOST, "3")
            await join(env, HOST, "2-3")
            shown = await env.double.slash(GUEST, CHANNEL, "queue show")
            lines = (await shown.reply(TIMEOUT)).content.splitlines()
            assert lines[0] == said("queue.heading") and len(lines) == 2
            line = said("queue.line", game="Yamatai", name="Hana", players="2-3", since="<t:")
            assert lines[1].startswith("- " + line)
            for locale in ("en-US", "fr", "it", "pl"):  # since when Hana waits, in words
                shown = await env.double.slash(GUEST, CHANNEL, "queue show", locale=locale)
                read = (await shown.reply(TIMEOUT)).content
                assert ":R>" in read and not SINCE_AGO.search(read), read
            left = await env.double.slash(HOST, CHANNEL, "queue leave")
            assert (await left.reply(TIMEOUT)).content == said("queue.left")
            await moved_on(env)
            assert public(env, CHANNEL) == [] and env.double.threads(CHANNEL) == []

    run(body, timeout=60)


def test_a_week_without_a_game_is_told_once_and_the_entry_goes(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            await join(env, HOST, "4")
            env.clock.advance(WEEK - 60)
            await moved_on(env)
            assert public(env, CHANNEL) == []  # not yet
            env.clock.advance(120)
            await moved_on(env)
            await moved_on(env)
            posts = public(env, CHANNEL)
            assert [p.content for p in posts] == [
                said("queue.expired", player=f"<@{HOST.id}>", game="Yamatai")
            ]
            assert posts[0].pinged_user_ids() == [HOST.id]
            shown = await env.double.slash(HOST, CHANNEL, "queue show")
            assert (await shown.reply(TIMEOUT)).content == said("queue.empty")

    run(body, timeout=60)


def with_lounge() -> DiscordDouble:
    """A server with a second text channel, the lounge, and an admin (Manage Server)."""
    guild = GuildSpec(
        GUILD,
        "Yamatai club",
        text_channel_ids=[CHANNEL, LOUNGE],
        members=[ADMIN, GUEST, WATCHER],
        channel_names={CHANNEL: "yamatai", LOUNGE: "lounge"},
    )
    return DiscordDouble(token=TOKEN, guilds=[guild])


def test_the_server_s_queue_channel_is_where_games_open(tmp_path: Path) -> None:

    def make(double: DiscordDouble) -> Env:
        return Env(double, database(tmp_path, "himiko.sqlite3"))

    async def body() -> None:
        async with running_env(with_lounge(), make) as env:
            refused = await env.double.slash(GUEST, CHANNEL, "server", {"queue-channel": LOUNGE})
            assert (await refused.reply(TIMEOUT)).content == said("server.manage_only")
            set_it = await env.double.slash(ADMIN, CHANNEL, "server", {"queue-channel": LOUNGE})
            answer = await set_it.reply(TIMEOUT)
            assert said("server.queue_channel_set", channel=f"<#{LOUNGE}>") in answer.content
            joined = await join(env, HOST, "2")
            assert f"<#{LOUNGE}>" in joined.content
            await join(env, GUEST, "2-4")
            await env.double.wait_for_thread(LOUNGE)
            await moved_on(env)
            assert len(env.double.threads(LOUNGE)) == 1 and env.double.threads(CHANNEL) == []
            assert len(public(env, LOUNGE)) == 1 and public(env, CHANNEL) == []

    run(body, timeout=60)


def test_the_server_s_queue_channel_can_be_cleared(tmp_path: Path) -> None:
    """``/server clear-queue-channel:`` undoes ``queue-channel:``: games open again where the
    oldest matched player joined. Both at once, or a member without Manage Server, is refused
    and changes nothing."""
    set_lounge = said("server.queue_channel_set", channel=f"<#{LOUNGE}>")

    def make(double: DiscordDouble) -> Env:
        return Env(double, database(tmp_path, "himiko.sqlite3"))

    async def body() -> None:
        async with running_env(with_lounge(), make) as env:

            async def server(user: Any, options: dict[str, Any]) -> str:
                done = await env.double.slash(user, CHANNEL, "server", options)
                return (await done.reply(TIMEOUT)).content

            assert set_lounge in await server(ADMIN, {"queue-channel": LOUNGE})
            both = {"queue-channel": LOUNGE, "clear-queue-channel": True}
            assert await server(ADMIN, both) == said("server.queue_channel_both")
            clear = {"clear-queue-channel": True}
            assert await server(GUEST, clear) == said("server.manage_only")
            still = said("server.queue_channel_is", channel=f"<#{LOUNGE}>")
            assert still in await server(ADMIN, {})  # still the lounge, said as it is
            cleared = await server(ADMIN, clear)
            assert said("server.queue_channel_none") in cleared and set_lounge not in cleared
            assert still not in await server(ADMIN, {})
            await join(env, HOST, "2")
            await join(env, GUEST, "2-4")
            await env.double.wait_for_thread(CHANNEL)
            await moved_on(env)
            assert len(env.double.threads(CHANNEL)) == 1 and env.double.threads(LOUNGE) == []

    run(body, timeout=60)


def test_joined_in_a_game_s_thread_the_game_opens_in_its_channel(tmp_path: Path) -> None:
    """A thread cannot hold a thread: a player who queues from a game's thread is told the
    channel beside it, and the game opens there (it opened nowhere, and took them out of the
    queue, before)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, computers=1)  # Hana sits in a game's thread
            joined = await join(env, HOST, "2", channel=table.id)
            assert f"<#{CHANNEL}>" in joined.content, joined.content
            await join(env, GUEST, "2-4")
            await moved_on(env)
            await moved_on(env)  # a later pass (the sweep's) opens nothing more
            threads = [t for t in env.double.threads(CHANNEL) if t.id != table.id]
            assert len(threads) == 1, "the queue's game opened beside Hana's first game"
            game = await env.game(threads[0].id)
            assert [s.user_id for s in game.seats] == [HOST.id, GUEST.id]
            posts = [p for p in public(env, CHANNEL) if p.id != table.lobby.id]
            assert [p.content for p in posts] == [
                said("queue.matched", game="Yamatai", players=f"<@{HOST.id}>, <@{GUEST.id}>")
            ]

    run(body, timeout=60)


def test_an_entry_stored_with_a_thread_opens_its_game_in_the_thread_s_channel(
    tmp_path: Path,
) -> None:
    """Entries stored before joins named a thread's channel (their channel is the thread):
    the runner opens their game in the thread's channel rather than failing every pass."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, computers=1)
            for user in (HOST, GUEST):
                await env.bot.rooms.queue.join(
                    guild_id=GUILD,
                    user_id=user.id,
                    name=user.global_name or user.name,
                    game_key="yamatai",
                    players="2",
                    channel_id=table.id,
                )
            await moved_on(env)
            threads = [t for t in env.double.threads(CHANNEL) if t.id != table.id]
            assert len(threads) == 1
            assert [s.user_id for s in (await env.game(threads[0].id)).seats] == [HOST.id, GUEST.id]

    run(body, timeout=60)


def test_a_waiter_at_the_server_s_limit_on_games_is_not_matched(tmp_path: Path) -> None:
    """``/server max-games:`` holds at matching too: Hana queued with room, then took a game
    that filled her limit; the next waiter is not matched with her (a game past her limit),
    she waits on, and the two others get their game."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            admin = replace(WATCHER, permissions=WATCHER.permissions | MANAGE_GUILD)
            await (await env.double.slash(admin, CHANNEL, "server", {"max-games": 1})).reply(
                TIMEOUT
            )
            await join(env, HOST, "2")
            table = await env.start_game(HOST, computers=1)  # now Hana holds her one game
            await join(env, GUEST, "2")
            await moved_on(env)
            assert [t.id for t in env.double.threads(CHANNEL)] == [table.id]
            shown = await env.double.slash(GUEST, CHANNEL, "queue show")
            assert len((await shown.reply(TIMEOUT)).content.splitlines()) == 3  # both wait
            await join(env, WATCHER, "2")
            await moved_on(env)
            threads = [t for t in env.double.threads(CHANNEL) if t.id != table.id]
            assert len(threads) == 1
            seats = [s.user_id for s in (await env.game(threads[0].id)).seats]
            assert seats == [GUEST.id, WATCHER.id]

    run(body, timeout=60)


def test_a_match_whose_channel_is_gone_does_not_hold_up_the_others(tmp_path: Path) -> None:
    """One match cannot open its game (its channel was deleted): it is logged and left to the
    next sweep, and the server's other matches open in the same pass."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            for user, game, channel in (
                (HOST, "namiji", 311_000_000_000_000_777),  # a channel that is no more
                (GUEST, "namiji", 311_000_000_000_000_777),
                (WATCHER, "yamatai", CHANNEL),
                (HOST, "yamatai", CHANNEL),
            ):
                await env.bot.rooms.queue.join(
                    guild_id=GUILD,
                    user_id=user.id,
                    name=user.global_name or user.name,
                    game_key=game,
                    players="2",
                    channel_id=channel,
                )
            await moved_on(env)
            [thread] = env.double.threads(CHANNEL)
            assert (await env.game(thread.id)).game_key == "yamatai"
            assert [m.game_key for m in await env.bot.rooms.queue.owed()] == ["namiji"]
            env.log.records.clear()  # nothing at ERROR: the warnings are expected

    run(body, timeout=60)
