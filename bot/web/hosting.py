"""The web server in the bot's process: started in ``setup_hook``, stopped by ``close``."""

from __future__ import annotations

import logging
from typing import Any, Protocol

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


async def start_web(bot: Host) -> WebServer | None:
    """Serve the web pages if WEB_PORT is set (None otherwise, or if the address is taken:
    logged, and the bot plays on without its pages)."""
    config = bot.settings.web
    if config is None:
        return None
    store: WebStore = bot.repo
    pool: RenderPool = web_pool(bot.settings.render_processes)
    server = WebServer(config, store, pool, leagues=bot.rooms.leagues)
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
