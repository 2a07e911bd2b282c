"""``/games``: the server's table (issue 39 item 2) as a card: its open lobbies, each with a
Join link to the lobby (where its Join button is), and its queue, each game with a Join the
queue button (``himiko:queue:join:<game>``, the game's every player count). Also the listing
of lobbies the card reads: every lobby change keeps it up to date (``list_lobby``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any, ClassVar, Self

import discord
from discord import ui

from bot.cards import card, texts
from bot.context import Himiko
from bot.custom_ids import Field, spec
from bot.games import PRESENTATIONS
from bot.internals import Interaction
from bot.lobby_state import DEFAULT_DEADLINE_HOURS, LANGUAGE_NAMES, LobbyState
from bot.names import display_name, short_name
from bot.present import guarded, send, t
from bot.service import ServiceError
from bot.service.queue import counts
from bot.service.server_table import OpenLobby, QueueEntry, ServerTable
from bot.views.base import button
from bot.views.lobby_card import bank_label, deadline_label
from engine import games

log = logging.getLogger(__name__)

QUEUE_JOIN = spec("himiko:queue:join", Field("game", "[a-z0-9_]{1,32}"))
MOST_LOBBIES = 10  # sections on the card (a card holds at most 40 components)
MOST_WAITING_NAMES = 8  # names per game in the queue's line
MOST_PLAYING = 5  # games being played, listed


async def list_lobby(
    bot: Himiko, guild_id: int | None, channel_id: int | None, message_id: int, state: LobbyState
) -> None:
    """Keep ``/games``' list of open lobbies up to date with a lobby's latest state; best effort:
    a failure is logged, the lobby works without it."""
    if guild_id is None or channel_id is None:
        return
    try:
        table = bot.rooms.server_table
        if state.closed:
            await table.close(message_id)
            return
        bank, increment = state.bank or (None, None)
        await table.keep(
            message_id=message_id,
            guild_id=guild_id,
            channel_id=channel_id,
            game_key=state.game,
            seats=state.seats,
            players=len(state.players),
            computers=state.computers,
            deadline_hours=state.deadline,
            bank_hours=bank,
            increment_hours=increment,
            language=state.language,
        )
    except Exception:
        log.warning("lobby %s: /games could not list it", message_id, exc_info=True)


class QueueJoinButton(ui.DynamicItem[ui.Button[ui.View]], template=QUEUE_JOIN.template):
    """Join this server's queue for a game (every player count the game allows, or the
    ones the player typed for it)."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game: str, label: str = "Join") -> None:
        self.game = game
        super().__init__(button(QUEUE_JOIN.format(game=game), label, discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(match["game"])

    async def callback(self, interaction: Interaction) -> None:
        """Join the queue and answer privately, as ``/queue join`` does; a player who waits
        for the game already keeps the player counts they typed."""

        async def join() -> None:
            waiting = await self.bot.rooms.queue.waiting(interaction.guild_id or 0)
            mine = [
                e for e in waiting if e.user_id == interaction.user.id and e.game_key == self.game
            ]
            kept = counts(mine[0]) if mine else None
            await join_queue(self.bot, interaction, self.game, kept)

        await guarded(interaction, join)


async def join_queue(bot: Himiko, interaction: Interaction, game: str, players: str | None) -> None:
    """Put the user in the server's queue for ``game`` and tell them, privately; the queue
    runner then matches what fits (``/queue join`` and the table's button)."""
    guild_id, channel_id = interaction.guild_id, opening_channel(interaction)
    if guild_id is None or interaction.channel_id is None:
        raise ServiceError("error.guild_only")
    set_channel = await bot.rooms.queue.channel(guild_id)
    if channel_id is None:  # no game could open here: only where the server set one
        if set_channel is None:
            raise ServiceError("queue.no_threads_here")
        channel_id = interaction.channel_id  # told here when the entry expires
    user = interaction.user
    await bot.rooms.limits.check_room(guild_id, user.id)
    joined = await bot.rooms.queue.join(
        guild_id=guild_id,
        user_id=user.id,
        name=short_name(user.display_name),
        game_key=game,
        players=players,
        channel_id=channel_id,
    )
    where = set_channel
    entry = joined.entry
    text = t(
        interaction,
        "queue.joined",
        game=games.rules_for(entry.game_key).display_name,
        players=counts(entry),
        waiting=joined.waiting,
        channel=f"<#{where or channel_id}>"
        if where or channel_id != interaction.channel_id
        else t(interaction, "queue.here"),
        until=f"<t:{entry.expires_at}:f>",
    )
    await send(interaction, text)
    bot.queue.kick(guild_id)


def opening_channel(interaction: Interaction) -> int | None:
    """Where a game from the queue may open for this player: the text channel they joined in,
    or the text channel of the thread they joined in (a thread holds no thread); None where no
    thread can start (a voice channel's chat, a forum's post)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        parent = channel.parent
        known = parent is None or isinstance(parent, discord.TextChannel)
        return channel.parent_id if known else None
    if isinstance(channel, discord.abc.GuildChannel) and not isinstance(
        channel, discord.TextChannel
    ):
        return None
    return interaction.channel_id


def table_card(
    bot: Himiko, interaction: Interaction, table: ServerTable, queue_language: str | None = None
) -> ui.LayoutView:
    """The server's table: its open lobbies (a Join link each), then its queue (a Join the
    queue button per game), with the deadline and language of the games it opens
    (``queue_language``: the server's)."""

    def say(key: str, **params: object) -> str:
        return t(interaction, key, **params)

    parts: list[ui.Item[Any]] = [*texts(say("table.heading"), *playing_lines(say, table))]
    parts += [ui.Separator[Any](), *texts(say("table.lobbies"))]
    if not table.lobbies:
        parts += texts(say("table.no_lobby"))
    guild = interaction.guild_id or 0
    for lobby in table.lobbies[:MOST_LOBBIES]:
        url = f"https://discord.com/channels/{guild}/{lobby.channel_id}/{lobby.message_id}"
        join = ui.Button[Any](label=say("table.join_lobby"), url=url)
        parts.append(ui.Section[Any](lobby_line(say, lobby), accessory=join))
    if len(table.lobbies) > MOST_LOBBIES:
        parts += texts(say("table.more", count=len(table.lobbies) - MOST_LOBBIES))
    parts.append(ui.Separator[Any]())
    clock = deadline_label(say, DEFAULT_DEADLINE_HOURS)  # the games it opens: the lobby's
    language = language_name(say, queue_language or "en")
    parts += texts(
        say("table.queue") + "\n" + say("table.queue_games", clock=clock, language=language)
    )
    for game in offered_games():
        waiting = [e for e in table.queue if e.game_key == game]
        queue_join = bot.bound(QueueJoinButton)(game, say("table.join_queue"))
        parts.append(ui.Section[Any](queue_line(say, game, waiting), accessory=queue_join))
    return card(*parts)


def playing_lines(say: Callable[..., str], table: ServerTable) -> list[str]:
    """The games being played here: how many, and the first few with their threads."""
    playing = table.playing
    if not playing:
        return [say("table.none_playing")]
    lines = [
        "- "
        + say(
            "table.playing_line",
            game=games.rules_for(g.game_key).display_name,
            thread=f"<#{g.thread_id}>",
            player=f"<@{g.current_user_id}>" if g.current_user_id else "—",
        )
        for g in playing[:MOST_PLAYING]
    ]
    more = (
        [say("games.more", count=len(playing) - MOST_PLAYING)]
        if len(playing) > MOST_PLAYING
        else []
    )
    return [say("table.playing", count=len(playing)), "\n".join([*lines, *more])]


def offered_games() -> list[str]:
    """The games one can queue for (those the bot presents), in the registry's order."""
    return [key for key in games.GAMES if key in PRESENTATIONS]


def language_name(say: Callable[..., str], code: str) -> str:
    """A game's language named in the reader's language, as a sentence says it ("polonais"
    to a French reader; the own name, "Polski", is for the lobby's picker); "" if unknown."""
    return say(f"language.name.{code}") if code in LANGUAGE_NAMES else ""


def lobby_line(say: Callable[..., str], lobby: OpenLobby) -> str:
    """One open lobby in words: game, seats free, clock, language, since when."""
    free = max(lobby.seats - lobby.players, 0)
    if lobby.bank_hours is not None:
        clock = bank_label(say, lobby.bank_hours, lobby.increment_hours or 0)
    else:
        clock = deadline_label(say, lobby.deadline_hours)
    language = language_name(say, lobby.language or "")
    return say(
        "table.lobby_line",
        game=games.rules_for(lobby.game_key).display_name,
        seats=say("table.seats_free", count=free, total=lobby.seats),
        clock=clock,
        language=language or "—",
        since=f"<t:{lobby.opened_at}:R>",
    )


def queue_line(say: Callable[..., str], game: str, waiting: list[QueueEntry]) -> str:
    """One game's queue in words: who waits for how many players, since the oldest joined."""
    name = games.rules_for(game).display_name
    if not waiting:
        return say("table.queue_empty", game=name)
    shown = ", ".join(f"{display_name(e.name)} ({counts(e)})" for e in waiting[:MOST_WAITING_NAMES])
    if len(waiting) > MOST_WAITING_NAMES:
        shown += ", …"
    return say(
        "table.queue_line",
        game=name,
        count=len(waiting),
        players=shown,
        since=f"<t:{waiting[0].joined_at}:R>",
    )


SERVER_TABLE_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (QueueJoinButton,)
