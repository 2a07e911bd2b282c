"""``/new``: open a game lobby in a text channel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.lobby_state import LobbyState
from bot.names import short_name
from bot.present import guarded
from bot.service import ServiceError
from bot.translator import text
from bot.views.lobby import lobby_embed, lobby_view

if TYPE_CHECKING:
    from bot.app import HimikoBot

GAMES = [app_commands.Choice(name="Yamatai", value="yamatai")]


class LobbyCog(commands.Cog):
    """Opening lobbies; the lobby's buttons live in ``bot.views.lobby``."""

    def __init__(self, bot: HimikoBot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description=text("cmd.new"))
    @app_commands.describe(
        game=text("cmd.new.game"), seats=text("cmd.new.seats"), computers=text("cmd.new.computers")
    )
    @app_commands.choices(game=GAMES)
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        seats: app_commands.Range[int, 2, 4] = 4,
        computers: bool = False,
    ) -> None:
        """Post a lobby message with options and Join / Leave / Start / Cancel."""

        async def body() -> None:
            if not isinstance(interaction.channel, discord.TextChannel):
                raise ServiceError("error.lobby_in_thread")
            user = interaction.user
            state = LobbyState(
                game.value, seats, computers, (user.id,), (short_name(user.display_name),)
            )
            await interaction.response.send_message(
                embed=lobby_embed(interaction, state), view=lobby_view(interaction, state)
            )

        await guarded(interaction, body)
