"""What Himiko relies on inside discord.py 2.7; each pinned by a test.

discord.py does not offer these as public API, so they live here, each behind one small name,
and ``tests/bot/test_internals.py`` fails if a new version changes what the bot counts on.
aiosqlite's are fenced the same way in ``bot/store/internals.py`` (the store and the services
import no discord), aiohttp's in ``bot/web/protocol.py``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

import discord
import yarl
from discord import app_commands, ui
from discord.gateway import DiscordWebSocket
from discord.http import Route

#: The interaction the bot's commands and components are handed (its client: the bot).
Interaction = discord.Interaction[discord.Client]

# -- Endpoints --------------------------------------------------------------------------------

#: Discord's own REST base and gateway, as discord.py starts with them.
DEFAULT_API_BASE: str = Route.BASE
DEFAULT_GATEWAY: yarl.URL = DiscordWebSocket.DEFAULT_GATEWAY


def set_endpoints(api_base: str | None, gateway_url: str | yarl.URL | None) -> None:
    """Point discord.py at a REST base and a gateway (None: back at Discord's own).

    discord.py reads both from class attributes: every REST route (webhooks and interaction
    callbacks included) is ``Route.BASE + path``, and the client connects to
    ``DiscordWebSocket.DEFAULT_GATEWAY`` (a sharded client with a shard count never asks
    ``GET /gateway/bot``); after READY it resumes at the ``resume_gateway_url`` the gateway sent.
    """
    Route.BASE = api_base or DEFAULT_API_BASE
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url) if gateway_url else DEFAULT_GATEWAY


def endpoints() -> tuple[str, yarl.URL]:
    """The REST base and the gateway discord.py uses now (to put them back later)."""
    return Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY


# -- Interactions -----------------------------------------------------------------------------

#: discord.py's names (prefixes) for the tasks that run a slash command or its autocomplete,
#: a view's component click and a ``DynamicItem``'s click.
INTERACTION_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
)


def running_interactions() -> list[asyncio.Task[object]]:
    """The tasks of this loop handling an interaction now (commands, autocomplete, clicks)."""
    return [
        task
        for task in asyncio.all_tasks()
        if not task.done() and task.get_name().startswith(INTERACTION_TASKS)
    ]


Run = Callable[[], Awaitable[None]]


class GatedTree(app_commands.CommandTree[discord.Client]):
    """discord.py's command tree with one seam: every slash command and autocomplete that
    arrives runs through ``gate``."""

    async def _call(self, interaction: Interaction) -> None:
        # discord.py calls this once per arriving command or autocomplete, in its own task
        await self.gate(interaction, lambda: super(GatedTree, self)._call(interaction))

    async def gate(self, interaction: Interaction, run: Run) -> None:
        """Run the command (``run``) at once; a subclass may hold it back, time or refuse it."""
        await run()


def set_response(
    interaction: Interaction, response: discord.InteractionResponse[discord.Client]
) -> None:
    """Make ``response`` what ``interaction.response`` is from now on, for every handler."""
    # discord.py builds the response once and caches it in this slot
    interaction._cs_response = response  # type: ignore[attr-defined]


def item_template(item: type[ui.DynamicItem[ui.Item[ui.View]]]) -> re.Pattern[str]:
    """The compiled ``template`` of a ``DynamicItem`` class: the custom ids it is built from."""
    return item.__discord_ui_compiled_template__


def quiet_voice() -> None:
    """Keep discord.py from warning that the voice libraries (PyNaCl, davey) are missing.

    Himiko never joins a voice channel; the warning would only alarm whoever reads the log. A
    client warns while building itself, once per process, as long as these flags are set.
    """
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
