"""The web server in the bot's process: started in ``setup_hook``, stopped by ``close``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.present import server_language
from bot.service import Rooms
from bot.settings import Settings
from bot.workers.render_pool import RenderPool

from .pictures import web_pool
from .server import WebServer
from .sources import WebStore

log = logging.getLogger(__name__)


class Host(Protocol):
    """What the web server takes from the bot: its settings, store and rooms (the leagues)."""

    settings: Settings

    @property
    def repo(self) -> Any:
        """The open store (a ``WebStore``)."""
        ...

    @property
    def rooms(self) -> Rooms:
        """The game services: a league page's standings come from ``rooms.leagues``."""
        ...

    def get_guild(self, id: int, /) -> discord.Guild | None:
        """A server this process sees (a league page speaks its language), if any."""
        ...


def server_languages(bot: Host) -> Callable[[int], Awaitable[str | None]]:
    """A server's language by its id, as the bot's league posts say it (``server_language``:
    its ``/server language`` default, else its Discord locale if the bot speaks it)."""

    async def language(guild_id: int) -> str | None:
        guild = bot.get_guild(guild_id)
        preferred = None if guild is None else guild.preferred_locale
        return await server_language(bot, guild_id, preferred)

    return language


async def start_web(bot: Host) -> WebServer | None:
    """Serve the web pages if WEB_PORT is set (None otherwise, or if the address is taken:
    logged, and the bot plays on without its pages)."""
    config = bot.settings.web
    if config is None:
        return None
    store: WebStore = bot.repo
    pool: RenderPool = web_pool(bot.settings.render_processes)
    server = WebServer(
        config, store, pool, leagues=bot.rooms.leagues, languages=server_languages(bot)
    )
    try:
        await server.start()
    except OSError as error:
        log.error(
            "web pages: cannot listen on %s:%s (%s); the bot runs without them",
            config.host,
            config.port,
            error,
        )
        await server.stop()
        return None
    await pool.start()
    return server


async def stop_web(server: WebServer | None) -> None:
    """Stop serving the pages and the web's render workers."""
    if server is not None:
        await server.stop()
        await server.pool.close()
