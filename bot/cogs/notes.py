"""``/notes``: a player's private note on the game of this thread (issue 39 item 3), and the
answer to every notes modal submitted (``bot.views.notes``), also after a restart."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.context import Himiko
from bot.internals import Interaction
from bot.present import guarded, send, t, thread_of
from bot.translator import text
from bot.views.notes import NotesModal, submitted_note


class NotesCog(commands.Cog):
    """Opening a player's note on a game, and saving what they wrote."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @app_commands.command(name="notes", description=text("cmd.notes"))
    @app_commands.guild_only()
    async def notes(self, interaction: Interaction) -> None:
        """Open my note on this thread's game (only I ever see it)."""
        note = await self.bot.rooms.notes.of_thread(interaction.user.id, thread_of(interaction))
        await interaction.response.send_modal(NotesModal(interaction, note))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Save a submitted note and tell its author (privately) that it is saved."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        submitted = submitted_note(interaction.data or {})
        if submitted is None:
            return
        game_id, body = submitted

        async def save() -> None:
            note = await self.bot.rooms.notes.save(interaction.user.id, game_id, body)
            key = "notes.saved" if note.body else "notes.cleared"
            await send(interaction, t(interaction, key, count=len(note.body)))

        await guarded(interaction, save)
