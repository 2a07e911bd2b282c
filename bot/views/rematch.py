"""The final message's Rematch button (issue 21 item 12): a new lobby for the same table.

The lobby is posted in the game's channel with the game, the seats (computer seats and their
level), the options and the language of the finished game; the clicker hosts it and the other
players are pinged to join with one click. The lobby it opened is stored with the game, so a
second click (by anyone, after a restart too) points to it instead of opening another while it
is open; once it is closed (cancelled, started, deleted) the next click opens a new one.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import discord
from discord import ui

from bot.context import Himiko
from bot.custom_ids import REMATCH
from bot.lobby_state import DEADLINE_HOURS, DEFAULT_DEADLINE_HOURS, LobbyState, bank_fits
from bot.locks import KeyedLocks
from bot.names import short_name
from bot.present import NO_MENTIONS, guarded, send, t, users
from bot.service import Game, ServiceError
from bot.service.results import COMPUTER_USER_ID
from bot.views.base import OneGameButton, button
from bot.views.coach import turning_points_view
from bot.views.lobby import lobby_card, lobby_items
from bot.views.lobby_card import lobby_embed, lobby_in, lobby_say, lobby_view
from bot.views.server_table import list_lobby

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
_OPENING = KeyedLocks()  # per game: two quick clicks open one lobby


class RematchButton(OneGameButton, ui.DynamicItem[ui.Button[ui.View]], template=REMATCH.template):
    """Opens (or points to) the rematch lobby of a finished game; for its players only."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, label: str = "Rematch") -> None:
        self.game_id = game_id
        custom_id = REMATCH.format(game=game_id)
        super().__init__(button(custom_id, "🔁 " + label, discord.ButtonStyle.primary))

    async def callback(self, interaction: Interaction) -> None:
        """Open the rematch lobby once; tell the clicker where it is (privately)."""
        await guarded(interaction, lambda: open_rematch(self.bot, interaction, self.game_id))


def final_view(bot: Himiko, game_id: int, locale: str | None, *, coach: bool) -> ui.View:
    """The final message's buttons: the coach's turning points (a coached game), Rematch."""
    view = turning_points_view(bot, game_id, locale) if coach else ui.View(timeout=None)
    view.add_item(bot.bound(RematchButton)(game_id, bot.catalog.text("rematch.button", locale)))
    return view


def rematch_state(game: Game, host: int, name: str) -> LobbyState:
    """The lobby of a game's rematch, hosted by ``host``: the same game, seats, computer seats
    and level, options and language (a deadline the lobby does not offer: its default; a
    direction drawn at random: the one drawn)."""
    hours = (game.turn_deadline or 0) // 3600
    bank = None
    if game.time_bank is not None:
        bank = (game.time_bank // 3600, game.time_increment // 3600)
    lobby = LobbyState(
        game.game_key,
        len(game.seats),
        any(s.user_id == COMPUTER_USER_ID for s in game.seats),
        (host,),
        (name,),
        deadline=hours if hours in DEADLINE_HOURS else DEFAULT_DEADLINE_HOURS,
        takeover=game.computer_takeover,
        language=game.language,
        level=game.computer_level,
        coach=game.coach,
        bank=bank if bank is not None and bank_fits(*bank) else None,
    )
    direction = (game.options or {}).get("direction")
    return lobby.with_direction(direction) if isinstance(direction, str) else lobby


async def open_rematch(bot: Himiko, interaction: Interaction, game_id: int) -> None:
    """Post the rematch lobby in the game's channel unless one is open (then point to it).

    A lobby recorded before that is closed (cancelled, started, deleted) no longer counts: the
    new one takes its place in the record.
    """
    user = interaction.user
    async with _OPENING.hold(game_id):
        game, found = await bot.rooms.endings.rematch_of(user.id, game_id=game_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        key = "rematch.exists"
        if found is None or not await _still_open(bot, *found):
            await bot.rooms.limits.check_room(game.guild_id, user.id)  # its host joins it
            state = rematch_state(game, user.id, short_name(user.display_name))
            posted = await _post_lobby(bot, interaction, game, state)
            await list_lobby(bot, game.guild_id, game.channel_id, posted, state)
            found = await bot.rooms.endings.record_rematch(
                game.id, game.channel_id, posted, replacing=None if found is None else found[1]
            )
            key = "rematch.opened"
    channel, message = found
    link = f"https://discord.com/channels/{game.guild_id}/{channel}/{message}"
    await send(interaction, t(interaction, key, link=link))


async def _still_open(bot: Himiko, channel_id: int, message_id: int) -> bool:
    """Whether a recorded rematch lobby still takes players: its message shows the lobby's
    components (a cancelled or started lobby has none; a deleted one is gone). When Discord
    cannot tell just now it counts as open: pointing to it never posts a second lobby."""
    if message_id in bot.lobbies.unclosed:  # closed; the edit that shows it is owed
        return False
    channel = bot.client.get_partial_messageable(channel_id)
    try:
        message = await channel.fetch_message(message_id)
    except (discord.NotFound, discord.Forbidden):
        return False
    except discord.HTTPException:
        log.warning("rematch lobby %s could not be read; pointed to", message_id, exc_info=True)
        return True
    me = bot.client.user
    return lobby_in(message, None if me is None else me.id) is not None


async def _post_lobby(bot: Himiko, interaction: Interaction, game: Game, state: LobbyState) -> int:
    """The lobby message in the game's channel, inviting the other players; its id.

    A ping inside a card gives an empty push (D200), so the invitation is posted in words with
    the ping, on the classic lobby, then the message is edited at once into the lobby card,
    whose note keeps the invitation; if that edit fails the classic lobby works as lobbies
    posted before cards do (its first click makes it the card, invitation kept). With nobody
    to invite the card is posted at once.
    """
    others = list(
        dict.fromkeys(
            s.user_id for s in game.seats if s.user_id not in (COMPUTER_USER_ID, state.host)
        )
    )
    say = lobby_say(bot, interaction, state)
    invite = say("rematch.invite", players=" ".join(f"<@{u}>" for u in others), count=len(others))
    channel = bot.client.get_partial_messageable(game.channel_id)
    invited = users(others)
    try:
        if not others:
            card = lobby_card(bot, interaction, state)
            return (await channel.send(view=card, allowed_mentions=NO_MENTIONS)).id
        message = await channel.send(
            invite,
            embed=lobby_embed(bot, interaction, state),
            view=lobby_view(lobby_items(bot), interaction, state),
            allowed_mentions=invited,
        )
    except (discord.NotFound, discord.Forbidden):
        raise ServiceError("rematch.gone") from None
    card = lobby_card(bot, interaction, state, invite)
    try:  # an edit notifies nobody: the mentions kept only keep the message highlighted
        await message.edit(content=None, embed=None, view=card, allowed_mentions=invited)
    except discord.HTTPException:
        log.warning("rematch lobby %s: stays classic", message.id, exc_info=True)
    return message.id


REMATCH_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (RematchButton,)
