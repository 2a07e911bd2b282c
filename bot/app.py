"""The Discord client: ``create_bot(settings)`` builds it, ``run(settings)`` runs it to the end."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.catalog import Catalog, default_catalog
from bot.outbox import Outbox
from bot.present import report_error
from bot.render_pool import RenderPool
from bot.runner import ComputerRunner
from bot.scheduler import ReminderScheduler
from bot.service import GameService
from bot.service.games import render_picture
from bot.settings import Settings, redact_logs
from bot.store import GameRepository, open_store
from bot.translator import CatalogTranslator
from bot.views import DYNAMIC_ITEMS
from bot.views.lobby import LobbyBook

log = logging.getLogger(__name__)

SWEEP_INTERVAL = 60.0  # seconds between two looks for owed messages and stalled games
DEFAULT_API_BASE = Route.BASE
DEFAULT_GATEWAY = DiscordWebSocket.DEFAULT_GATEWAY


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured REST base and gateway (or back at Discord's own).

    discord.py reads both from class attributes: every REST route (webhooks and interaction
    callbacks included) is ``Route.BASE + path``, and a non-sharded client connects to
    ``DiscordWebSocket.DEFAULT_GATEWAY`` (it never asks ``GET /gateway/bot``); after READY it
    resumes at the ``resume_gateway_url`` the gateway itself sent.
    """
    Route.BASE = settings.api_base or DEFAULT_API_BASE
    DiscordWebSocket.DEFAULT_GATEWAY = (
        yarl.URL(settings.gateway_url) if settings.gateway_url else DEFAULT_GATEWAY
    )


class HimikoTree(app_commands.CommandTree[Any]):
    """The command tree: any failure a command did not answer gets a short reply."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Answer instead of printing a traceback; unknown failures are logged with context."""
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await report_error(interaction, original)


