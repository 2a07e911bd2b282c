"""``/server``: a server's settings for Himiko, changed by members with Manage Server."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.context import Himiko
from bot.internals import Interaction
from bot.lobby_state import LANGUAGE_NAMES
from bot.present import known_language, send, t
from bot.service import ServiceError
from bot.translator import text

#: The language choice that clears the server's default.
NO_DEFAULT = "none"


def language_choices() -> list[Choice[str]]:
    """Each language by its own name, then "no default" (the server's preferred locale)."""
    named = [Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()]
    return [*named, Choice(name=text("server.choice_none"), value=NO_DEFAULT)]


class ServerCog(commands.Cog):
    """Per-server settings: the default language of new games and of league posts."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @app_commands.command(name="server", description=text("cmd.server"))
    @app_commands.describe(language=text("cmd.server.language"))
    @app_commands.choices(language=language_choices())
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def server(self, interaction: Interaction, language: Choice[str] | None = None) -> None:
        """Show the server's settings, or set its default language (Manage Server only)."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise ServiceError("error.guild_only")
        rooms = self.bot.rooms
        if language is not None:
            # Discord hides the command from others by default, but a server may override that
            if not interaction.permissions.manage_guild:
                raise ServiceError("server.manage_only")
            chosen = None if language.value == NO_DEFAULT else language.value
            await rooms.settings.set_server_language(guild_id, chosen, by=interaction.user.id)
        current = await rooms.settings.server_language(guild_id)
        if current is not None:
            key = "server.language_set" if language is not None else "server.language_is"
            await send(interaction, t(interaction, key, language=LANGUAGE_NAMES[current]))
            return
        preferred = known_language(interaction.guild_locale)
        shown = LANGUAGE_NAMES[preferred] if preferred else str(interaction.guild_locale)
        await send(interaction, t(interaction, "server.language_none", locale=shown))
