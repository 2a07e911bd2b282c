"""What Himiko relies on inside discord.py and aiosqlite, one test each (``bot/internals.py``,
``bot/store/internals.py``).

The discord.py ones drive the real client against the Discord double: each fails if a new
version stops reading what the bot sets, or names or routes things differently.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite
import discord
import pytest
from discord import app_commands, ui
from discord.http import Route

from bot.internals import (
    GatedTree,
    Interaction,
    Run,
    endpoints,
    item_template,
    quiet_voice,
    running_interactions,
    set_endpoints,
    set_response,
)
from bot.store.internals import run_in_connection, sqlite_connection
from tests.discord_double import DiscordDouble, GuildSpec, UserSpec

GUILD = 131_000_000_000_000_001
CHANNEL = 131_000_000_000_000_002
ANN = UserSpec(232_000_000_000_000_001, "ann")
TOKEN = "internals-token"
TIMEOUT = 20.0


class Counter(ui.DynamicItem[ui.Button[ui.View]], template=r"count:(?P<n>\d+)"):
    """A persistent button; its click notes whether it runs in an interaction task."""

    seen: ClassVar[list[str]] = []

    def __init__(self, n: int) -> None:
        super().__init__(ui.Button(label="+1", custom_id=f"count:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Counter:
        """Rebuild from the custom id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: Interaction) -> None:
        """Answer; note the task."""
        Counter.seen.append(_task_kind())
        await interaction.response.send_message("counted", ephemeral=True)


def _task_kind() -> str:
    """The running task's name if it is one of ``running_interactions()``, else ``"other"``."""
    task = asyncio.current_task()
    return task.get_name() if task in running_interactions() else "other"


