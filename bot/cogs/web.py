"""``/web`` (the link to a game's web page) and ``/export`` (the game's record as a JSON file)."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.context import Himiko
from bot.internals import Interaction
from bot.present import send, t, thread_of
from bot.service import ServiceError
from bot.translator import text
from engine import record


class WebCog(commands.Cog):
    """A game's web page and record, from its thread."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @app_commands.command(name="web", description=text("cmd.web"))
    @app_commands.guild_only()
    async def web(self, interaction: Interaction) -> None:
        """The link to the thread's game page (only for me), or why there is none."""
        thread = thread_of(interaction)
        try:
            game_id = await self.bot.rooms.reading.game_id(thread)
        except ServiceError:
            raise ServiceError("web.no_game") from None
        url = self.bot.game_page(game_id)
        if url is None:
            await send(interaction, t(interaction, "web.none"))
            return
        await send(interaction, t(interaction, "web.link", url=url))

    @app_commands.command(name="export", description=text("cmd.export"))
    @app_commands.guild_only()
    async def export(self, interaction: Interaction) -> None:
        """The thread's game record, attached (only for me): the spectator record while the
        game runs (players only), the full record once it is over (anyone)."""
        thread = thread_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        made = await self.bot.rooms.records.export(interaction.user.id, thread_id=thread)
        key = "export.full" if made.kind == record.FULL else "export.spectator"
        await interaction.followup.send(
            t(interaction, key, file=made.filename),
            file=discord.File(io.BytesIO(made.data), filename=made.filename),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
