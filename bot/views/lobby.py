"""The lobby message: options, Join / Leave / Start / Cancel; its state lives in custom ids.

Custom ids: ``himiko:lobby:<action>:<game>:<seats>:<computers 0|1>:<players>`` where action is
join, leave, start, cancel (buttons) or seats, computers (selects) and players are the joined
user ids in base 36, host first, joined by dots (see ``bot.lobby_state``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal, Self, cast

import discord
from discord import ui

from bot.lobby_state import BUTTON_TEMPLATE, MAX_SEATS, MIN_SEATS, SELECT_TEMPLATE, LobbyState
from bot.locks import KeyedLocks
from bot.names import short_name
from bot.present import guarded, himiko, public_locale, t
from bot.service import ServiceError
from bot.views.base import button

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
_LINE = re.compile(r"^\d+\. (?P<name>.*)$")
_ESCAPED = re.compile(r"\\(.)")
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: slow games


class LobbyBook(KeyedLocks):
    """In-process cache and locks so quick clicks on one lobby apply one after the other.

    A closed lobby (cancelled or started) is forgotten once no click holds or awaits it: its
    message has no components left, which is how a later click is told it is closed.
    """

    def __init__(self) -> None:
        super().__init__()
        self.states: dict[int, LobbyState] = {}

    def released(self, key: int) -> None:
        """Forget a closed lobby's state."""
        state = self.states.get(key)
        if state is not None and state.closed:
            del self.states[key]


def names_from(message: discord.Message | None) -> tuple[str, ...]:
    """The players' names listed in a lobby message's embed."""
    if message is None or not message.embeds:
        return ()
    for embed_field in message.embeds[0].fields:
        if embed_field.name and embed_field.name.startswith("👥"):
            names = []
            for line in (embed_field.value or "").splitlines():
                found = _LINE.match(line.strip())
                if found:
                    names.append(_ESCAPED.sub(r"\1", found["name"]))
            return tuple(names)
    return ()


def lobby_embed(
    interaction: Interaction, state: LobbyState, note: str | None = None
) -> discord.Embed:
    """The lobby's embed: host, players (parsed back on clicks), options."""
    locale = public_locale(interaction)
    cat = himiko(interaction).catalog
    embed = discord.Embed(
        title=cat.text("lobby.title", locale),
        description=note or cat.text("lobby.description", locale),
    )
    embed.add_field(name=cat.text("lobby.host", locale), value=f"<@{state.host}>", inline=True)
    players = "\n".join(
        f"{i + 1}. {discord.utils.escape_markdown(state.name_of(i))}"
        for i in range(len(state.players))
    )
    title = "👥 " + cat.text("lobby.players", locale, count=len(state.players), seats=state.seats)
    embed.add_field(name=title, value=players or cat.text("lobby.nobody", locale), inline=True)
    answer = cat.text("lobby.yes" if state.computers else "lobby.no", locale)
    embed.add_field(
        name=cat.text("lobby.options", locale),
        value=cat.text("lobby.option_text", locale, seats=state.seats, computers=answer),
        inline=False,
    )
    return embed


class LobbyItem:
    """A lobby's button or menu: its action and the lobby state rebuilt from a click."""

    def __init__(self, action: str, state: LobbyState, item: ui.Item[Any], row: int) -> None:
        self.action, self.state = action, state
        cast(Any, super()).__init__(item, row=row)  # the DynamicItem

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click: the state from the custom id, names from the embed."""
        state = LobbyState.parse(match.groupdict(), names_from(interaction.message))
        make = cast("Callable[[str, LobbyState], Self]", cls)  # subclasses: (action, state, ...)
        return make(match["action"], state)


class LobbyButton(LobbyItem, ui.DynamicItem[ui.Button[ui.View]], template=BUTTON_TEMPLATE):
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
        await guarded(interaction, lambda: on_lobby(interaction, self.action, self.state, None))


class LobbySelect(LobbyItem, ui.DynamicItem[ui.Select[ui.View]], template=SELECT_TEMPLATE):
    """The host's option menus: seats, computer players."""

    def __init__(self, action: str, state: LobbyState) -> None:
        select: ui.Select[ui.View] = ui.Select(custom_id=state.custom_id(action))
        super().__init__(action, state, select, 0 if action == "seats" else 1)

    async def callback(self, interaction: Interaction) -> None:
        """Apply the chosen option."""
        value = self.item.values[0] if self.item.values else None
        await guarded(interaction, lambda: on_lobby(interaction, self.action, self.state, value))


def lobby_view(interaction: Interaction, state: LobbyState) -> ui.View:
    """The lobby's components for one state."""
    view = ui.View(timeout=None)
    seats = LobbySelect("seats", state)
    seats.item.placeholder = t(interaction, "lobby.seats_placeholder", seats=state.seats)
    for n in range(max(MIN_SEATS, len(state.players)), MAX_SEATS + 1):
        seats.item.add_option(
            label=t(interaction, "lobby.seats_option", seats=n),
            value=str(n),
            default=n == state.seats,
        )
    view.add_item(seats)
    computers = LobbySelect("computers", state)
    on, off = t(interaction, "lobby.computers_on"), t(interaction, "lobby.computers_off")
    computers.item.placeholder = t(
        interaction, "lobby.computers_placeholder", state=on if state.computers else off
    )
    computers.item.add_option(label=on, value="1", default=state.computers)
    computers.item.add_option(label=off, value="0", default=not state.computers)
    view.add_item(computers)
    view.add_item(
        LobbyButton("join", state, t(interaction, "lobby.join"), discord.ButtonStyle.primary)
    )
    view.add_item(LobbyButton("leave", state, t(interaction, "lobby.leave")))
    view.add_item(
        LobbyButton("start", state, t(interaction, "lobby.start"), discord.ButtonStyle.success)
    )
    view.add_item(
        LobbyButton("cancel", state, t(interaction, "lobby.cancel"), discord.ButtonStyle.danger)
    )
    return view


async def on_lobby(
    interaction: Interaction, action: str, clicked: LobbyState, value: str | None
) -> None:
    """One click on a lobby, applied under the lobby's lock to its latest state."""
    message = interaction.message
    if message is None:
        raise ServiceError("error.lobby_closed")
    book = himiko(interaction).lobbies
    if book.lock(message.id).locked():  # another click (e.g. Start) is busy: answer in 3 s
        await interaction.response.defer()
    async with book.hold(message.id):
        state = book.states.get(message.id, clicked)
        if state.closed or not message.components:  # closed and forgotten: no buttons left
            raise ServiceError("error.lobby_closed")
        new = await _apply(interaction, action, state, value)
        if new is not None:
            book.states[message.id] = new


async def _apply(
    interaction: Interaction, action: str, state: LobbyState, value: str | None
) -> LobbyState | None:
    user = interaction.user
    host_only = action in ("start", "cancel", "seats", "computers")
    if host_only and user.id != state.host:
        raise ServiceError("error.not_host", host=state.name_of(0))
    if action == "join":
        if user.id in state.players:
            raise ServiceError("lobby.already_joined")
        if state.full:
            raise ServiceError("lobby.full", seats=state.seats)
        state = state.join(user.id, short_name(user.display_name))
    elif action == "leave":
        if user.id not in state.players:
            raise ServiceError("lobby.not_joined")
        if user.id == state.host:
            raise ServiceError("lobby.host_cannot_leave")
        state = state.leave(user.id)
    elif action == "seats" and value is not None:
        state = state.with_seats(int(value))
    elif action == "computers" and value is not None:
        state = state.with_computers(value == "1")
    elif action == "cancel":
        closed = LobbyState(
            state.game, state.seats, state.computers, state.players, state.names, closed=True
        )
        note = t(interaction, "lobby.cancelled")
        await _update(interaction, embed=lobby_embed(interaction, state, note), view=None)
        return closed
    elif action == "start":
        return await _start(interaction, state)
    await _update(
        interaction, embed=lobby_embed(interaction, state), view=lobby_view(interaction, state)
    )
    return state


async def _update(interaction: Interaction, **changes: Any) -> None:
    """Edit the lobby message: in the click's answer, or after it if the click was deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)


async def _start(interaction: Interaction, state: LobbyState) -> LobbyState:
    """Create (or find) the game's thread and game, post the opening board, close the lobby.

    Safe to click again after a partial failure: an existing thread and game are reused and only
    what is missing is done. The lobby is closed in the cache first and reopened on failure.
    """
    if not state.can_start():
        raise ServiceError("lobby.need_players")
    message = interaction.message
    assert message is not None
    bot = himiko(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer()
    closed = replace(state, closed=True)
    bot.lobbies.states[message.id] = closed
    try:
        thread, game_id = await _open_game(interaction, message, state)
    except BaseException:
        bot.lobbies.states.pop(message.id, None)  # the host can click Start again
        raise
    note = bot.catalog.text("lobby.started", public_locale(interaction), thread=thread.mention)
    await interaction.edit_original_response(embed=lobby_embed(interaction, state, note), view=None)
    if game_id is not None:
        bot.runner.kick(game_id)
    return closed


async def _open_game(
    interaction: Interaction, message: discord.Message, state: LobbyState
) -> tuple[Any, int | None]:
    """The thread and its game with the opening posted; the game id if computers may be due."""
    bot = himiko(interaction)
    locale = public_locale(interaction)
    table = state.table(lambda n: bot.catalog.text("lobby.computer_name", locale, number=n))
    name = bot.catalog.text("lobby.thread_name", locale, players=", ".join(n for _, n in table))
    thread = await _thread_of(message, name[:100])
    try:
        existing = await bot.service.active_game_id(thread.id)
        if existing is not None:  # a retry: post the opening if it is still owed
            await bot.outbox.flush(existing)
            return thread, existing
        created = await bot.service.create_game(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            thread_id=thread.id,
            players=table,
            game_key=state.game,
        )
        await bot.outbox.opening(created, thread)
    except ServiceError:
        raise
    except Exception:
        log.warning("lobby %s: the game could not be started completely", message.id, exc_info=True)
        raise ServiceError("lobby.start_failed") from None
    return thread, created.game_id if created.computers_next else None


async def _thread_of(message: discord.Message, name: str) -> Any:
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


LOBBY_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (LobbyButton, LobbySelect)
