"""``/league create|join|leave|start|standings|export``, ``/rating`` and ``/leaderboard``.

The commands only: moving a season on (standings posted, each round's tables opened in their
own threads) is the league runner's work, in the background (``bot/background/league_runner.py``);
``/league start`` waits for its first pass, so its answer says whether every table opened.
``/rating`` and ``/leaderboard`` answer with cards (D203): the player beside their avatar, the
rating chart in a gallery; the leaderboard's lines within the limits of a card.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.admission import AnswerSoon
from bot.cards import card, fit_texts, gallery, texts
from bot.cogs.anywhere import anywhere, rating_lines, ratings_everywhere
from bot.cogs.lobby import game_choices
from bot.context import Himiko
from bot.league_picture import standings_png
from bot.names import display_name, league_name, short_name
from bot.present import (
    NO_MENTIONS,
    clip,
    decimal,
    member_of,
    picture,
    public_locale,
    send,
    server_language,
    t,
)
from bot.service import ServiceError
from bot.service.leagues import PAIRINGS, LeagueService
from bot.service.ratings import LeaderLine, PlayerRating, RatingService
from bot.service.rights import is_organiser
from bot.thread.door import settle
from bot.translator import text
from engine import games
from render.league import render_rating_chart

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
NAME = app_commands.Range[str, 1, 64]
Say = Callable[..., str]
Person = discord.User | discord.Member
RATING_CHART = "rating.png"
MAX_THUMBNAIL_ABOUT = 256  # characters of a thumbnail's description (discord.py, Discord)


async def reply_language(bot: Himiko, interaction: Interaction, public: bool) -> str | None:
    """The reader's language for a private reply, the server's for a public one (D84)."""
    if not public:
        return str(interaction.locale)
    return await server_language(bot, interaction.guild_id, public_locale(interaction))


def avatar_section(person: Person, *parts: str) -> ui.Section[Any]:
    """A card's section about ``person``: up to three texts (the empty ones left out) with their
    Discord avatar beside them, named by their display name."""
    shown = [part for part in parts if part] or ["…"]
    avatar = ui.Thumbnail[Any](
        person.display_avatar.url, description=clip(person.display_name, MAX_THUMBNAIL_ABOUT)
    )
    return ui.Section[Any](*shown, accessory=avatar)


async def send_card(
    interaction: Interaction,
    shown: ui.LayoutView,
    *,
    png: bytes | None = None,
    png_name: str = RATING_CHART,
    ephemeral: bool = True,
) -> None:
    """Answer an interaction with a card (and the picture its gallery shows), or follow up if it
    was already answered or deferred; mentions in it never ping."""
    files = [] if png is None else [picture(png, png_name)]
    response = interaction.response
    # a command that may answer directly: never crossing its late deferral (D139), as ``send``
    turn: AbstractAsyncContextManager[object] = (
        response.answering if isinstance(response, AnswerSoon) else nullcontext()
    )
    async with turn:
        if response.is_done():
            await interaction.followup.send(
                view=shown, files=files, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS
            )
        else:
            await response.send_message(
                view=shown, files=files, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS
            )


def rating_card(
    say: Say,
    person: Person,
    game: str,
    found: PlayerRating,
    *,
    chart: bool = True,
    locale: str | None = None,
) -> ui.LayoutView:
    """``/rating`` as a card: its heading and the rating in words beside the player's avatar,
    then (``chart``) the chart of its history, attached as ``RATING_CHART``; a player without a
    rating in that game gets the card in words only. Numbers as ``locale`` writes them."""
    if found.place is None:
        return card(avatar_section(person, say("rating.unrated", user=person.mention, game=game)))
    title = say("rating.chart_title", user=display_name(person.display_name), game=game)
    heading, line = fit_texts(
        [
            f"**{title}**",
            say(
                "rating.line",
                user=person.mention,
                game=game,
                rating=decimal(found.rating, locale),
                games=found.games,
                place=found.place,
            ),
        ]
    )
    about = say("rating.chart_title", user=person.display_name, game=game)
    pictures = [gallery((RATING_CHART, about))] if chart else []
    return card(avatar_section(person, heading, line), *pictures)


def leaderboard_card(
    say: Say, game: str, lines: Sequence[LeaderLine], locale: str | None = None
) -> ui.LayoutView:
    """``/leaderboard`` as a card: its title, then one line per player (best first), within the
    limits of a card; or that nobody is rated in that game yet. Numbers as ``locale`` writes
    them."""
    if not lines:
        return card(*texts(say("rating.board_empty", game=game)))
    body = "\n".join(
        say(
            "rating.board_line",
            place=b.place,
            user=f"<@{b.user_id}>",
            rating=decimal(b.rating, locale),
            games=b.games,
        )
        for b in lines
    )
    return card(*texts(*fit_texts([say("rating.board_title", game=game), body])))


class LeagueCog(commands.Cog):
    """League and rating commands."""

    league = app_commands.Group(name="league", description=text("cmd.league"), guild_only=True)

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @property
    def leagues(self) -> LeagueService:
        """The league room."""
        return self.bot.rooms.leagues

    @property
    def ratings(self) -> RatingService:
        """The ratings room."""
        return self.bot.rooms.ratings

    async def _league_names(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = await self.leagues.names(interaction.guild_id or 0, current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    # -- /league -----------------------------------------------------------------------------------

    @league.command(name="create", description=text("cmd.league.create"))
    @app_commands.describe(
        name=text("cmd.league.name"),
        game=text("cmd.league.game"),
        rounds=text("cmd.league.rounds"),
        table_size=text("cmd.league.table_size"),
        pairing=text("cmd.league.pairing"),
        deadline=text("cmd.league.deadline"),
        points=text("cmd.league.points"),
        organiser=text("cmd.league.organiser"),
    )
    @app_commands.choices(
        game=game_choices(),
        pairing=[app_commands.Choice(name=text(f"league.pairing.{p}"), value=p) for p in PAIRINGS],
    )
    async def create(
        self,
        interaction: Interaction,
        name: NAME,
        game: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 50] = 3,
        table_size: app_commands.Range[int, 1, 8] | None = None,
        pairing: app_commands.Choice[str] | None = None,
        deadline: app_commands.Range[int, 0, 720] = 48,
        points: app_commands.Range[str, 1, 100] = "3,2,1,0",
        organiser: discord.Role | None = None,
    ) -> None:
        """Create a league open for sign-up in this channel."""
        if not isinstance(interaction.channel, discord.TextChannel):
            raise ServiceError("league.not_in_channel")
        league = await self.leagues.create(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel.id,
            creator_id=interaction.user.id,
            name=name,
            game_key=game.value,
            rounds=rounds,
            table_size=table_size,
            pairing="swiss" if pairing is None else pairing.value,
            deadline_hours=deadline,
            points=points,
            organiser_role=None if organiser is None else organiser.id,
        )
        await interaction.response.send_message(
            t(
                interaction,
                "league.created",
                name=league_name(league.name),
                game=games.rules_for(league.game_key).display_name,
                rounds=league.rounds,
                size=league.table_size,
                pairing=t(interaction, f"league.pairing.{league.pairing}"),
                points=league.points.replace(",", "/"),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @league.command(name="join", description=text("cmd.league.join"))
    @app_commands.describe(name=text("cmd.league.name"))
    async def join(self, interaction: Interaction, name: NAME) -> None:
        """Sign up while sign-up is open."""
        user = interaction.user
        league = await self.leagues.join(
            interaction.guild_id or 0, name, user.id, short_name(user.display_name)
        )
        count = len(await self.leagues.players(league))
        await send(
            interaction,
            t(interaction, "league.joined", name=league_name(league.name), count=count),
        )

    @join.autocomplete("name")
    async def _join_names(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._league_names(interaction, current)

    @league.command(name="leave", description=text("cmd.league.leave"))
    @app_commands.describe(name=text("cmd.league.name"))
    async def leave(self, interaction: Interaction, name: NAME) -> None:
        """Leave before the season, or withdraw during it (remaining games forfeited)."""
        left = await self.leagues.leave(interaction.guild_id or 0, name, interaction.user.id)
        key = "league.withdrew" if left.withdrawn else "league.left"
        await send(interaction, t(interaction, key, name=league_name(left.league.name)))
        for game_id in left.resigned_games:
            await settle(self.bot, game_id)
        if left.withdrawn:  # their forfeits may end the round: in the background
            self.bot.leagues.kick(left.league.id)

    @league.command(name="start", description=text("cmd.league.start"))
    @app_commands.describe(name=text("cmd.league.name"))
    async def start(self, interaction: Interaction, name: NAME) -> None:
        """Close sign-up and seat round 1: one thread and game per table (organisers only)."""
        guild_id = interaction.guild_id or 0
        league = await self.leagues.get(guild_id, name)
        member = member_of(interaction)
        allowed = is_organiser(
            league, member.user_id, manage_guild=member.manage_guild, roles=list(member.roles)
        )
        # refusals stay private: seat round 1 (checks and a few writes) before the public answer
        progress = await self.leagues.start(guild_id, name, member.user_id, organiser=allowed)
        await interaction.response.defer(thinking=True)
        await self.bot.leagues.settle(progress.league.id)  # round 1's tables opened, if it can
        tables = await self.leagues.tables_to_open(progress.league)
        await interaction.followup.send(
            t(interaction, "league.started", name=league_name(league.name), round=1)
            if not tables
            else t(interaction, "league.started_pending", name=league_name(league.name)),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @league.command(name="standings", description=text("cmd.league.standings"))
    @app_commands.describe(name=text("cmd.league.name"), public=text("cmd.public"))
    async def standings(self, interaction: Interaction, name: NAME, public: bool = False) -> None:
        """The league's standings as a picture, for me (default) or for the channel."""
        league = await self.leagues.get(interaction.guild_id or 0, name)
        await interaction.response.defer(ephemeral=not public)
        found = await self.leagues.standings(league)
        locale = await self._reply_language(interaction, public)
        say = self._say(locale)

        png = await asyncio.to_thread(standings_png, say, found, locale)
        caption = say(
            "league.standings",
            name=league_name(league.name),
            done=found.rounds_done,
            rounds=league.rounds,
        )
        await send(interaction, caption, png=png, png_name="standings.png", ephemeral=not public)

    def _say(self, locale: str | None) -> Callable[..., str]:
        """``say(key, **params)``: a catalog text in ``locale``."""
        catalog = self.bot.catalog

        def say(key: str, **params: Any) -> str:
            return catalog.text(key, locale, **params)

        return say

    async def _reply_language(self, interaction: Interaction, public: bool) -> str | None:
        """The reader's language for a private reply, the server's for a public one."""
        return await reply_language(self.bot, interaction, public)

    @league.command(name="export", description=text("cmd.league.export"))
    @app_commands.describe(name=text("cmd.league.name"))
    async def export(self, interaction: Interaction, name: NAME) -> None:
        """The league's games and standings as CSV files."""
        league = await self.leagues.get(interaction.guild_id or 0, name)
        await interaction.response.defer(ephemeral=True)
        files = await self.leagues.export(league)
        await interaction.followup.send(
            t(interaction, "league.exported", name=league_name(league.name)),
            files=[discord.File(_bytes(body), filename=f"{f}.csv") for f, body in files.items()],
            ephemeral=True,
        )

    leave.autocomplete("name")(_join_names)
    start.autocomplete("name")(_join_names)
    standings.autocomplete("name")(_join_names)
    export.autocomplete("name")(_join_names)

    # -- /rating and /leaderboard ------------------------------------------------------------------

    @anywhere
    @app_commands.command(name="rating", description=text("cmd.rating"))
    @app_commands.describe(
        user=text("cmd.rating.user"), game=text("cmd.rating.game"), public=text("cmd.public")
    )
    @app_commands.choices(game=game_choices())
    async def rating(
        self,
        interaction: Interaction,
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
        public: bool = False,
    ) -> None:
        """A player's rating in a game on this server, with a chart of its history; in a
        direct message, their ratings on every server."""
        who = user or interaction.user
        await interaction.response.defer(ephemeral=not public)
        locale = await self._reply_language(interaction, public)
        say = self._say(locale)
        if interaction.guild_id is None:
            everywhere = await ratings_everywhere(self.bot, who.id)
            lines = rating_lines(say, everywhere, lambda value: decimal(value, locale))
            head = say("rating.everywhere", user=who.mention)
            shown = card(avatar_section(who, head, "\n".join(lines) or say("rating.none_anywhere")))
            await send_card(interaction, shown, ephemeral=not public)
            return
        guild_id = interaction.guild_id

        await self.ratings.rate_pending()
        if game is None:
            offered = [c.value for c in game_choices()]
            key = await self.ratings.shown_game(guild_id, who.id, offered)
        else:
            key = game.value
        found = await self.ratings.player(guild_id, key, who.id)
        name = games.rules_for(key).display_name
        png = None
        if found.place is not None:
            try:
                png = await asyncio.to_thread(
                    render_rating_chart,
                    found.history,
                    axis=say("rating.chart_axis"),
                    number=lambda value: decimal(value, locale),
                )
            except Exception:  # the card in words still answers (issue 37 item 5)
                log.warning("the rating chart of %s failed; answered without it", who.id)
        shown = rating_card(say, who, name, found, chart=png is not None, locale=locale)
        await send_card(interaction, shown, png=png, ephemeral=not public)

    @app_commands.command(name="leaderboard", description=text("cmd.leaderboard"))
    @app_commands.describe(game=text("cmd.leaderboard.game"), public=text("cmd.public"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: Interaction,
        game: app_commands.Choice[str] | None = None,
        public: bool = False,
    ) -> None:
        """The best ratings in a game on this server (by default its most played game)."""
        guild_id = interaction.guild_id or 0
        await interaction.response.defer(ephemeral=not public)
        await self.ratings.rate_pending()
        if game is None:
            key = await self.ratings.most_played(guild_id, [c.value for c in game_choices()])
        else:
            key = game.value
        lines = await self.ratings.leaderboard(guild_id, key)
        name = games.rules_for(key).display_name
        locale = await self._reply_language(interaction, public)
        say = self._say(locale)

        shown = leaderboard_card(say, name, lines, locale)
        await send_card(interaction, shown, ephemeral=not public)


def _bytes(body: str) -> io.BytesIO:
    return io.BytesIO(body.encode("utf-8"))
