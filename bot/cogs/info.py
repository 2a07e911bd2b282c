"""Commands for everyone: ``/board``, ``/log``, ``/games``, ``/mygames``, ``/rules``."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands, ui
from discord.app_commands import Choice
from discord.ext import commands

from bot.cards import MAX_CARD_COMPONENTS, card, fit_texts, texts
from bot.catalog import Catalog, default_catalog
from bot.cogs.anywhere import anywhere
from bot.cogs.lobby import game_choices
from bot.context import Himiko
from bot.games import PRESENTATIONS, presentation
from bot.internals import Interaction
from bot.names import display_name
from bot.present import NO_MENTIONS, clip, decimal, send, t, thread_of
from bot.service import (
    BoardResult,
    Ended,
    GameListing,
    HistoryResult,
    Pace,
    PlayerInfo,
    ServiceError,
)
from bot.summary import Summary, reader_name
from bot.translator import text
from bot.views.play import MyGameButton
from bot.views.rules import (
    card_kind,
    overview_text,
    rule_text,
    rule_topics,
    texts_of,
    topic_of,
    topic_title,
    topics_listed,
)
from bot.web.work import spectator_step
from engine import games as registry

LOG_TURNS = 6
#: Games shown on the ``/mygames`` card: a section each (itself, its line and its button: 3
#: components) with the container, the title and the line saying how many more, within 40.
MY_GAMES_SHOWN = (MAX_CARD_COMPONENTS - 3) // 3


def board_caption(interaction: Interaction, board: BoardResult, public: bool = False) -> str:
    """Round and whose turn it is, with the step to play: said to the reader as their own turn
    ("Your turn: choose a fleet tile") when they are to act and read it alone, else in the
    third person, the spectators' words ("Ann is to play: choose a fleet tile"), since the
    player's own words speak to whoever reads them."""
    if board.ended is not None:  # the bot ended it: who resigned and who won, as its end said
        current = ending_words(interaction, board.ended)
    elif board.over or board.current is None or board.step is None:  # no step: it is over
        current = t(interaction, "board.over")
    elif not public and board.current.user_id == interaction.user.id and not board.current.computer:
        current = t(interaction, "board.yours", step=t(interaction, board.step))
    else:
        name = reader_name(default_catalog(), str(interaction.locale), board.current)
        step = t(interaction, spectator_step(board.step))
        current = t(interaction, "board.current", player=display_name(name), step=step)
    key = "board.caption" if board.counts == "round" else f"board.caption_{board.counts}"
    return t(interaction, key, round=board.round, current=current)


def ending_words(interaction: Interaction, ended: Ended) -> str:
    """How the bot ended a game, as its last thread message says it ("**Kenji** resigned:
    **Hana** wins the game"), in the reader's words."""
    catalog, locale = default_catalog(), str(interaction.locale)

    def named(player: PlayerInfo | None) -> str:
        return "" if player is None else display_name(reader_name(catalog, locale, player))

    by = "" if ended.by is None else f"<@{ended.by}>"
    key = f"game.{ended.reason}"
    return t(interaction, key, player=named(ended.player), winner=named(ended.winner), by=by)


def log_text(interaction: Interaction, history: HistoryResult) -> str:
    """The recent turns in words, each with its notation after it, marked as such (what the
    engine hides stays hidden: ``?``), oldest first, within Discord's limit."""
    if not history.turns:
        return t(interaction, "log.empty")
    summary = Summary(default_catalog(), str(interaction.locale), history.game)
    names = [summary.name_of(p) for p in history.players]
    blocks = []
    counts = presentation(history.game).counts
    key = "log.turn" if counts == "round" else f"log.turn_{counts}"
    for turn in history.turns:
        words = summary.actions(turn.events, names)
        if not turn.complete:
            words += " " + t(interaction, "log.in_progress")
        if turn.by_computer:
            words += " " + t(interaction, "log.by_computer")
        player = display_name(names[turn.seat])
        if history.players[turn.seat].stand_in == "resigned":
            player = t(interaction, "log.resigned", player=player)
        blocks.append(
            t(
                interaction,
                key,
                player=player,
                round=turn.round,
                actions="; ".join(turn.actions),
                words=words,
            )
        )
    title = t(interaction, "log.title")
    figures = "" if history.pace is None else pace_text(interaction, history, history.pace)
    figures = "\n".join(f for f in (figures, banks_text(interaction, history)) if f)
    room = 1990 - len(figures)
    while len(blocks) > 1 and len(title) + sum(len(b) + 2 for b in blocks) > room:
        blocks.pop(0)
    return clip("\n\n".join([title, *blocks, *([figures] if figures else [])]))


