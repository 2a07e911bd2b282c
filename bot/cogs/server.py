"""``/server``: a server's settings for Himiko, changed by members with Manage Server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.context import Himiko
from bot.internals import Interaction
from bot.lobby_state import LANGUAGE_NAMES
from bot.present import known_language, send, t
from bot.service import ServiceError
from bot.service.limits import MOST_GAMES
from bot.translator import text

#: The language choice that clears the server's default.
NO_DEFAULT = "none"


def language_choices() -> list[Choice[str]]:
    """Each language by its own name, then "no default" (the server's preferred locale)."""
    named = [Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()]
    return [*named, Choice(name=text("server.choice_none"), value=NO_DEFAULT)]


class ServerCog(commands.Cog):
    """Per-server settings: the default language of new games and of league posts, and where
    the queue opens its games."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @app_commands.command(name="server", description=text("cmd.server"))
    @app_commands.describe(
        language=text("cmd.server.language"),
        queue_channel=text("cmd.server.queue_channel"),
        clear_queue_channel=text("cmd.server.clear_queue_channel"),
        max_games=text("cmd.server.max_games"),
    )
    @app_commands.rename(
        queue_channel="queue-channel",
        clear_queue_channel="clear-queue-channel",
        max_games="max-games",
    )
    @app_commands.choices(language=language_choices())
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def server(
        self,
        interaction: Interaction,
        language: Choice[str] | None = None,
        queue_channel: discord.TextChannel | None = None,
        max_games: app_commands.Range[int, 0, MOST_GAMES] | None = None,
        clear_queue_channel: bool = False,
    ) -> None:
        """Show the server's settings, or set its default language, the channel where the
        queue opens its games (or clear it) and how many active games one player may hold (0:
        no limit; Manage Server only)."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise ServiceError("error.guild_only")
        rooms = self.bot.rooms
        changing = (
            language is not None
            or queue_channel is not None
            or clear_queue_channel
            or max_games is not None
        )
        # Discord hides the command from others by default, but a server may override that
        if changing and not interaction.permissions.manage_guild:
            raise ServiceError("server.manage_only")
        if queue_channel is not None and clear_queue_channel:
            raise ServiceError("server.queue_channel_both")
        if clear_queue_channel:
            await rooms.queue.set_channel(guild_id, None, by=interaction.user.id)
        if queue_channel is not None:
            if not can_open_threads(queue_channel):
                raise ServiceError("server.queue_channel_bad", channel=queue_channel.mention)
            await rooms.queue.set_channel(guild_id, queue_channel.id, by=interaction.user.id)
        if max_games is not None:
            await rooms.limits.set_most(guild_id, max_games, by=interaction.user.id)
        if language is not None:
            chosen = None if language.value == NO_DEFAULT else language.value
            await rooms.settings.set_server_language(guild_id, chosen, by=interaction.user.id)
        lines = [await self._language_line(interaction, guild_id, language is not None)]
        queue_at = await rooms.queue.channel(guild_id)
        if queue_at is not None:
            key = "server.queue_channel_set" if queue_channel else "server.queue_channel_is"
            lines.append(t(interaction, key, channel=f"<#{queue_at}>"))
        elif clear_queue_channel:
            lines.append(t(interaction, "server.queue_channel_none"))
        most = await rooms.limits.most(guild_id)
        if most is not None:
            lines.append(t(interaction, "server.max_games_set", count=most))
        elif max_games is not None:
            lines.append(t(interaction, "server.max_games_none"))
        await send(interaction, "\n".join(lines))

    async def _language_line(self, interaction: Interaction, guild_id: int, changed: bool) -> str:
        """The server's default language, as just set or as it is."""
        current = await self.bot.rooms.settings.server_language(guild_id)
        if current is not None:
            key = "server.language_set" if changed else "server.language_is"
            return t(interaction, key, language=t(interaction, f"language.name.{current}"))
        # in a sentence, a language is named in the reader's words ("en polonais"), its own
        # name ("Polski") only in the choices
        preferred = known_language(interaction.guild_locale)
        shown = (
            t(interaction, f"language.name.{preferred}")
            if preferred
            else str(interaction.guild_locale)
        )
        return t(interaction, "server.language_none", locale=shown)


def can_open_threads(channel: discord.TextChannel) -> bool:
    """Whether the bot can post and start threads in a text channel (True when its own member
    is not known here: the queue runner then says what failed)."""
    me = channel.guild.me
    if me is None:
        return True
    rights = channel.permissions_for(me)
    return rights.send_messages and rights.create_public_threads
