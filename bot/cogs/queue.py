"""Finding opponents (issue 39): ``/queue join|leave|show``, waiting for a game with the
server's other players, and ``/games``, the server's table (open lobbies, the queue, the games
being played).

The commands only: matching the waiting players and opening their games is the queue runner's
work, in the background (``bot/background/queue_runner.py``), kicked after each join.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.cogs.lobby import game_choices
from bot.context import Himiko
from bot.internals import Interaction
from bot.names import display_name
from bot.present import NO_MENTIONS, send, server_language, t
from bot.service.queue import counts
from bot.translator import text
from bot.views.server_table import join_queue, table_card
from engine import games

PLAYERS = app_commands.Range[str, 1, 20]


class QueueCog(commands.Cog):
    """``/queue``: join, leave and see the server's queue; ``/games``: the server's table."""

    queue = app_commands.Group(name="queue", description=text("cmd.queue"), guild_only=True)

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @queue.command(name="join", description=text("cmd.queue.join"))
    @app_commands.describe(game=text("cmd.queue.join.game"), players=text("cmd.queue.join.players"))
    @app_commands.choices(game=game_choices())
    async def join(
        self,
        interaction: Interaction,
        game: app_commands.Choice[str],
        players: PLAYERS | None = None,
    ) -> None:
        """Wait for a game; the runner opens it when enough players fit."""
        await join_queue(self.bot, interaction, game.value, players)

    @queue.command(name="leave", description=text("cmd.queue.leave"))
    async def leave(self, interaction: Interaction) -> None:
        """Stop waiting (every game of this server's queue)."""
        await self.bot.rooms.queue.leave(interaction.guild_id or 0, interaction.user.id)
        await send(interaction, t(interaction, "queue.left"))

    @queue.command(name="show", description=text("cmd.queue.show"))
    async def show(self, interaction: Interaction) -> None:
        """Who waits in this server's queue, oldest first."""
        waiting = await self.bot.rooms.queue.waiting(interaction.guild_id or 0)
        if not waiting:
            await send(interaction, t(interaction, "queue.empty"))
            return
        lines = [t(interaction, "queue.heading")]
        for entry in waiting[:40]:
            lines.append(
                "- "
                + t(
                    interaction,
                    "queue.line",
                    game=games.rules_for(entry.game_key).display_name,
                    name=display_name(entry.name),
                    players=counts(entry),
                    since=f"<t:{entry.joined_at}:R>",
                )
            )
        await send(interaction, "\n".join(lines))

    @app_commands.command(name="games", description=text("cmd.games"))
    @app_commands.guild_only()
    async def games(self, interaction: Interaction) -> None:
        """The server's table: the games being played, the open lobbies (a Join link each) and
        the queue (a Join button per game)."""
        table = await self.bot.rooms.server_table.of_server(
            interaction.guild_id or 0, interaction.user.id
        )
        language = await server_language(self.bot, interaction.guild_id, interaction.guild_locale)
        await interaction.response.send_message(
            view=table_card(self.bot, interaction, table, language),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
