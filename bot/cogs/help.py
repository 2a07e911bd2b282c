"""``/help``: what Himiko is, how to start a game and play a turn, and the commands."""

from __future__ import annotations

import logging

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

log = logging.getLogger(__name__)

#: Discord's limit on an embed's description: the help grows with the commands and languages
#: (French and Italian passed a message's 2,000 characters), so it is sent as an embed.
EMBED_DESCRIPTION = 4096

#: The sections of ``/help`` in reading order (``help.<section>``, titles ``help.title.<section>``).
SECTIONS = ("about", "start", "turn", "commands", "languages")


def help_text(interaction: Interaction, game: str | None = None) -> str:
    """The whole help, one titled section after another, in the user's language; a game may
    add to a section in its own texts (``<game>.help.<section>``, e.g. how to type its turn).
    In a game's thread (``game``) only that game adds, and its own whole-turn example and
    names typed in the reader's words (``<game>.help.example``, ``<game>.help.names``) are
    the ones shown."""
    names = ", ".join(games.rules_for(key).display_name for key in games.GAMES)
    catalog = default_catalog()
    adding = [game] if game in games.GAMES else list(games.GAMES)
    shown = [key for key in [*adding, *games.GAMES] if catalog.has(f"{key}.help.example")]
    example = t(interaction, f"{shown[0]}.help.example") if shown else ""
    own = f"{game}.help.names"
    typed = t(interaction, own if game in games.GAMES and catalog.has(own) else "help.names")
    blocks = []
    for section in SECTIONS:
        said = [t(interaction, f"help.{section}", games=names, example=example, names=typed)]
        said += [
            t(interaction, f"{key}.help.{section}")
            for key in adding
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
        """The help, privately, as an embed (a message's 2,000 characters are too few); in a
        game's thread, that game's examples."""
        game = await self._thread_game(interaction)
        embed = discord.Embed(description=clip(help_text(interaction, game), EMBED_DESCRIPTION))
        await send(interaction, embed=embed)

    async def _thread_game(self, interaction: Interaction) -> str | None:
        """The game played in the channel asked from, if any; None when it cannot be read
        (the help is still given, for every game)."""
        if interaction.channel_id is None:
            return None
        try:
            return await self.bot.rooms.reading.game_in_thread(interaction.channel_id)
        except Exception:
            log.warning("help: the game of channel %s could not be read", interaction.channel_id)
            return None