def duration(interaction: Interaction, seconds: float) -> str:
    """A time to move in words and the reader's numbers (see ``duration_in``)."""
    return duration_in(default_catalog(), str(interaction.locale), seconds)


def duration_in(catalog: Catalog, locale: str | None, seconds: float) -> str:
    """A time to move in words and a language's numbers: "< 1 min", "12 min", "3.5 h" ("3,5 h"
    in French), "2.1 d"."""
    if seconds < 60:
        return catalog.text("pace.under_minute", locale)
    if seconds < 3600:
        return catalog.text("pace.minutes", locale, n=round(seconds / 60))
    if seconds < 2 * 86400:
        return catalog.text("pace.hours", locale, n=decimal(seconds / 3600, locale))
    return catalog.text("pace.days", locale, n=decimal(seconds / 86400, locale))


def pace_text(interaction: Interaction, history: HistoryResult, figures: Pace) -> str:
    """The median time to move of each player and of the game, in one line ("" if none yet)."""
    if figures.game is None:
        return ""

    def name(player: PlayerInfo) -> str:
        return reader_name(default_catalog(), str(interaction.locale), player)

    players = ", ".join(
        t(interaction, "pace.player", player=display_name(name(p)), time=duration(interaction, s))
        for p, s in zip(history.players, figures.seats, strict=False)
        if s is not None
    )
    return t(interaction, "pace.line", players=players, game=duration(interaction, figures.game))


def bank_duration(interaction: Interaction, seconds: int) -> str:
    """A time bank in the reader's words: "2 d 5 h", "5 h 20 min", "0 min"."""
    days, rest = divmod(max(0, seconds), 86400)
    hours, minutes = rest // 3600, rest % 3600 // 60
    if days:
        return t(interaction, "bank.days_hours", days=days, hours=hours)
    if hours:
        return t(interaction, "bank.hours_minutes", hours=hours, minutes=minutes)
    return t(interaction, "bank.minutes", minutes=minutes)


def banks_text(interaction: Interaction, history: HistoryResult) -> str:
    """Each player's time bank in one line ("" for a game without one)."""
    if history.banks is None:
        return ""
    players = ", ".join(
        t(
            interaction,
            "pace.player",
            player=display_name(reader_name(default_catalog(), str(interaction.locale), p)),
            time=bank_duration(interaction, seconds),
        )
        for p, seconds in zip(history.players, history.banks, strict=False)
        if seconds is not None
    )
    return t(interaction, "bank.line", players=players)


def listing_line(interaction: Interaction, game: GameListing, pings: str | None = None) -> str:
    """One game of ``/mygames``: the thread, the game, whose turn, the deadline,
    for a seat the computer plays for the reader, why and the way back, and how the game pings
    the reader when they chose otherwise than the default (``pings``)."""
    if game.my_turn:
        whose = t(interaction, "mygames.your_turn")
    elif game.current_user_id:
        whose = t(interaction, "mygames.waiting", player=f"<@{game.current_user_id}>")
    else:
        whose = t(interaction, "mygames.computer")
    deadline = (
        ""
        if game.deadline is None
        else t(interaction, "mygames.deadline", when=f"<t:{game.deadline}:R>")
    )
    stand_in = "" if game.stand_in is None else t(interaction, f"mygames.stand_in.{game.stand_in}")
    bank = (
        ""
        if game.bank is None
        else t(interaction, "mygames.bank", time=bank_duration(interaction, game.bank))
    )
    chosen = t(interaction, f"mygames.pings.{pings}") if pings else ""
    return t(
        interaction,
        "mygames.line",
        game=registry.rules_for(game.game_key).display_name,
        thread=f"<#{game.thread_id}>",
        whose=whose,
        deadline=deadline + bank + stand_in + chosen,
    )


