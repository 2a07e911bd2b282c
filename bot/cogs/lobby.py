"""``/new``: open a game lobby in a text channel."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalog import FALLBACK
from bot.context import Himiko
from bot.games import PRESENTATIONS
from bot.internals import Interaction
from bot.lobby_state import (
    MOST_BANK_HOURS,
    MOST_INCREMENT_HOURS,
    LobbyState,
    bank_fits,
    parse_hours,
)
from bot.names import short_name
from bot.present import NO_MENTIONS, known_language, server_language
from bot.service import ServiceError
from bot.translator import text
from bot.views.lobby import lobby_card
from bot.views.server_table import list_lobby
from engine import games


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game that the bot can present, by its display name."""
    return [
        app_commands.Choice(name=games.rules_for(key).display_name, value=key)
        for key in games.GAMES
        if key in PRESENTATIONS
    ]


def seat_limits() -> tuple[int, int]:
    """The fewest and most seats of any offered game (each game's own limits are checked)."""
    offered = [games.rules_for(c.value) for c in game_choices()]
    return min(r.min_players for r in offered), max(r.max_players for r in offered)


FEWEST, MOST = seat_limits()


def seat_ranges() -> str:
    """Each offered game's seats, for the ``seats`` option: ``<Game> 2-4, <Other> 2-5``."""
    offered = [games.rules_for(c.value) for c in game_choices()]
    return ", ".join(f"{r.display_name} {r.min_players}-{r.max_players}" for r in offered)


def typed_bank(time_bank: str | None, increment: str | None) -> tuple[int, int] | None:
    """The time bank typed in ``/new`` as (hours, increment hours); None when none was typed.
    A duration that is not one, or out of bounds, is refused with what may be typed."""
    if time_bank is None and increment is None:
        return None
    bank = None if time_bank is None else parse_hours(time_bank)
    step = 0 if increment is None else parse_hours(increment)
    if bank is None or step is None or not bank_fits(bank, step):
        raise ServiceError(
            "lobby.bank_bad",
            bank=time_bank or "",
            increment=increment or "",
            most_bank=MOST_BANK_HOURS // 24,
            most_increment=MOST_INCREMENT_HOURS // 24,
        )
    return bank, step


async def default_language(bot: Himiko, interaction: Interaction) -> str:
    """A new lobby's language: the server's default (``/server language``), else the server's
    preferred locale when the bot speaks it, else the host's locale, else English."""
    chosen = await server_language(bot, interaction.guild_id, interaction.guild_locale)
    return chosen or known_language(interaction.locale) or FALLBACK


class LobbyCog(commands.Cog):
    """Opening lobbies; the lobby's buttons live in ``bot.views.lobby``."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @app_commands.command(name="new", description=text("cmd.new"))
    @app_commands.describe(
        game=text("cmd.new.game"),
        seats=text("cmd.new.seats", games=seat_ranges()),
        computers=text("cmd.new.computers"),
        time_bank=text("cmd.new.time_bank"),
        increment=text("cmd.new.increment"),
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def new(
        self,
        interaction: Interaction,
        game: app_commands.Choice[str],
        seats: app_commands.Range[int, FEWEST, MOST] | None = None,
        computers: bool = False,
        time_bank: app_commands.Range[str, 1, 20] | None = None,
        increment: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        """Post the lobby card: the seats, the option menus, Join, Start and Cancel."""
        if not isinstance(interaction.channel, discord.TextChannel):
            raise ServiceError("error.lobby_in_thread")
        rules = games.rules_for(game.value)
        if seats is not None and not rules.min_players <= seats <= rules.max_players:
            raise ServiceError(
                "error.seats",
                game=rules.display_name,
                min=rules.min_players,
                max=rules.max_players,
            )
        bank = typed_bank(time_bank, increment)
        user = interaction.user
        await self.bot.rooms.limits.check_room(interaction.guild_id, user.id)  # the host joins
        state = LobbyState(
            game.value,
            rules.max_players if seats is None else seats,
            computers,
            (user.id,),
            (short_name(user.display_name),),
            language=await default_language(self.bot, interaction),
            bank=bank,
        )
        answered = await interaction.response.send_message(
            view=lobby_card(self.bot, interaction, state), allowed_mentions=NO_MENTIONS
        )
        if answered.message_id is not None:  # the lobby's message: /games lists it
            channel_id = interaction.channel_id
            await list_lobby(self.bot, interaction.guild_id, channel_id, answered.message_id, state)
