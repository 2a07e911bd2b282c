"""``/league create|join|leave|start|standings|export``, ``/rating`` and ``/leaderboard``.

Each round's tables are opened here: a message in the league's channel names the table, a
thread starts from it, and the table's game starts in the thread through the game service and
the outbox, as a lobby's does. Every step is recorded before the next (message, then game), so
``advance`` after a crash finishes what is missing and never opens a table twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.lobby import game_choices
from bot.context import Himiko
from bot.door import settle
from bot.league_picture import standings_png
from bot.locks import KeyedLocks
from bot.loops import Every
from bot.names import league_name, short_name
from bot.present import (
    member_of,
    picture,
    public_locale,
    send,
    server_language,
    t,
    users,
)
from bot.service import ServiceError
from bot.service.league_results import LeagueStandings, TableToOpen
from bot.service.leagues import PAIRINGS, LeagueService, is_organiser
from bot.service.ratings import RatingService
from bot.store import League
from bot.translator import text
from engine import games
from render.league import render_rating_chart

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
ARCHIVE_MINUTES = 10080
NAME = app_commands.Range[str, 1, 64]


def nonce(*parts: object) -> str:
    """A message nonce that is the same on every retry of one league post."""
    key = ":".join(str(p) for p in ("himiko-league", *parts))
    return hashlib.sha256(key.encode()).hexdigest()[:25]


async def reply_language(bot: Himiko, interaction: Interaction, public: bool) -> str | None:
    """The reader's language for a private reply, the server's for a public one (D84)."""
    if not public:
        return str(interaction.locale)
    return await server_language(bot, interaction.guild_id, public_locale(interaction))


class LeagueCog(commands.Cog):
    """League and rating commands, and moving league seasons on."""

    league = app_commands.Group(name="league", description=text("cmd.league"), guild_only=True)

    def __init__(self, bot: Himiko, leagues: LeagueService, ratings: RatingService) -> None:
        self.bot = bot
        self.ratings = ratings
        self.leagues = leagues
        self._locks = KeyedLocks()
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop = Every(
            self.catch_up,
            lambda: self.bot.sweep_interval,
            name="himiko-leagues",
            first=self.bot.client.wait_until_ready,
        )

    async def cog_load(self) -> None:
        """Catch up on ratings and league rounds now and then (after a restart, lost calls)."""
        self._loop.start()

    async def cog_unload(self) -> None:
        """Stop the catch-up loop and wait for running league work."""
        await self._loop.stop()
        for task in list(self._tasks):
            task.cancel()

    async def catch_up(self) -> None:
        """Rate finished games not rated yet and move every running league on (never raises)."""
        try:
            await self.ratings.rate_pending()
            shards = self.bot.served_shards
            for league in await self.leagues.running():
                if shards is None or shards.owns(league.guild_id):  # others: their shard's process
                    await self.advance(league.id)
        except Exception:
            log.warning("leagues: catch-up failed; tried again later", exc_info=True)

    async def game_over(self, game_id: int) -> None:
        """A game ended: rate it, and move its league on (a game-over listener of the rooms)."""
        await self.ratings.rate_pending()
        league_id = await self.leagues.league_of_game(game_id)
        if league_id is not None:
            task = asyncio.create_task(self.advance(league_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def advance(self, league_id: int) -> None:
        """Seat the next round when the current one ended, post standings, open tables."""
        async with self._locks.hold(league_id):
            try:
                progress = await self.leagues.progress(league_id)
            except ServiceError:
                return
            league = progress.league
            standings = await self.leagues.standings(league)
            if standings.rounds_done > league.posted_round:
                await self._post_standings(league, standings)
            if league.status == "running":
                for table in await self.leagues.tables_to_open(league):
                    await self._open_table(table)

    async def _channel(self, league: League) -> Any:
        channel = self.bot.client.get_channel(league.channel_id)
        return channel or await self.bot.client.fetch_channel(league.channel_id)

    async def _language(self, league: League, channel: Any) -> str | None:
        """The language of the league's posts: the server's (its default, else its locale)."""
        guild = getattr(channel, "guild", None)
        preferred = None if guild is None else guild.preferred_locale
        return await server_language(self.bot, league.guild_id, preferred)

    async def _post_standings(self, league: League, standings: LeagueStandings) -> None:
        channel = await self._channel(league)
        guild = getattr(channel, "guild", None)
        locale = await server_language(
            self.bot, guild and guild.id, guild and guild.preferred_locale
        )

        def say(key: str, **params: Any) -> str:
            return self.bot.catalog.text(key, locale, **params)

        png = await asyncio.to_thread(standings_png, say, standings, locale)
        done = standings.rounds_done
        key = "league.season_over_post" if league.status == "finished" else "league.round_over"
        await channel.send(
            say(key, name=league_name(league.name), round=done),
            file=picture(png, "standings.png"),
            nonce=nonce(league.id, "round", done),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.leagues.mark_posted(league, done)

    async def _open_table(self, table: TableToOpen) -> None:
        """Post the table's message, start its thread and game, post the opening board."""
        league, seated = table.league, table.table
        channel = await self._channel(league)
        guild = channel.guild
        locale = await server_language(
            self.bot, guild and guild.id, guild and guild.preferred_locale
        )
        mentions = " ".join(f"<@{p.user_id}>" for p in table.players)
        say = self.bot.catalog.text
        params = {"round": seated.round, "table": seated.table_no}
        if seated.message_id is None:
            message = await channel.send(
                say(
                    "league.table_post",
                    locale,
                    players=mentions,
                    name=league_name(league.name),
                    **params,
                ),
                nonce=nonce(league.id, seated.round, seated.table_no),
                allowed_mentions=users([p.user_id for p in table.players]),
            )
            await self.leagues.table_message(table, message.id)
        else:
            message = channel.get_partial_message(seated.message_id)
        thread_name = say("league.thread_name", locale, name=league.name, **params)[:100]
        try:
            # started by an earlier try
            thread: Any = await self.bot.client.fetch_channel(message.id)
        except discord.NotFound:
            thread = await message.create_thread(
                name=thread_name, auto_archive_duration=ARCHIVE_MINUTES
            )
        created = await self.leagues.open_table(table, thread.id, locale)
        if created is not None:
            game_id: int | None = created.game_id
        else:  # opened by an earlier try: its opening may still be owed
            game_id = await self.bot.rooms.reading.active_game_id(thread.id)
        if game_id:
            await settle(self.bot, game_id, computers=True, known=created, thread=thread)

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
        if left.withdrawn:
            await self.advance(left.league.id)

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
        await self.advance(progress.league.id)
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

    @app_commands.command(name="rating", description=text("cmd.rating"))
    @app_commands.describe(
        user=text("cmd.rating.user"), game=text("cmd.rating.game"), public=text("cmd.public")
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def rating(
        self,
        interaction: Interaction,
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
        public: bool = False,
    ) -> None:
        """A player's rating in a game on this server, with a chart of its history."""
        who = user or interaction.user
        guild_id = interaction.guild_id or 0
        await interaction.response.defer(ephemeral=not public)
        locale = await self._reply_language(interaction, public)
        say = self._say(locale)

        await self.ratings.rate_pending()
        if game is None:
            played = await self.ratings.rated_games_of(guild_id, who.id)
            key = played[0] if played else next(iter(c.value for c in game_choices()))
        else:
            key = game.value
        found = await self.ratings.player(guild_id, key, who.id)
        name = games.rules_for(key).display_name
        if found.place is None:
            await send(
                interaction,
                say("rating.unrated", user=who.mention, game=name),
                ephemeral=not public,
            )
            return
        title = say("rating.chart_title", user=who.display_name, game=name)
        png = await asyncio.to_thread(render_rating_chart, title, found.history)
        await send(
            interaction,
            say(
                "rating.line",
                user=who.mention,
                game=name,
                rating=f"{found.rating:.1f}",
                games=found.games,
                place=found.place,
            ),
            png=png,
            ephemeral=not public,
        )

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

        if not lines:
            await send(interaction, say("rating.board_empty", game=name), ephemeral=not public)
            return
        body = "\n".join(
            say(
                "rating.board_line",
                place=b.place,
                user=f"<@{b.user_id}>",
                rating=f"{b.rating:.1f}",
                games=b.games,
            )
            for b in lines
        )
        await send(
            interaction, say("rating.board_title", game=name) + "\n" + body, ephemeral=not public
        )


def _bytes(body: str) -> io.BytesIO:
    return io.BytesIO(body.encode("utf-8"))