def mygames_card(
    bot: Himiko,
    interaction: Interaction,
    found: list[GameListing],
    pings: Mapping[int, str] | None = None,
) -> ui.LayoutView:
    """``/mygames`` as a card: the title, a section per game (its line with how it pings the
    reader when not by default, ``pings`` by game, and a button that opens the reader's panel
    of that game), then how many more games there are (or that there is none). Outside a
    server (a direct message) the games are every server's."""
    everywhere = "_everywhere" if interaction.guild_id is None else ""
    if not found:
        return card(*texts(t(interaction, f"mygames.none{everywhere}")))
    shown = found[:MY_GAMES_SHOWN]
    more = len(found) - len(shown)
    title, *lines, rest = fit_texts(
        [
            t(interaction, f"mygames.title{everywhere}"),
            *(listing_line(interaction, game, (pings or {}).get(game.game_id)) for game in shown),
            t(interaction, "games.more", count=more) if more else "",
        ]
    )
    parts: list[ui.Item[Any]] = list(texts(title))
    opener = bot.bound(MyGameButton)
    for game, line in zip(shown, lines, strict=True):
        key = "mygames.open_turn" if game.my_turn else "mygames.open"
        accessory = opener(game.game_id, t(interaction, key), game.my_turn)
        parts.append(ui.Section[Any](line or "…", accessory=accessory))
    return card(*parts, *texts(rest))


