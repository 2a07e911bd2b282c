"""Point discord.py (process-wide) at a double; for tests that drive a client in-process."""

from __future__ import annotations

from collections.abc import Callable

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


def configure_client_for_double(api_base: str, gateway_url: str) -> Callable[[], None]:
    """Set ``Route.BASE`` and the default gateway URL; return a function that restores them."""
    old_base = Route.BASE
    old_gateway = DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = api_base.rstrip("/")
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)

    def restore() -> None:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore
