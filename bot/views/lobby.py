"""The lobby's clicks (D201): its buttons and menus, persistent ``DynamicItem``s whose custom ids
carry the action and the options, and what a click does to the lobby, under the lobby's lock
and applied to its latest state; the message then shows the new state (its cards are built by
``bot.views.lobby_card``, which reads a lobby back from its message too).

Lobby messages posted before the card are classic; their buttons still work and their first
click turns the message into the card (keeping a rematch lobby's invitation). Refusals to a
clicker are in the clicker's own locale.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, Literal, Self, cast

import discord
from discord import ui

from bot.context import Himiko
from bot.custom_ids import LOBBY_BUTTON, LOBBY_PLAYER, LOBBY_SELECT
from bot.internals import Interaction
from bot.lobby_state import COMPUTER_LEVELS, RANDOM_DIRECTION, LobbyState, parse_bank
from bot.names import short_name
from bot.present import NO_MENTIONS, guarded, send
from bot.service import Created, ServiceError
from bot.thread.door import settle
from bot.views.base import PersistentItem, button
from bot.views.lobby_card import (
    COACH_CHOICES,
    TAKEOVER_CHOICES,
    LobbyItems,
    closed_card,
    fewer_card,
    invitation_in,
    lobby_in,
    lobby_say,
)
from bot.views.lobby_card import lobby_card as card_of
from bot.views.server_table import list_lobby

log = logging.getLogger(__name__)
_MENU_NUMBER = re.compile("[0-9]{1,4}")  # the values of the seats and deadline menus
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: slow games
HOST_ONLY = (
    *("start", "cancel", "seats", "computers", "deadline", "takeover", "few", "fill", "back"),
    *("language", "lang", "direction", "coach"),
)
STARTS = ("start", "few", "fill")  # the actions that may start the game
# buttons: row 2; the take-over menu (lobbies posted before the language menu) had row 4; the
# card's own menus (direction, coach) have no classic row (a card's rows are its action rows)
_SELECT_ROWS = {
    **{"seats": 0, "computers": 1, "deadline": 3, "takeover": 4, "lang": 4},
    **{"direction": 0, "coach": 1},
}


class LobbyItem:
    """A lobby's button or menu: its action and the lobby state rebuilt from a click."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, action: str, state: LobbyState, item: ui.Item[ui.View], row: int) -> None:
        self.action, self.state = action, state
        cast(Any, super()).__init__(item, row=row)  # the DynamicItem

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild the item from a click (the click applies to the lobby's own state, not this)."""
        state = LobbyState.parse(match.groupdict())
        make = cast("Callable[[str, LobbyState], Self]", cls)  # subclasses: (action, state, ...)
        return make(match["action"], state)


class LobbyButton(LobbyItem, ui.DynamicItem[ui.Button[ui.View]], template=LOBBY_BUTTON.template):
    """Join, Leave, Start or Cancel."""

    def __init__(
        self,
        action: str,
        state: LobbyState,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(action, state, button(state.custom_id(action), label or action, style), 2)

    async def callback(self, interaction: Interaction) -> None:
        """Apply the click to the lobby."""
        await guarded(interaction, lambda: on_lobby(self.bot, interaction, self.action, None))


class LobbySelect(LobbyItem, ui.DynamicItem[ui.Select[ui.View]], template=LOBBY_SELECT.template):
    """The host's option menus: seats, computer players."""

    def __init__(self, action: str, state: LobbyState) -> None:
        select: ui.Select[ui.View] = ui.Select(custom_id=state.custom_id(action))
        super().__init__(action, state, select, _SELECT_ROWS[action])

    async def callback(self, interaction: Interaction) -> None:
        """Apply the chosen option."""
        value = self.item.values[0] if self.item.values else None
        await guarded(interaction, lambda: on_lobby(self.bot, interaction, self.action, value))


class LobbyPlayerButton(ui.DynamicItem[ui.Button[ui.View]], template=LOBBY_PLAYER.template):
    """A seat's button on the lobby card: its player leaves with it, the host removes that player
    with it (D201); the host's own seat shows a badge that does nothing."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, user_id: int, label: str = "Leave", *, host: bool = False) -> None:
        self.user_id = user_id
        item = button(LOBBY_PLAYER.format(user=user_id), label)
        item.emoji, item.disabled = ("👑", True) if host else (None, False)
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["user"]))

    async def callback(self, interaction: Interaction) -> None:
        """The player leaves, or the host removes them."""
        seat = str(self.user_id)
        await guarded(interaction, lambda: on_lobby(self.bot, interaction, "player", seat))


def lobby_items(bot: Himiko) -> LobbyItems:
    """The lobby's buttons and menus bound to ``bot``, to build its cards with."""
    seat = bot.bound(LobbyPlayerButton)
    return LobbyItems(
        bot,
        bot.bound(LobbyButton),
        bot.bound(LobbySelect),
        lambda user, label, host: seat(user, label, host=host),
    )


def lobby_card(
    bot: Himiko, interaction: Interaction, state: LobbyState, invitation: str | None = None
) -> ui.LayoutView:
    """The open lobby's card (``bot.views.lobby_card.lobby_card``) with ``bot``'s items."""
    return card_of(lobby_items(bot), interaction, state, invitation)


async def on_lobby(bot: Himiko, interaction: Interaction, action: str, value: str | None) -> None:
    """One click on a lobby, applied under the lobby's lock to its latest state."""
    message = interaction.message
    if message is None:
        raise ServiceError("error.lobby_closed")
    book = bot.lobbies
    if book.lock(message.id).locked():  # another click (e.g. Start) is busy: answer in 3 s
        await interaction.response.defer()
    async with book.hold(message.id):
        state = book.get(message.id) or lobby_in(
            message, bot.client.user.id if bot.client.user else None
        )
        if state is None or state.closed:
            raise ServiceError("error.lobby_closed")
        if action in HOST_ONLY and interaction.user.id != state.host:
            raise ServiceError("error.not_host", host=state.name_of(0))
        # the thread started from the lobby message has the message's id
        if action not in STARTS and await bot.rooms.reading.active_game_id(message.id) is not None:
            new = await _game_exists(bot, interaction, action, state)
        else:
            new = await _apply(bot, interaction, action, state, value)
        book.put(message.id, new)
    if new.closed:  # started: /games lists it no more (an open lobby is listed before its answer)
        await list_lobby(bot, interaction.guild_id, message.channel.id, message.id, new)


def chosen_number(value: str | None) -> int | None:
    """The number chosen in a lobby menu; None for anything else (a tampered client may send
    any value: ``int`` would raise on ``"²"`` and on thousands of digits)."""
    return None if value is None or _MENU_NUMBER.fullmatch(value) is None else int(value)


async def _apply(
    bot: Himiko, interaction: Interaction, action: str, state: LobbyState, value: str | None
) -> LobbyState:
    user = interaction.user
    if action == "join":
        if user.id in state.players:
            raise ServiceError("lobby.already_joined")
        if state.full:
            raise ServiceError("lobby.full", seats=state.seats)
        await bot.rooms.limits.check_room(interaction.guild_id, user.id)
        state = state.join(user.id, short_name(user.display_name))
    elif action == "leave":
        if user.id not in state.players:
            raise ServiceError("lobby.not_joined")
        if user.id == state.host:
            raise ServiceError("lobby.host_cannot_leave")
        state = state.leave(user.id)
    elif action == "seats" and (seats := chosen_number(value)) is not None:
        state = state.with_seats(seats)
    elif action == "player" and value is not None:
        state = _without_player(interaction, state, value)
    elif action in ("seats", "direction") and value is not None:
        state = state.with_direction(value)
    elif action in ("computers", "takeover", "coach") and value in COACH_CHOICES:
        state = state.with_coach(COACH_CHOICES[value])
    elif action in ("computers", "takeover") and value in TAKEOVER_CHOICES:
        state = state.with_takeover(TAKEOVER_CHOICES[value])
    elif action == "computers" and value in COMPUTER_LEVELS:
        state = state.with_level(value)
    elif action == "computers" and value is not None:  # menus posted before the levels: 1 or 0
        state = state.with_computers(value == "1")
    elif action == "deadline" and (hours := chosen_number(value)) is not None:
        state = state.with_deadline(hours)
    elif action == "deadline" and (bank := parse_bank(value)) is not None:
        state = state.with_bank(bank)
    elif action == "takeover" and value is not None:  # menus posted before the language menu
        state = state.with_takeover(value == "1")
    elif action == "lang" and value is not None:
        state = state.with_language(value)
    elif action == "language":  # the button of lobbies posted before the language menu
        state = state.next_language()
    elif action == "cancel":
        note = lobby_say(bot, interaction, state)("lobby.cancelled")
        await _listed(bot, interaction, replace(state, closed=True))
        await _update(interaction, closed_card(bot, interaction, state, note))
        return replace(state, closed=True)
    elif action == "start" and state.empty_seats:  # ask first: fewer players, or computers
        invitation = invitation_in(interaction.message)
        await _update(interaction, fewer_card(lobby_items(bot), interaction, state, invitation))
        return state
    elif action == "start":
        return await _start(bot, interaction, state)
    elif action == "few":
        return await _start(bot, interaction, replace(state, seats=len(state.players)))
    elif action == "fill":
        return await _start(bot, interaction, state.with_computers(True))
    await _listed(bot, interaction, state)
    await _update(
        interaction, lobby_card(bot, interaction, state, invitation_in(interaction.message))
    )
    return state


async def _listed(bot: Himiko, interaction: Interaction, state: LobbyState) -> None:
    """``/games``' listing of the lobby as the click leaves it, before the click's answer: once
    a player sees the answer, nothing of the click is left to write (best effort)."""
    message = interaction.message
    if message is not None:
        await list_lobby(bot, interaction.guild_id, message.channel.id, message.id, state)


def _without_player(interaction: Interaction, state: LobbyState, seat: str) -> LobbyState:
    """A seat's button: its player leaves, or the host removes them; anyone else is refused."""
    user, player = interaction.user.id, int(seat)
    if player not in state.players:
        raise ServiceError("lobby.player_gone")
    if player == state.host:
        raise ServiceError("lobby.host_cannot_leave")
    if user not in (player, state.host):
        raise ServiceError("lobby.not_your_seat", host=state.name_of(0))
    return state.leave(player)


async def _game_exists(
    bot: Himiko, interaction: Interaction, action: str, state: LobbyState
) -> LobbyState:
    """A click on a lobby whose game exists although the lobby was not closed (a lost edit).

    Cancel abandons the game while nobody has played in it; otherwise the lobby is closed as
    started and the click is refused with the thread to go to.
    """
    message = interaction.message
    assert message is not None
    thread = f"<#{message.id}>"
    say = lobby_say(bot, interaction, state)
    started = say("lobby.started", thread=thread)
    if action == "cancel":
        try:
            game_id = await bot.rooms.endings.cancel_unplayed(message.id)
        except ServiceError:
            await _close_lobby(bot, interaction, state, started, seated=True)
            raise
        await _close_lobby(bot, interaction, state, say("lobby.cancelled"))
        if game_id is not None:
            await settle(bot, game_id)  # "the host cancelled this game"
        return replace(state, closed=True)
    await _close_lobby(bot, interaction, state, started, seated=True)
    raise ServiceError("lobby.already_started", thread=thread)


async def _close_lobby(
    bot: Himiko, interaction: Interaction, state: LobbyState, note: str, *, seated: bool = False
) -> None:
    """Show the lobby's closing note without buttons (``seated``: its game started, its seats
    listed); if that fails, tell the clicker instead.

    The failed edit is owed: the bot's sweep retries it, and a click on the lobby closes it too.
    """
    message = interaction.message
    assert message is not None
    closed = closed_card(bot, interaction, state, note, seated=seated)
    try:
        await _update(interaction, closed)
    except Exception:
        log.warning("lobby %s: could not be closed; retried later", message.id, exc_info=True)
        bot.lobbies.unclosed[message.id] = (message.channel.id, closed)
        try:
            await send(interaction, note)
        except discord.HTTPException:
            log.warning("lobby %s: could not tell the clicker either", message.id, exc_info=True)


async def _update(interaction: Interaction, shown: ui.LayoutView) -> None:
    """Show the lobby card: in the click's answer, or after it if the click was deferred. A
    classic lobby (posted before the card) becomes the card: its content and embed are reset,
    as Discord requires to set the layout flag; the card's mentions ping nobody."""
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=None, embed=None, view=shown, allowed_mentions=NO_MENTIONS
        )
    else:
        await interaction.response.edit_message(
            content=None, embed=None, view=shown, allowed_mentions=NO_MENTIONS
        )


async def _start(bot: Himiko, interaction: Interaction, state: LobbyState) -> LobbyState:
    """Create (or find) the game's thread and game, post the opening board, close the lobby.

    Safe to click again when the thread or the game could not be made: an existing thread and
    game are reused. The lobby is closed in the cache first and reopened only if no game exists.
    Once the game exists Start has succeeded: the opening board and the lobby edit are owed and
    retried in the background, and computer seats that play first start at once.
    """
    if not state.can_start():
        raise ServiceError("lobby.need_players")
    message = interaction.message
    assert message is not None
    if not interaction.response.is_done():
        await interaction.response.defer()
    closed = replace(state, closed=True)
    bot.lobbies.put(message.id, closed)
    try:
        options = state.setup_options(bot.rooms.seeds)  # a random direction is drawn here
        thread, game_id, created = await _open_game(bot, interaction, message, state, options)
    except BaseException:
        bot.lobbies.forget(message.id)  # the host can click Start again
        raise
    # a retry posts the opening if it is still owed; the runner then lets a computer go first
    await settle(bot, game_id, computers=True, known=created, thread=thread)
    note = lobby_say(bot, interaction, state)("lobby.started", thread=thread.mention)
    if state.direction == RANDOM_DIRECTION:  # the closed lobby shows the direction drawn
        state = state.with_direction(await _direction_of(bot, game_id, created, options))
    await _close_lobby(bot, interaction, state, note, seated=True)
    return closed


async def _direction_of(
    bot: Himiko, game_id: int, created: Created | None, options: dict[str, str]
) -> str:
    """The direction the game sails: as drawn, or as stored when Start found the game made by
    an earlier click (unknown, still "random", if it cannot be read)."""
    if created is not None:
        return options["direction"]
    try:
        _, match = await bot.rooms.desk.load(game_id=game_id)
    except Exception:
        log.warning("lobby: game %s's direction could not be read", game_id, exc_info=True)
        return RANDOM_DIRECTION
    return str(match.options.get("direction", RANDOM_DIRECTION))


async def _open_game(
    bot: Himiko,
    interaction: Interaction,
    message: discord.Message,
    state: LobbyState,
    options: dict[str, str],
) -> tuple[discord.Thread, int, Created | None]:
    """The thread and its game with these setup ``options``: (thread, game id, the new game or
    None if it existed)."""
    say = lobby_say(bot, interaction, state)
    level = say(f"lobby.level.{state.level}")
    table = state.table(lambda n: say("lobby.computer_name_level", number=n, level=level))
    players = ", ".join(n for _, n in table)
    name = say("lobby.thread_name", game=state.game_name, players=players)
    try:
        thread = await _thread_of(message, name[:100])
        existing = await bot.rooms.reading.active_game_id(thread.id)
        if existing is not None:
            return thread, existing, None
        created = await bot.rooms.playing.create_game(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            thread_id=thread.id,
            players=table,
            game_key=state.game,
            options=options,
            settings=state.settings,
        )
    except ServiceError:
        raise
    except Exception:
        log.warning("lobby %s: the game could not be created", message.id, exc_info=True)
        raise ServiceError("lobby.start_failed") from None
    return thread, created.game_id, created


async def _thread_of(message: discord.Message, name: str) -> discord.Thread:
    """The thread started from the lobby message: the existing one, else a new one."""
    if message.thread is not None:
        return message.thread
    try:
        return await message.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
    except discord.Forbidden:
        raise ServiceError("error.no_thread_permission") from None
    except discord.HTTPException:
        try:  # e.g. created by an earlier click whose answer was lost
            return await message.fetch_thread()
        except discord.HTTPException:
            pass
        raise


LOBBY_ITEMS: tuple[type[PersistentItem], ...] = (LobbyButton, LobbySelect, LobbyPlayerButton)