class InfoCog(commands.Cog):
    """Reading games and rules."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @app_commands.command(name="board", description=text("cmd.board"))
    @app_commands.describe(public=text("cmd.board.public"))
    @app_commands.guild_only()
    async def board(self, interaction: Interaction, public: bool = False) -> None:
        """The current picture, for me (default) or for the channel."""
        thread = thread_of(interaction)
        await self.bot.rooms.reading.game_id(thread)  # refusals stay private: check first
        await interaction.response.defer(ephemeral=not public, thinking=True)
        try:
            board = await self.bot.rooms.reading.board(
                interaction.user.id, thread_id=thread, public=public
            )
            await send(
                interaction,
                board_caption(interaction, board, public),
                png=board.picture,
                ephemeral=not public,
            )
        except Exception:
            if public:  # take the public "thinking" message back; the error goes privately
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
            raise

    @app_commands.command(name="log", description=text("cmd.log"))
    @app_commands.guild_only()
    async def log(self, interaction: Interaction) -> None:
        """The recent turns."""
        history = await self.bot.rooms.reading.history(
            thread_id=thread_of(interaction), turns=LOG_TURNS, reader=interaction.user.id
        )
        await send(interaction, log_text(interaction, history))

    @anywhere
    @app_commands.command(name="mygames", description=text("cmd.mygames"))
    async def mygames(self, interaction: Interaction) -> None:
        """Every active game I sit in here (in a direct message: on every server): whose turn,
        the deadline, the thread, mine first; beside each, a button that opens my panel of it."""
        found = await self.bot.rooms.reading.my_games(
            interaction.user.id, guild_id=interaction.guild_id
        )
        pings = await self.bot.rooms.pings.of_user(interaction.user.id)
        view = mygames_card(self.bot, interaction, found, pings)
        await interaction.response.send_message(
            view=view, ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    @anywhere
    @app_commands.command(name="rules", description=text("cmd.rules"))
    @app_commands.describe(
        topic=text("cmd.rules.topic"), game=text("cmd.rules.game"), card=text("cmd.rules.card")
    )
    @app_commands.choices(game=game_choices())
    async def rules(
        self,
        interaction: Interaction,
        topic: str | None = None,
        game: app_commands.Choice[str] | None = None,
        card: str | None = None,
    ) -> None:
        """Short rule help: a topic, a card explained, or (neither) the overview and the list of
        topics, for the game chosen, of the thread, or the first one."""
        key = await self._rules_game(interaction, None if game is None else game.value)
        if card is not None:
            await send(interaction, card_text(interaction, key, card))
            return
        if topic is None:  # QA: a bare /rules did not say which topics exist
            await send(interaction, overview_text(interaction, key))
            return
        # the autocomplete's value is the topic's key; a title typed in any language is read too
        chosen = topic_of(key, topic)
        if chosen is None:
            listed = topics_listed(interaction, key)
            raise ServiceError("error.rules_topic", topic=clip(topic, 40), topics=listed)
        await send(interaction, rule_text(interaction, key, chosen))

    @rules.autocomplete("topic")
    async def rules_topic(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        """The topics of the game in question whose title or key contains what was typed."""
        key = await self._rules_game(interaction, _game_option(interaction))
        found = []
        for topic in rule_topics(key):
            title = topic_title(interaction, key, topic)
            if current.lower() in f"{title} {topic}".lower():
                found.append(Choice(name=title[:100], value=topic))
        return found[:25]

    @rules.autocomplete("card")
    async def rules_card(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        """The cards whose code or name (in the user's language) contains what was typed: only
        the chosen game's (the ``game`` option, else the thread's); every game's, the first
        game's first, when none is chosen. A suggestion reads the card's name alone; its value
        is the code, so a typed code ("b01") finds it too."""
        chosen = await self._chosen_game(interaction, _game_option(interaction))
        cards = all_cards(chosen or next(iter(PRESENTATIONS)))
        words = texts_of(interaction)
        typed = current.strip().lower()
        found = []
        for game, _topic, code in cards:
            if chosen is not None and game != chosen:
                continue
            name = presentation(game).card_name(words, code)
            if typed in f"{code} {name}".lower():
                found.append(Choice(name=name[:100], value=code))
        return found[:25]

    async def _rules_game(self, interaction: Interaction, game: str | None) -> str:
        chosen = await self._chosen_game(interaction, game)
        return chosen or next(iter(PRESENTATIONS))

    async def _chosen_game(self, interaction: Interaction, game: str | None) -> str | None:
        """The game ``/rules`` is asked about: the option's, else the thread's, else None."""
        if game in PRESENTATIONS:
            return str(game)
        if interaction.channel is not None:
            key = await self.bot.rooms.reading.game_in_thread(interaction.channel.id)
            if key in PRESENTATIONS:
                return str(key)
        return None


def all_cards(first: str) -> list[tuple[str, str, str]]:
    """Every card ``/rules`` explains as (game, topic, code): the game ``first``'s, then the
    other games'."""
    order = [first, *(g for g in PRESENTATIONS if g != first)]
    return [
        (game, topic, code)
        for game in order
        for topic in rule_topics(game)
        for code in presentation(game).card_codes(topic)
    ]


def card_text(interaction: Interaction, game: str, typed: str) -> str:
    """A card explained (found by code, by name in the user's language or as the pictures
    write it, any case); a ServiceError saying how to find one if none is."""
    words, wanted = texts_of(interaction), typed.strip().lower()
    for found, topic, code in all_cards(game):
        shown = presentation(found)
        name = shown.card_name(words, code)
        if wanted in (code.lower(), name.lower(), shown.card_label(code).lower()):
            kind = card_kind(interaction, found, topic)
            return t(
                interaction, "rules.card", name=name, kind=kind, help=shown.card_help(words, code)
            )
    kinds = {topic for _, topic, _ in all_cards(game)}
    topics = ", ".join(
        f"`/rules topic:{topic_title(interaction, game, k)}`"
        for k in rule_topics(game)
        if k in kinds
    )
    raise ServiceError("error.rules_card", card=clip(typed, 40), topics=topics)


def _game_option(interaction: Interaction) -> str | None:
    """The ``game`` option as typed so far (autocomplete), if any."""
    game = interaction.namespace.game  # discord.py's Namespace: None for an option not given
    return game if isinstance(game, str) else None