class HimikoBot(commands.Bot):
    """The bot: the store and game service are opened in ``setup_hook``."""

    def __init__(
        self,
        settings: Settings,
        *,
        catalog: Catalog | None = None,
        guild_ready_timeout: float = 2.0,
        sweep_interval: float = SWEEP_INTERVAL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no privileged intent is needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=HimikoTree,
            help_command=None,
            guild_ready_timeout=guild_ready_timeout,
        )
        self.settings = settings
        self.catalog = catalog or default_catalog()
        self.repo: GameRepository | None = None
        self._service: GameService | None = None
        self.render_pool: RenderPool | None = None
        self.runner = ComputerRunner(self, settings.computer_pause)
        self.outbox = Outbox(self)
        self.lobbies = LobbyBook()
        self.sweep_interval = sweep_interval
        self._sweeper: asyncio.Task[None] | None = None
        self.clock = clock
        self.scheduler = ReminderScheduler(self, settings.scheduler_interval)

    @property
    def service(self) -> GameService:
        """The game service (available once ``setup_hook`` ran)."""
        if self._service is None:
            raise RuntimeError("the bot is not set up yet")
        return self._service

    async def setup_hook(self) -> None:
        """Open the database (unless ``run`` did), register cogs and buttons, sync commands."""
        from bot.cogs.help import HelpCog
        from bot.cogs.info import InfoCog
        from bot.cogs.league import LeagueCog
        from bot.cogs.lobby import LobbyCog
        from bot.cogs.play import PlayCog
        from bot.cogs.server import ServerCog
        from bot.cogs.settings import SettingsCog

        if self.repo is None:
            self.repo = await open_store(self.settings.database)
        self.render_pool = RenderPool(self.settings.render_processes, render_picture)
        await self.render_pool.start()  # each worker draws one board per game: caches warm
        self._service = GameService(self.repo, clock=self.clock, pool=self.render_pool)
        await self._service.warm_up()  # the first picture builds the renderer's caches (~0.5 s)
        await self.tree.set_translator(CatalogTranslator(self.catalog))
        cogs = (
            LobbyCog(self),
            PlayCog(self),
            InfoCog(self),
            SettingsCog(self),
            HelpCog(self),
            LeagueCog(self),
            ServerCog(self),
        )
        for cog in cogs:
            await self.add_cog(cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.settings.sync_commands:
            await self.sync_commands()

    async def sync_commands(self) -> None:
        """Register the slash commands: in the development guild at once, else globally."""
        guild_id = self.settings.dev_guild_id
        try:
            if guild_id is not None:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
        except discord.HTTPException:
            log.exception("could not sync the slash commands; the old ones stay registered")
            return
        where = f"guild {guild_id}" if guild_id is not None else "globally"
        log.info("synced %d slash commands %s", len(synced), where)

    async def on_ready(self) -> None:
        """Once connected: post messages that were lost, let computers go on, sweep from then on."""
        log.info("connected as %s", self.user)
        await self.sweep()
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="himiko-sweep")
        self.scheduler.start()  # its first tick sends what fell due while the bot was away

    async def on_resumed(self) -> None:
        """After a gateway reconnect: whatever failed while away is retried now."""
        await self.sweep()

    async def sweep(self) -> int:
        """Start the runner on every game that owes a message or waits for a computer.

        Each task posts its game's owed message first; the runner's slots bound how many work at
        once. Returns how many games were started; failures are logged and retried next time.
        """
        try:
            owed = set(await self.outbox.pending())
            waiting = set(await self.service.pending_computer_games())
        except Exception:
            log.warning("sweep: could not read the games", exc_info=True)
            return 0
        games = sorted((owed | waiting) - self.runner.unreachable)
        if owed:
            log.info("sweep: %d game(s) owe their thread a message", len(owed))
        for game_id in games:
            self.runner.kick(game_id)
        await self.lobbies.sweep(self)
        return len(games)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval)
            try:
                await self.sweep()
            except Exception:  # the loop must survive anything; the next round tries again
                log.warning("sweep failed", exc_info=True)

    async def close(self) -> None:
        """Stop the sweep, the reminders and computer turns, disconnect, close the database."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        await self.scheduler.stop()
        await self.runner.stop()
        await super().close()
        if self.render_pool is not None:
            await self.render_pool.close()
            self.render_pool = None
        if self.repo is not None:
            await self.repo.close()
            self.repo = None


def silence_voice_warnings() -> None:
    """Keep discord.py from warning that voice libraries (PyNaCl, davey) are missing.

    Himiko never joins a voice channel; the warning would only alarm whoever reads the log.
    """
    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(discord.VoiceClient, flag):
            setattr(discord.VoiceClient, flag, False)


def create_bot(
    settings: Settings,
    *,
    catalog: Catalog | None = None,
    guild_ready_timeout: float = 2.0,
    sweep_interval: float = SWEEP_INTERVAL,
    clock: Callable[[], float] = time.time,
) -> HimikoBot:
    """A bot ready to ``start(settings.token)``, with the configured endpoints applied.

    ``guild_ready_timeout`` is how long discord.py waits for more guilds before ``on_ready``
    (tests against a local gateway may pass a small value); ``sweep_interval`` is the pause
    between two sweeps for owed messages and stalled games; ``clock`` gives UTC unix seconds
    to deadlines and reminders (tests inject one).
    """
    apply_endpoints(settings)
    silence_voice_warnings()
    return HimikoBot(
        settings,
        catalog=catalog,
        guild_ready_timeout=guild_ready_timeout,
        sweep_interval=sweep_interval,
        clock=clock,
    )


async def run(settings: Settings) -> None:
    """Run the bot until it is closed (exactly what ``python -m bot`` does after settings)."""
    redact_logs(settings.token)
    # The database first: a broken one stops the bot before it builds a client or connects.
    repo = await open_store(settings.database)
    try:
        bot = create_bot(settings)
    except BaseException:
        await repo.close()
        raise
    bot.repo = repo
    async with bot:
        await bot.start(settings.token)
