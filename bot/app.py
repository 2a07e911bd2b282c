"""The Discord client: ``create_bot(settings)`` builds it, ``run(settings)`` runs it to the end."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from bot.admission import Admission, admitted
from bot.background.league_runner import LeagueRunner
from bot.background.loops import Every
from bot.background.queue_runner import QueueRunner
from bot.background.runner import ComputerRunner
from bot.background.scheduler import ReminderScheduler
from bot.catalog import default_catalog
from bot.cogs.anywhere import is_anywhere
from bot.internals import (
    GatedTree,
    Interaction,
    Run,
    quiet_voice,
    running_interactions,
    set_endpoints,
)
from bot.lobby_state import LobbyBook
from bot.ops.answers import Answers, TimedItems, answers_for
from bot.ops.config import MetricsConfig
from bot.ops.errors import start_error_reports, stop_error_reports
from bot.ops.health import HealthServer
from bot.ops.metrics import Metrics
from bot.ops.parts import (
    CountedReminders,
    TimedOutbox,
    TimedRenderPool,
    TimedThinkPool,
    counted_store,
    discord_trace,
)
from bot.ops.probes import database_check, gateway_check, workers_check
from bot.ops.serve import start_health
from bot.ops.watchdog import Systemd
from bot.present import busy_notice, report_error
from bot.service import Rooms, build_rooms
from bot.service.pictures import render_picture
from bot.settings import Settings, redact_logs
from bot.store import GameRepository, open_store
from bot.thread.outbox import Outbox
from bot.translator import CatalogTranslator
from bot.views import DYNAMIC_ITEMS
from bot.views.base import BoundItems
from bot.views.buttons import ViewButtons
from bot.web.hosting import start_web, stop_web
from bot.web.links import page_url
from bot.web.server import WebServer
from bot.workers.render_pool import RenderPool
from bot.workers.think_pool import ThinkPool

log = logging.getLogger(__name__)

SWEEP_INTERVAL = 60.0  # seconds between two looks for owed messages and stalled games


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured REST base and gateway (or back at Discord's own)."""
    set_endpoints(settings.api_base, settings.gateway_url)


@runtime_checkable
class Gated(Protocol):
    """What the command tree reads of its client (the bot): whether the stop's drain is over,
    the admission gate (D115) and the answers' timing (None without metrics or JSON logs)."""

    drained: bool
    admission: Admission
    answers: Answers | None


class HimikoTree(GatedTree):
    """The command tree: commands pass the admission gate (D115); any failure a command did
    not answer gets a short reply."""

    async def gate(self, interaction: Interaction, run: Run) -> None:
        """Run a command (or autocomplete) in its turn: discord.py starts one per arrival."""
        client = self.client
        if not isinstance(client, Gated):  # a bare client: no gate to pass
            await run()
            return
        if client.drained:
            # Arrived after the stop's drain: the connection is closing under it; unanswered,
            # as if it came once the bot was gone (it changed nothing).
            return
        gate = client.admission
        if client.answers is None:
            await admitted(gate, interaction, run, busy_notice)
        else:  # timed, counted, named in the log (METRICS_PORT, LOG_FORMAT=json)
            await client.answers.command(
                interaction, lambda: admitted(gate, interaction, run, busy_notice)
            )

    async def on_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        """Answer instead of printing a traceback; unknown failures are logged with context."""
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await report_error(interaction, original)


