"""``/profile [user] [public]``: a player's record on this server (issue 21 item 14, D87).

How their games ended (finished, abandoned, resigned, being played), their median time to move
and their rating in each game they are rated in, so league organisers can see who finishes
games: one card, the record beside the player's avatar (D203). Private unless ``public:true``
(D84).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.cards import card, fit_texts
from bot.catalog import Catalog
from bot.cogs.anywhere import ServerRating, anywhere, rating_lines, ratings_everywhere
from bot.cogs.info import duration_in
from bot.cogs.league import Person, avatar_section, reply_language, send_card
from bot.context import Himiko
from bot.present import decimal
from bot.service import Profile
from bot.service.ratings import PlayerRating
from bot.translator import text
from engine import games

Interaction = discord.Interaction[Any]


def profile_texts(
    catalog: Catalog,
    locale: str | None,
    user: str,
    found: Profile,
    ratings: Sequence[PlayerRating],
    everywhere: list[ServerRating] | None = None,
) -> list[str]:
    """The record in words, in ``locale``: a title; the games and the pace; one line per
    rating (``everywhere``: in a direct message, the ratings of every server, each named)."""

    def say(key: str, **params: Any) -> str:
        return catalog.text(key, locale, **params)

    pace = (
        say("profile.pace_none")
        if found.median_move is None
        else say("profile.pace", time=duration_in(catalog, locale, found.median_move))
    )
    games_and_pace = [
        say(
            "profile.games",
            finished=found.finished,
            abandoned=found.abandoned,
            resigned=found.resigned,
            playing=found.playing,
        ),
        pace,
    ]
    rated = [
        say(
            "profile.rating",
            game=games.rules_for(r.game_key).display_name,
            rating=decimal(r.rating, locale),
            games=r.games,
            place=r.place,
        )
        for r in ratings
        if r.place is not None
    ]
    if everywhere is not None:  # a direct message: every server's record and ratings
        rated = rating_lines(say, everywhere, lambda value: decimal(value, locale))
    title = say("profile.title" if everywhere is None else "profile.title_everywhere", user=user)
    lines = rated or [say("profile.unrated")]
    return [title, "\n".join(games_and_pace), "\n".join(lines)]


def profile_card(
    catalog: Catalog,
    locale: str | None,
    person: Person,
    found: Profile,
    ratings: Sequence[PlayerRating],
    everywhere: list[ServerRating] | None = None,
) -> ui.LayoutView:
    """``/profile`` as a card: the record in words beside the player's avatar."""
    said = fit_texts(profile_texts(catalog, locale, person.mention, found, ratings, everywhere))
    return card(avatar_section(person, *said))


class ProfileCog(commands.Cog):
    """A player's record on a server."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @anywhere
    @app_commands.command(name="profile", description=text("cmd.profile"))
    @app_commands.describe(user=text("cmd.profile.user"), public=text("cmd.public"))
    async def profile(
        self, interaction: Interaction, user: discord.User | None = None, public: bool = False
    ) -> None:
        """Games finished, abandoned and resigned, time to move, ratings: for me or everyone."""
        who = user or interaction.user
        guild_id = interaction.guild_id  # None in a direct message: every server
        await interaction.response.defer(ephemeral=not public)
        found = await self.bot.rooms.reading.profile(who.id, guild_id=guild_id)
        locale = await reply_language(self.bot, interaction, public)
        if guild_id is None:
            everywhere = await ratings_everywhere(self.bot, who.id)
            shown = profile_card(self.bot.catalog, locale, who, found, [], everywhere)
        else:
            rated = self.bot.rooms.ratings
            await rated.rate_pending()
            keys = await rated.rated_games_of(guild_id, who.id)
            ratings = [await rated.player(guild_id, key, who.id) for key in keys]
            shown = profile_card(self.bot.catalog, locale, who, found, ratings)
        await send_card(interaction, shown, ephemeral=not public)
