"""Commands that work anywhere (issue 39 item 6): installable on a user as well as a server, and
answered in a direct message with the bot or any private channel, where there is no server:
``/mygames`` (every server's games), ``/profile``, ``/rating``, ``/rules``, ``/help``.

``anywhere`` marks a command so; ``app.HimikoBot.sync_commands`` registers these globally
(user-installed commands are global on Discord) and the rest in the development server when
one is set. ``ratings_everywhere`` gives a player's ratings on every server, for the direct
message answers of ``/profile`` and ``/rating`` (a rating belongs to a server)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from discord import app_commands

from bot.context import Himiko
from bot.service.ratings import PlayerRating
from engine import games

T = TypeVar("T")

#: How many servers' ratings a direct message answer lists.
MOST_SERVERS = 10


def anywhere(command: T) -> T:
    """Installable on a user and a server, usable in servers, direct messages and private
    channels (discord.py's ``allowed_installs`` and ``allowed_contexts``)."""
    installs = app_commands.allowed_installs(guilds=True, users=True)
    contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    return installs(contexts(command))


def is_anywhere(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu,
) -> bool:
    """Whether a command may be installed on a user (``anywhere``)."""
    installs = command.allowed_installs
    return installs is not None and installs.user


@dataclass(frozen=True)
class ServerRating:
    """A player's rating in one game on one server, with the server's name."""

    server: str
    rating: PlayerRating


async def ratings_everywhere(bot: Himiko, user_id: int) -> list[ServerRating]:
    """A player's ratings on every server (the first ``MOST_SERVERS``), most played game first
    on each; the server named as the bot knows it."""
    rooms = bot.rooms.ratings
    await rooms.rate_pending()
    found = []
    for guild_id in (await rooms.rated_guilds(user_id))[:MOST_SERVERS]:
        guild = bot.client.get_guild(guild_id)
        name = guild.name if guild is not None else str(guild_id)
        for key in await rooms.rated_games_of(guild_id, user_id):
            rating = await rooms.player(guild_id, key, user_id)
            if rating.place is not None:
                found.append(ServerRating(name, rating))
    return found


def rating_lines(
    say: Callable[..., str], ratings: list[ServerRating], number: Callable[[float], str]
) -> list[str]:
    """Each rating in words, with its server (``say(key, **params)``)."""

    return [
        say(
            "rating.line_on",
            game=games.rules_for(r.rating.game_key).display_name,
            server=r.server,
            rating=number(r.rating.rating),
            games=r.rating.games,
            place=r.rating.place,
        )
        for r in ratings
    ]