class HimikoBot(commands.AutoShardedBot):
    """The bot: the store and the game rooms are opened in ``setup_hook``.

    It runs the shards of ``settings.shards`` (without sharding: shard 0 of 1, one connection,
    as a plain ``Bot`` would) and only sweeps the games and leagues of those shards' guilds.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        guild_ready_timeout: float = 2.0,
        sweep_interval: float = SWEEP_INTERVAL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        # METRICS_PORT: the bot's parts measured (bot/ops); LOG_FORMAT=json, SENTRY_DSN: the
        # interactions named in the log and the error reports
        ops = settings.ops
        metrics = self.metrics = None if ops.metrics is None else Metrics()
        self.answers = answers_for(
            metrics, json_logs=ops.json_logs, reports=ops.sentry_dsn is not None
        )
        # Discord's HTTP answers counted by status (aiohttp's trace on discord.py's session)
        traced: dict[str, Any] = {}
        if metrics is not None:
            traced["http_trace"] = discord_trace(metrics.discord_responses)
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no privileged intent is needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=HimikoTree,
            help_command=None,
            guild_ready_timeout=guild_ready_timeout,
            shard_count=settings.shard_count or 1,
            # every shard of the count when none are named
            shard_ids=list(settings.shard_ids or range(settings.shard_count or 1)),
            **traced,
        )
        self.settings = settings
        self.served_shards = settings.shards  # None: every guild is served here
        self.catalog = default_catalog()  # the one catalog of the process (``present.t``)
        # the persistent item classes bound to this bot
        self.bound = BoundItems(self) if self.answers is None else TimedItems(self, self.answers)
        self.buttons = ViewButtons(self)  # the thread messages' buttons, made by the views
        self.repo: GameRepository | None = None
        self._rooms: Rooms | None = None
        self.render_pool: RenderPool | None = None
        self.think_pool: ThinkPool | None = None  # where computer players decide
        self.runner = ComputerRunner(self, settings.computer_pause)
        self.leagues = LeagueRunner(self)  # standings and new tables, in the background
        self.queue = QueueRunner(self)  # the queue's matches and their games, in the background
        outbox = (
            Outbox
            if self.answers is None
            else partial(
                TimedOutbox, seconds=None if metrics is None else metrics.turn_message_seconds
            )
        )
        self.outbox = outbox(self, settings.render_processes)
        self.admission = Admission()  # commands at once; the rest wait in turn, or are refused
        self.drained = False  # set by ``close`` once the commands under way answered
        self.lobbies = LobbyBook()
        self.sweep_interval = sweep_interval
        self.sweeper = Every(
            self.sweep, lambda: self.sweep_interval, name="himiko-sweep", at_once=False
        )
        self.clock = clock
        scheduler = (
            ReminderScheduler
            if metrics is None
            else partial(CountedReminders, sent=metrics.reminders_sent)
        )
        self.scheduler = scheduler(self, settings.scheduler_interval)
        self.web: WebServer | None = None  # the web pages, when WEB_PORT is set
        self.health: HealthServer | None = None  # /healthz, /readyz, /metrics (METRICS_PORT)

    @property
    def client(self) -> discord.Client:
        """The Discord client: the bot itself (``bot.context.Himiko``)."""
        return self

    @property
    def rooms(self) -> Rooms:
        """The game services, one per room (available once ``setup_hook`` ran)."""
        if self._rooms is None:
            raise RuntimeError("the bot is not set up yet")
        return self._rooms

    def game_page(self, game_id: int) -> str | None:
        """The address of a game's web page (the running server's, else from WEB_* settings:
        another shard may serve it), or None without WEB_PORT."""
        if self.web is not None:
            return self.web.game_url(game_id)
        config = self.settings.web
        return None if config is None else page_url(config.public_url, config.secret, game_id)

    async def setup_hook(self) -> None:
        """Open the database (unless ``run`` did), register cogs and buttons, sync commands."""
        from bot.cogs.help import HelpCog
        from bot.cogs.info import InfoCog
        from bot.cogs.league import LeagueCog
        from bot.cogs.lobby import LobbyCog
        from bot.cogs.notes import NotesCog
        from bot.cogs.play import PlayCog
        from bot.cogs.profile import ProfileCog
        from bot.cogs.queue import QueueCog
        from bot.cogs.server import ServerCog
        from bot.cogs.settings import SettingsCog
        from bot.cogs.web import WebCog

        if self.repo is None:
            self.repo = await open_store(self.settings.database)
        log.info("event loop: %s", type(asyncio.get_running_loop()).__module__.split(".")[0])
        metrics, config = self.metrics, self.settings.ops.metrics
        if metrics is not None and config is not None:
            self.repo = counted_store(self.repo, metrics.database_errors)
            # before the workers warm up: /healthz answers, /readyz says what is not ready
            self.health = await self._serve_health(metrics, config)
        drawing, thinking = (
            (RenderPool, ThinkPool)
            if metrics is None
            else (
                partial(TimedRenderPool, seconds=metrics.picture_seconds),
                partial(TimedThinkPool, seconds=metrics.think_seconds),
            )
        )
        self.render_pool = drawing(self.settings.render_processes, render_picture)
        await self.render_pool.start()  # each worker draws one board per game: caches warm
        self.think_pool = thinking(self.settings.think_processes, self.settings.think_patience)
        await self.think_pool.start()
        rooms = self._rooms = build_rooms(
            self.repo, clock=self.clock, pool=self.render_pool, think=self.think_pool
        )
        # the first picture builds the renderer's caches (~0.5 s)
        await rooms.pictures.warm_up()
        await self.tree.set_translator(CatalogTranslator(self.catalog))
        cogs = (
            LobbyCog(self),
            PlayCog(self),
            InfoCog(self),
            SettingsCog(self),
            HelpCog(self),
            LeagueCog(self),
            ServerCog(self),
            WebCog(self),
            ProfileCog(self),
            QueueCog(self),
            NotesCog(self),
        )
        for cog in cogs:
            await self.add_cog(cog)
        self.add_dynamic_items(*map(self.bound, DYNAMIC_ITEMS))
        self.web = await start_web(self)
        if self.settings.sync_commands:
            await self.sync_commands()

    async def _serve_health(self, metrics: Metrics, config: MetricsConfig) -> HealthServer:
        """Serve /healthz, /readyz and /metrics; the gauges read the bot's queues and gateway."""
        metrics.watch(
            admission_waiting=lambda: len(self.admission.waiting),
            admission_running=lambda: self.admission.running,
            picture_queue=lambda: len(self.outbox.pictures),
            gateway_latency=lambda: self.latency,
        )
        checks = (
            ("gateway", gateway_check(self)),
            ("database", database_check(lambda: self.repo)),
            ("render workers", workers_check(lambda: self.render_pool)),
            ("think workers", workers_check(lambda: self.think_pool)),
        )
        return await start_health(config, metrics, checks, lambda: self.repo, self.served_shards)

    async def sync_commands(self) -> None:
        """Register the slash commands: in the development guild at once, else globally. With
        a development guild, the commands a user may install (``bot.cogs.anywhere``) are
        also registered globally, alone: user-installed commands are global on Discord, and
        direct messages reach them only so (in that guild they show twice)."""
        guild_id = self.settings.dev_guild_id
        try:
            if guild_id is not None:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                for command in self.tree.get_commands():
                    if not is_anywhere(command):  # the guild's copy answers it there
                        self.tree.remove_command(command.name)
                synced = await self.tree.sync(guild=guild)
                anywhere = await self.tree.sync()
            else:
                synced = await self.tree.sync()
        except discord.HTTPException:
            log.exception("could not sync the slash commands; the old ones stay registered")
            return
        if guild_id is not None:
            log.info("synced %d slash commands guild %s", len(synced), guild_id)
            log.info("synced %d user-installable commands globally", len(anywhere))
        else:
            log.info(
                "synced %d slash commands globally: Discord can take up to an hour to show them"
                " (DEV_GUILD_ID: at once, in that server)",
                len(synced),
            )

    async def on_ready(self) -> None:
        """Once connected: post messages that were lost, let computers go on, sweep from then on."""
        if self.served_shards is None:
            log.info("connected as %s", self.user)
        else:
            log.info(
                "connected as %s, shards %s of %d",
                self.user,
                ",".join(map(str, sorted(self.served_shards.ids))),
                self.served_shards.count,
            )
        await self.sweep()
        self.sweeper.start()  # once; a later on_ready changes nothing
        self.scheduler.start()  # its first tick sends what fell due while the bot was away

    async def on_resumed(self) -> None:
        """After a gateway reconnect: whatever failed while away is retried now."""
        await self.sweep()

    async def sweep(self) -> int:
        """Start the runner on every game that owes a message or waits for a computer, and the
        league runner on every running league.

        Each task posts its game's owed message first; the runner's slots bound how many work at
        once. Returns how many games were started; failures are logged and retried next time.
        """
        try:
            owed = set(await self.outbox.pending())
            waiting = set(await self.rooms.computers.pending_computer_games(self.served_shards))
        except Exception:
            log.warning("sweep: could not read the games", exc_info=True)
            return 0
        games = sorted((owed | waiting) - self.runner.unreachable)
        if owed:
            log.info("sweep: %d game(s) owe their thread a message", len(owed))
        for game_id in games:
            self.runner.kick(game_id)
        await self.lobbies.sweep(self)
        await self._sweep_leagues()
        try:
            await self.queue.sweep()
        except Exception:
            log.warning("sweep: could not move the queues on", exc_info=True)
        try:  # turn messages posted before their picture (a restart): drawn now, once
            await self.outbox.redraw_owed()
        except Exception:
            log.warning("sweep: could not queue the owed pictures", exc_info=True)
        return len(games)

    async def _sweep_leagues(self) -> None:
        """Rate the finished games not rated yet and kick every running league of the served
        shards (after a restart, a lost call); failures are logged and retried next time."""
        try:
            await self.rooms.ratings.rate_pending()
            for league in await self.rooms.leagues.running():
                if self.served_shards is None or self.served_shards.owns(league.guild_id):
                    self.leagues.kick(league.id)
        except Exception:
            log.warning("sweep: could not move the leagues on", exc_info=True)

    async def close(self) -> None:
        """Stop the sweep, the reminders and computer turns, let the commands under way answer
        (a few seconds at most), disconnect, close the database."""
        await self.sweeper.stop()
        await self.scheduler.stop()
        await self.leagues.stop()
        await self.queue.stop()
        await self.runner.stop()
        await self.outbox.pictures.close()  # unfinished pictures stay owed in the store
        await stop_web(self.web)
        self.web = None
        told = self.admission.stop()  # commands still waiting are told nothing was played
        if told:
            log.info("stopping: %d waiting command(s) told to play again", told)
        if self.admission.refused:
            log.info("%d command(s) were refused as too busy (D117)", self.admission.refused)
        await answer_pending_interactions(DRAIN_TIMEOUT)
        self.drained = True  # no await since the drain saw none running: none starts now
        # A bot closed before it ever logged in (set up directly) has no shard event queue yet:
        # discord.py's AutoShardedClient.close fails on it after closing everything else.
        with contextlib.suppress(AttributeError):
            await super().close()
        if self.render_pool is not None:
            await self.render_pool.close()
            self.render_pool = None
        if self.think_pool is not None:
            await self.think_pool.close()
            self.think_pool = None
        if self.repo is not None:
            await self.repo.close()
            self.repo = None
        if self.health is not None:  # last: /readyz says why until the end
            await self.health.stop()
            self.health = None


