"""``/help``: what Himiko is, how to start a game and play a turn, and the commands."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalog import default_catalog
from bot.cogs.anywhere import anywhere
from bot.context import Himiko
from bot.internals import Interaction
from bot.present import clip, send, t
from bot.translator import text
from engine import games

#: Discord's limit on an embed's description: the help grows with the commands and languages
#: (French and Italian passed a message's 2,000 characters), so it is sent as an embed.
EMBED_DESCRIPTION = 4096

#: The sections of ``/help`` in reading order (``help.<section>``, titles ``help.title.<section>``).
SECTIONS = ("about", "start", "turn", "commands", "languages")


def help_text(interaction: Interaction) -> str:
    """The whole help, one titled section after another, in the user's language; a game may
    add to a section in its own texts (``<game>.help.<section>``, e.g. how to type its turn)."""
    names = ", ".join(games.rules_for(key).display_name for key in games.GAMES)
    catalog = default_catalog()
    blocks = []
    for section in SECTIONS:
        said = [t(interaction, f"help.{section}", games=names)]
        said += [
            t(interaction, f"{key}.help.{section}")
            for key in games.GAMES
            if catalog.has(f"{key}.help.{section}")
        ]
        blocks.append(f"**{t(interaction, f'help.title.{section}')}**\n" + "\n".join(said))
    return "\n\n".join(blocks)


class HelpCog(commands.Cog):
    """``/help``, anywhere, for anyone."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @anywhere
    @app_commands.command(name="help", description=text("cmd.help"))
    async def help(self, interaction: Interaction) -> None:
        """The help, privately, as an embed (a message's 2,000 characters are too few)."""
        embed = discord.Embed(description=clip(help_text(interaction), EMBED_DESCRIPTION))
        await send(interaction, embed=embed)
