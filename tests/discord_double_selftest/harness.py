"""A tiny real discord.py bot and a context manager running it against the double."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import struct
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.internals import INTERACTION_TASKS
from tests.discord_double import DiscordDouble, GuildSpec, UserSpec
from tests.discord_double.configure import configure_client_for_double
from tests.waiting import eventually

GUILD_ID = 111_000_000_000_000_001
CHANNEL_ID = 111_000_000_000_000_002
OTHER_CHANNEL_ID = 111_000_000_000_000_003
ALICE = UserSpec(222_000_000_000_000_001, "alice", global_name="Alice")
BOB = UserSpec(222_000_000_000_000_002, "bob")
TOKEN = "selftest-token"
ACTIONS = ["place", "play", "pass", "buy"]


def handlers_running() -> list[asyncio.Task[object]]:
    """discord.py's tasks of this loop running an event handler, a command or a click."""
    return [
        task
        for task in asyncio.all_tasks()
        if not task.done() and task.get_name().startswith((*INTERACTION_TASKS, "discord.py: "))
    ]


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid RGB PNG with a recognisable pattern, without Pillow."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(
        b"\x00" + b"".join(bytes((x * 80 % 256, y * 120 % 256, 200)) for x in range(width))
        for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


PNG = tiny_png()


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    """A restart-proof button whose custom id carries a count."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"+1 ({n})", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> CounterButton:
        """Rebuild from the custom id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the message in place with the next count."""
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class QuietButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"quiet:(?P<n>\d+)"):
    """A button that defers the update (type 6) and then edits the original message."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="quiet", custom_id=f"quiet:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> QuietButton:
        """Rebuild from the custom id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Acknowledge silently, then edit the clicked message through @original."""
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"quiet {self.n + 1}")


class ColourView(discord.ui.View):
    """A persistent view with a select menu."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue", "green")],
    )
    async def colour(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        """Answer ephemerally with the chosen colour."""
        await interaction.response.send_message(f"you chose {select.values[0]}", ephemeral=True)


class ConfirmView(discord.ui.View):
    """A per-message (non-persistent) view: Confirm edits the preview, dropping the image."""

    def __init__(self, turn: str) -> None:
        super().__init__(timeout=60)
        self.turn = turn

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.success, custom_id="confirm")
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        """Replace the preview by a confirmation without attachments."""
        await interaction.response.edit_message(
            content=f"confirmed {self.turn}", attachments=[], view=None
        )
        self.stop()


class RenameModal(discord.ui.Modal, title="Rename"):
    """A modal with one text input."""

    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="New name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Echo the submitted name."""
        await interaction.response.send_message(f"renamed to {self.name.value}")


class SelfTestBot(commands.Bot):
    """The bot the self-tests drive."""

    def __init__(self, *, sync_global: bool = False) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.sync_global = sync_global
        self.synced: list[app_commands.AppCommand] = []
        self.errors: list[BaseException] = []
        register_commands(self)

    async def setup_hook(self) -> None:
        """Register the dynamic item and persistent view, then sync commands."""
        self.add_dynamic_items(CounterButton, QuietButton)
        self.add_view(ColourView())
        if self.sync_global:
            self.synced = await self.tree.sync()
        else:
            guild = discord.Object(GUILD_ID)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)


def register_commands(bot: SelfTestBot) -> None:
    """Add the self-test slash commands to the bot's tree."""
    tree = bot.tree

    @tree.error
    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        bot.errors.append(error)

    @tree.command(description="Say pong with a counter button")
    async def ping(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(0))
        await interaction.response.send_message("pong", view=view)

    @tree.command(description="Play an action")
    @app_commands.describe(action="The action", times="How many times")
    async def play(interaction: discord.Interaction, action: str, times: int = 1) -> None:
        await interaction.response.send_message(f"played {action} x{times}", ephemeral=True)

    @play.autocomplete("action")
    async def play_action(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=a, value=a) for a in ACTIONS if a.startswith(current)]

    @tree.command(description="Render the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        png = await asyncio.to_thread(lambda: PNG)
        content = f"<@{interaction.user.id}> your turn (cc <@{BOB.id}>)"
        await interaction.followup.send(
            content,
            file=discord.File(io.BytesIO(png), "board.png"),
            allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
        )
        await interaction.followup.send("extra", ephemeral=True)

    @tree.command(description="Start a game in a thread")
    async def newgame(interaction: discord.Interaction, title: str) -> None:
        await interaction.response.send_message(f"Lobby: {title}", view=ColourView())
        lobby = await interaction.original_response()
        thread = await lobby.create_thread(name=title)
        await thread.send(
            f"Game {title} started, <@{interaction.user.id}> to play",
            file=discord.File(io.BytesIO(PNG), "board.png"),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        assert isinstance(interaction.channel, discord.TextChannel)
        side = await interaction.channel.create_thread(
            name=f"{title}-chat", type=discord.ChannelType.public_thread
        )
        await side.send("chat here")

    @tree.command(description="Preview a turn with an image, then confirm or cancel")
    async def preview(interaction: discord.Interaction, turn: str) -> None:
        view = ConfirmView(turn)
        await interaction.response.send_message(
            f"preview of {turn}",
            file=discord.File(io.BytesIO(PNG), "preview.png"),
            view=view,
            ephemeral=True,
        )

    @tree.command(description="Defer ephemerally, then edit the original with an image")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = discord.ui.View(timeout=None)
        view.add_item(QuietButton(0))
        await interaction.edit_original_response(
            content="rendered", attachments=[discord.File(io.BytesIO(PNG), "slow.png")], view=view
        )

    @tree.command(description="Open a rename modal")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())


def make_double(**kwargs: Any) -> DiscordDouble:
    """A double with one guild, two text channels, Alice and Bob."""
    guild = GuildSpec(
        GUILD_ID,
        "Selftest",
        text_channel_ids=[CHANNEL_ID, OTHER_CHANNEL_ID],
        members=[ALICE, BOB],
        channel_names={CHANNEL_ID: "yamatai"},
    )
    return DiscordDouble(token=TOKEN, guilds=[guild], **kwargs)


class ErrorLog(logging.Handler):
    """Collects ERROR records of the discord loggers (e.g. ignored exceptions in callbacks)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)


@contextlib.asynccontextmanager
async def running_bot(
    *, sync_global: bool = False, **double_kwargs: Any
) -> AsyncIterator[tuple[DiscordDouble, SelfTestBot]]:
    """Start the double and the bot, wait until both are ready, stop both afterwards."""
    double = make_double(**double_kwargs)
    await double.start()
    restore = configure_client_for_double(double.api_base, double.gateway_url)
    errors = ErrorLog()
    logging.getLogger("discord").addHandler(errors)
    bot = SelfTestBot(sync_global=sync_global)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await double.wait_ready(10)
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=10, return_when="FIRST_COMPLETED")
        if task in done:
            ready.cancel()
            task.result()
        yield double, bot
        # the event handlers, commands and clicks still running end (or log their failures)
        await eventually(lambda: not handlers_running(), "no handler running")
        assert bot.errors == [], bot.errors
        assert [r.getMessage() for r in errors.records] == []
    finally:
        logging.getLogger("discord").removeHandler(errors)
        await bot.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
        await double.stop()
        restore()


def run(test: Callable[[], Awaitable[None]], timeout: float = 20.0) -> None:
    """Run an async test body with a hard timeout (no pytest-asyncio needed)."""

    async def main() -> None:
        await asyncio.wait_for(test(), timeout)

    asyncio.run(main())