DRAIN_TIMEOUT = 5.0  # seconds the commands under way get to answer when the bot closes


async def answer_pending_interactions(timeout: float) -> None:
    """Wait (up to ``timeout`` s) for the interactions being handled, also ones that arrive
    meanwhile, so that the players get their answers before the connection closes."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (left := deadline - loop.time()) > 0:
        running = running_interactions()
        if not running:
            return
        await asyncio.wait(running, timeout=left)
    log.warning("stopping: some commands were still running; they get no answer")


def create_bot(
    settings: Settings,
    *,
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
    quiet_voice()
    return HimikoBot(
        settings,
        guild_ready_timeout=guild_ready_timeout,
        sweep_interval=sweep_interval,
        clock=clock,
    )


async def run(settings: Settings) -> None:
    """Run the bot until it is closed or SIGINT/SIGTERM arrives (what ``python -m bot`` does).

    A signal closes the bot (background tasks cancelled, Discord disconnected, the store
    closed) within ``STOP_TIMEOUT`` seconds; the store is closed even if closing hangs.
    """
    redact_logs(settings.token)
    if settings.ops.sentry_dsn is not None:  # in the loop: its asyncio integration watches it
        start_error_reports(settings.ops.sentry_dsn)
    systemd = Systemd.from_environ(os.environ, os.getpid())  # Type=notify, WatchdogSec=
    stopping = asyncio.Event()
    _on_stop_signals(stopping.set if systemd is None else _also(stopping.set, systemd.stopping))
    pings = None if systemd is None else asyncio.create_task(systemd.keep_alive())
    try:
        # The database first: a broken one stops the bot before it builds a client or connects.
        repo = await open_store(settings.database)
        try:
            bot = create_bot(settings)
        except BaseException:
            await repo.close()
            raise
        bot.repo = repo
        if systemd is not None:
            bot.add_listener(systemd.ready, "on_ready")
        try:
            await _run_until(bot, stopping)
        finally:
            if bot.repo is not None:  # closing was cut short: the store is closed all the same
                await bot.repo.close()
                bot.repo = None
    finally:
        if pings is not None:
            pings.cancel()
        stop_error_reports()


def _also(first: Callable[[], None], then: Callable[[], None]) -> Callable[[], None]:
    """``first()`` then ``then()``."""

    def both() -> None:
        first()
        then()

    return both


STOP_TIMEOUT = 10.0  # seconds closing may take after a signal before the process just ends


async def _run_until(bot: HimikoBot, stopping: asyncio.Event) -> None:
    """Run ``bot`` until it ends by itself (raising what ended it) or ``stopping`` is set."""
    started = asyncio.create_task(bot.start(bot.settings.token), name="himiko-client")
    stop = asyncio.create_task(stopping.wait(), name="himiko-stop")
    try:
        await asyncio.wait({started, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
    if started.done():
        await bot.close()
        started.result()  # login refused, gateway unreachable...: raised to ``python -m bot``
        return
    log.info("stopping: a stop signal arrived")
    try:
        await asyncio.wait_for(bot.close(), STOP_TIMEOUT)
    except TimeoutError:
        log.warning("stopping: closing took over %.0f s; stopping anyway", STOP_TIMEOUT)
    started.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await started


def _on_stop_signals(callback: Callable[[], None]) -> None:
    """Call ``callback`` on SIGINT and SIGTERM (where the loop supports signal handlers)."""
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows, other threads
            loop.add_signal_handler(number, callback)