class Client(discord.AutoShardedClient):
    """A sharded client with a shard count, as the bot: it never asks for the gateway URL."""

    def __init__(self, tree: type[GatedTree]) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, shard_count=1, shard_ids=[0], guild_ready_timeout=0.05)
        self.tree = tree(self)
        self.used: list[str] = []  # what the commands and autocompletes saw

        @self.tree.command(description="Ping")
        async def ping(interaction: Interaction, word: str) -> None:
            self.used.append(f"ping {word} {_task_kind()}")
            await interaction.response.send_message("pong", ephemeral=True)

        @ping.autocomplete("word")
        async def words(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
            self.used.append(f"words {_task_kind()}")
            return [app_commands.Choice(name="hello", value="hello")]

    async def setup_hook(self) -> None:
        """The button class, the commands in the guild."""
        self.add_dynamic_items(Counter)
        guild = discord.Object(GUILD)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


@contextlib.asynccontextmanager
async def live(tree: type[GatedTree] = GatedTree) -> AsyncIterator[tuple[DiscordDouble, Client]]:
    """The double and a client pointed at it with ``set_endpoints``; both stopped afterwards."""
    guild = GuildSpec(GUILD, "Internals", text_channel_ids=[CHANNEL], members=[ANN])
    double = DiscordDouble(token=TOKEN, guilds=[guild])
    await double.start()
    saved = endpoints()
    set_endpoints(double.api_base, double.gateway_url)
    client = Client(tree)
    started = asyncio.create_task(client.start(TOKEN))
    try:
        ready = asyncio.create_task(_ready(double, client))
        done, _ = await asyncio.wait({ready, started}, return_when=asyncio.FIRST_COMPLETED)
        if started in done:
            ready.cancel()
            started.result()  # why the client stopped
        await ready
        yield double, client
    finally:
        await client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(started, 5)
        await double.stop()
        set_endpoints(*saved)


async def _ready(double: DiscordDouble, client: Client) -> None:
    await double.wait_for_commands(GUILD, TIMEOUT)
    await client.wait_until_ready()


def _run(body: Callable[[], Awaitable[None]]) -> None:
    async def main() -> None:
        await asyncio.wait_for(body(), TIMEOUT)

    asyncio.run(main())


def test_set_endpoints_sends_rest_and_the_gateway_there() -> None:
    """``Route.BASE`` prefixes every route; a sharded client connects to ``DEFAULT_GATEWAY``."""

    async def body() -> None:
        async with live() as (double, client):
            assert Route("GET", "/users/@me").url == double.api_base + "/users/@me"
            assert client.user is not None and client.user.id == double.state.app_id
            assert any(r.path.endswith("/users/@me") for r in double.requests)

    _run(body)


def test_every_command_and_autocomplete_passes_the_gate() -> None:
    """discord.py runs each arriving command and autocomplete through ``CommandTree._call``."""
    gated: list[str] = []

    class Recording(GatedTree):
        async def gate(self, interaction: Interaction, run: Run) -> None:
            gated.append(interaction.type.name)
            if gated.count("application_command") == 1:  # the first held back: it never runs
                return
            await run()

    async def body() -> None:
        async with live(Recording) as (double, client):
            choices = await double.autocomplete(ANN, CHANNEL, "ping", {"word": "h"}, "word")
            assert [c["value"] for c in choices] == ["hello"]
            await double.slash(ANN, CHANNEL, "ping", {"word": "held"})
            answered = await double.slash(ANN, CHANNEL, "ping", {"word": "go"})
            await answered.reply(5)
            assert gated == ["autocomplete", "application_command", "application_command"]
            assert client.used == ["words CommandTree-invoker", "ping go CommandTree-invoker"]

    _run(body)


def test_clicks_run_in_tasks_named_as_interactions() -> None:
    """A ``DynamicItem``'s click and a view's click run in tasks ``running_interactions`` sees."""
    clicked: list[str] = []

    class Once(ui.View):
        @ui.button(label="Go", custom_id="go")
        async def go(self, interaction: Interaction, button: ui.Button[Once]) -> None:
            clicked.append(_task_kind())
            await interaction.response.send_message("went", ephemeral=True)

    async def body() -> None:
        Counter.seen.clear()
        async with live() as (double, client):
            channel = client.get_channel(CHANNEL)
            assert isinstance(channel, discord.TextChannel)
            view = ui.View(timeout=None)
            view.add_item(Counter(1))
            counter = await channel.send("count", view=view)
            once = await channel.send("once", view=Once(timeout=60))
            await (await double.click(ANN, CHANNEL, counter.id, "count:1")).reply(5)
            await (await double.click(ANN, CHANNEL, once.id, "go")).reply(5)
        assert [name.startswith("discord-ui-dynamic-item-Counter-") for name in Counter.seen] == [
            True
        ]
        assert [name.startswith("discord-ui-view-dispatch-") for name in clicked] == [True]

    _run(body)


def test_set_response_is_the_response_the_handler_gets() -> None:
    """A response set before the command runs is ``interaction.response`` in its handler."""
    answered: list[str] = []

    class Marked(discord.InteractionResponse[discord.Client]):
        async def send_message(self, content: Any = None, **kwargs: Any) -> Any:
            answered.append(str(content))
            return await super().send_message(content, **kwargs)

    class Setting(GatedTree):
        async def gate(self, interaction: Interaction, run: Run) -> None:
            set_response(interaction, Marked(interaction))
            await run()

    async def body() -> None:
        async with live(Setting) as (double, _client):
            reply = await (await double.slash(ANN, CHANNEL, "ping", {"word": "go"})).reply(5)
            assert reply.content == "pong"
        assert answered == ["pong"]

    _run(body)


def test_item_template_is_what_a_dynamic_item_is_matched_by() -> None:
    """The class's compiled template: the pattern its instances report and custom ids match."""
    assert item_template(Counter) is Counter(3).template
    assert item_template(Counter).fullmatch("count:3") is not None


def test_quiet_voice_keeps_a_new_client_from_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py warns about the missing voice libraries while these flags are set."""

    def voice_warnings() -> list[str]:
        caplog.clear()
        discord.Client(intents=discord.Intents.none())
        return [r.getMessage() for r in caplog.records if "voice" in r.getMessage()]

    with caplog.at_level(logging.WARNING, logger="discord.client"):
        monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
        monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
        loud = voice_warnings()
        monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
        monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
        quiet_voice()
        quiet = voice_warnings()
    assert len(loud) == 2 and quiet == []


def test_run_in_connection_runs_in_the_connections_own_thread(tmp_path: Path) -> None:
    """In turn with aiosqlite's own calls, in its thread (sqlite3 refuses any other)."""

    async def body() -> None:
        async with aiosqlite.connect(tmp_path / "x.sqlite3") as conn:
            await conn.execute("CREATE TABLE t (n INTEGER)")
            loop_thread = threading.get_ident()

            def insert(n: int, *, twice: bool) -> int:
                db = sqlite_connection(conn)
                for _ in range(2 if twice else 1):
                    db.execute("INSERT INTO t VALUES (?)", (n,))
                return threading.get_ident()

            ran_in = await run_in_connection(conn, insert, 5, twice=True)
            assert ran_in != loop_thread
            rows = await conn.execute_fetchall("SELECT n FROM t")
            assert [tuple(r) for r in rows] == [(5,), (5,)]

            def fail() -> None:
                raise sqlite3.IntegrityError("refused")

            with pytest.raises(sqlite3.IntegrityError, match="refused"):
                await run_in_connection(conn, fail)

    asyncio.run(body())


def test_sqlite_connection_is_the_one_aiosqlite_uses(tmp_path: Path) -> None:
    """The ``sqlite3`` connection under aiosqlite's: its open transaction, its thread only."""

    async def body() -> None:
        async with aiosqlite.connect(tmp_path / "x.sqlite3") as conn:
            await conn.execute("CREATE TABLE t (n INTEGER)")
            await conn.execute("BEGIN")
            await conn.execute("INSERT INTO t VALUES (1)")  # not committed: seen by it only

            def inside() -> tuple[bool, list[tuple[int]]]:
                db = sqlite_connection(conn)
                return db.in_transaction, db.execute("SELECT n FROM t").fetchall()

            assert isinstance(sqlite_connection(conn), sqlite3.Connection)
            assert await run_in_connection(conn, inside) == (True, [(1,)])
            with pytest.raises(sqlite3.ProgrammingError):  # made in aiosqlite's thread
                sqlite_connection(conn).execute("SELECT 1")
            await conn.rollback()

    asyncio.run(body())
