"""The lobby message: one card (D201) of seats, option menus, Start / Cancel; its state lives
in the message.

The components' custom ids carry the action and the options (format in ``bot.custom_ids``); the
card's texts list the joined players, host first, one line each: ``<n>. <name> (<@user id>)``
(sent with no mention allowed: nobody is pinged). The card's first text display is its heading
(game, host, options), the second its note (what to do, or why it is closed); the players follow.
Lobby messages posted before the card are classic (an embed and rows of components: players in
the embed's field, and before that the user ids in the custom ids); their buttons still work and
their first click turns the message into the card.

Everything the lobby message shows is in the game's language; refusals to a clicker are in the
clicker's own locale.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, Literal, Self, cast

import discord
from discord import ui

from bot.cards import buttons_of, card, rows, texts
from bot.context import Himiko
from bot.custom_ids import LOBBY_BUTTON, LOBBY_PLAYER, LOBBY_SELECT
from bot.internals import Interaction
from bot.lobby_state import (
    BANK_PRESETS,
    COMPUTER_LEVELS,
    DEADLINE_HOURS,
    FREE_SEATS,
    LANGUAGE_NAMES,
    PLAYERS_FROM,
    RANDOM_DIRECTION,
    LobbyState,
    bank_value,
    card_texts,
    parse_bank,
    parse_custom_id,
    shown_components,
)
from bot.names import short_name
from bot.present import NO_MENTIONS, guarded, public_locale, send
from bot.service import LANGUAGES, Created, ServiceError
from bot.thread.door import settle
from bot.views.base import PersistentItem, button

log = logging.getLogger(__name__)
# a player's line in the embed; lines posted before the ids were listed have no mention
_LINE = re.compile(r"^\d+\. (?P<name>.*?)(?: \(<@(?P<id>\d+)>\))?$")
_ESCAPED = re.compile(r"\\(.)")
_MENU_NUMBER = re.compile("[0-9]{1,4}")  # the values of the seats and deadline menus
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: slow games
HOST_ONLY = (
    *("start", "cancel", "seats", "computers", "deadline", "takeover", "few", "fill", "back"),
    *("language", "lang", "direction", "coach"),
)
#: The computers menu's take-over and coach choices (D105; the take-over menu's before it)
TAKEOVER_CHOICES = {"takeover_on": True, "takeover_off": False}
COACH_CHOICES = {"coach_on": True, "coach_off": False}
STARTS = ("start", "few", "fill")  # the actions that may start the game
# buttons: row 2; the take-over menu (lobbies posted before the language menu) had row 4; the
# card's own menus (direction, coach) have no classic row (a card's rows are its action rows)
_SELECT_ROWS = {
    **{"seats": 0, "computers": 1, "deadline": 3, "takeover": 4, "lang": 4},
    **{"direction": 0, "coach": 1},
}


def players_in(message: discord.Message | None) -> list[tuple[int | None, str]]:
    """The players a lobby message lists: (user id, None if not listed; name); from the card's
    texts after its heading and note, or from a classic lobby's embed."""
    if message is None:
        return []
    if not message.embeds:
        return _players_of("\n".join(card_texts(message)[PLAYERS_FROM:]))
    for embed_field in message.embeds[0].fields:
        if embed_field.name and embed_field.name.startswith("👥"):
            return _players_of(embed_field.value or "")
    return []


def _players_of(listed: str) -> list[tuple[int | None, str]]:
    """The players' lines of a text (``<n>. <name> (<@user id>)``); other lines are skipped."""
    lines = (_LINE.match(line.strip()) for line in listed.splitlines())
    return [
        (None if found["id"] is None else int(found["id"]), _ESCAPED.sub(r"\1", found["name"]))
        for found in lines
        if found
    ]


def player_lines(state: LobbyState) -> str:
    """The players' lines (embed field, closed card): the name and a mention, one per player."""
    return "\n".join(player_line(state, i) for i in range(len(state.players)))


def player_line(state: LobbyState, index: int) -> str:
    """One player's line: ``<n>. <name> (<@user id>)``."""
    name = discord.utils.escape_markdown(state.name_of(index))
    return f"{index + 1}. {name} (<@{state.players[index]}>)"


def deadline_label(say: Callable[..., str], hours: int) -> str:
    """A turn deadline in words ("no deadline", "48 hours", "1 week"); ``say(key, **params)``."""
    if hours == 0:
        return say("lobby.deadline_none")
    if hours == 168:
        return say("lobby.deadline_week")
    return say("lobby.deadline_hours", hours=hours)


def hours_text(say: Callable[..., str], hours: int) -> str:
    """A time bank's hours in short words: "3 d", "3 d 12 h", "12 h"."""
    days, rest = divmod(hours, 24)
    if days and rest:
        return say("bank.days_hours", days=days, hours=rest)
    return say("lobby.bank_days", days=days) if days else say("lobby.bank_hours", hours=rest)


def clock_label(say: Callable[..., str], state: LobbyState) -> str:
    """The lobby's clock in words: its turn deadline, or its time bank and increment."""
    if state.bank is None:
        return deadline_label(say, state.deadline)
    return bank_label(say, *state.bank)


def bank_label(say: Callable[..., str], bank: int, increment: int) -> str:
    """A time bank in words: "Time bank 3 d, +12 h per turn"."""
    return say("lobby.bank_label", bank=hours_text(say, bank), increment=hours_text(say, increment))


def lobby_locale(interaction: Interaction, state: LobbyState) -> str | None:
    """The locale of everything the lobby message shows: the game's language, else (lobbies made
    before the choice) the server's preferred locale."""
    return state.language or public_locale(interaction)


def lobby_say(bot: Himiko, interaction: Interaction, state: LobbyState) -> Callable[..., str]:
    """``say(key, **params)``: a catalog text in the lobby's language."""
    catalog, locale = bot.catalog, lobby_locale(interaction, state)
    return lambda key, **params: catalog.text(key, locale, **params)


def lobby_embed(
    bot: Himiko, interaction: Interaction, state: LobbyState, note: str | None = None
) -> discord.Embed:
    """The lobby's embed: host, players (parsed back on clicks), options."""
    locale = lobby_locale(interaction, state)
    cat = bot.catalog
    embed = discord.Embed(
        title=cat.text("lobby.title", locale, game=state.game_name),
        description=note or cat.text("lobby.description", locale),
    )
    embed.add_field(name=cat.text("lobby.host", locale), value=f"<@{state.host}>", inline=True)
    players = player_lines(state)
    title = "👥 " + cat.text("lobby.players", locale, count=len(state.players), seats=state.seats)
    embed.add_field(name=title, value=players or cat.text("lobby.nobody", locale), inline=True)
    lines = option_lines(lambda key, **p: cat.text(key, locale, **p), state)
    embed.add_field(name=cat.text("lobby.options", locale), value="\n".join(lines), inline=False)
    return embed


def option_lines(say: Callable[..., str], state: LobbyState) -> list[str]:
    """The lobby's options in words, one line each (``say(key, **params)``)."""
    answer = say("lobby.yes" if state.computers else "lobby.no")
    deadline = clock_label(say, state)
    options = say("lobby.option_text", seats=state.seats, computers=answer, deadline=deadline)
    takeover = say(f"lobby.takeover_{'on' if state.takeover else 'off'}")
    level = say("lobby.level_text", level=say(f"lobby.level.{state.level}"))
    coach = say(f"lobby.coach_{'on' if state.coach else 'off'}")
    lines = [options, level, takeover, coach]
    if state.directions:
        direction = say(f"lobby.direction.{state.direction}")
        lines.append(say("lobby.direction_text", direction=direction))
    return lines


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


def lobby_card(bot: Himiko, interaction: Interaction, state: LobbyState) -> ui.LayoutView:
    """The open lobby as one card, in the lobby's language: heading, note, a section per seat
    (Leave beside a player, Join beside the free seats), the option menus, Start and Cancel."""
    say = lobby_say(bot, interaction, state)
    press = bot.bound(LobbyButton)
    parts: list[ui.Item[Any]] = [
        *texts(lobby_heading(say, state), say("lobby.card_description")),
        ui.Separator(),
        ui.TextDisplay(players_title(say, state)),
        *(seat_section(bot, state, i, say) for i in range(len(state.players))),
    ]
    if not state.full:
        join = press("join", state, say("lobby.join"), discord.ButtonStyle.primary)
        free = say("lobby.free_seats", count=state.seats - len(state.players))
        if state.computers:
            free += "\n" + say("lobby.free_seats_computers")
        parts.append(ui.Section(ui.TextDisplay(FREE_SEATS + free), accessory=join))
    parts.append(ui.Separator())
    parts += [ui.ActionRow(menu) for menu in option_menus(bot, interaction, state)]
    parts.append(
        ui.ActionRow(
            press("start", state, say("lobby.start"), discord.ButtonStyle.success),
            press("cancel", state, say("lobby.cancel"), discord.ButtonStyle.danger),
        )
    )
    return card(*parts)


def lobby_heading(say: Callable[..., str], state: LobbyState) -> str:
    """The lobby card's heading (its first text): the game, the host, the options."""
    title = say("lobby.title", game=state.game_name)
    host = f"{say('lobby.host')}: <@{state.host}>"
    return "\n".join([f"## {title}", host, *(f"-# {line}" for line in option_lines(say, state))])


def players_title(say: Callable[..., str], state: LobbyState) -> str:
    """The title above the seats: how many joined, of how many seats."""
    return "**👥 " + say("lobby.players", count=len(state.players), seats=state.seats) + "**"


def seat_section(
    bot: Himiko, state: LobbyState, index: int, say: Callable[..., str]
) -> ui.Section[Any]:
    """A joined player's seat: the line, and beside it Leave (the host's seat: a badge)."""
    user, host = state.players[index], index == 0
    label = say("lobby.host") if host else say("lobby.leave")
    accessory = bot.bound(LobbyPlayerButton)(user, label, host=host)
    return ui.Section(ui.TextDisplay(player_line(state, index)), accessory=accessory)


def option_menus(bot: Himiko, interaction: Interaction, state: LobbyState) -> list[LobbySelect]:
    """The host's menus, each option its own: seats, direction, computers, take-over, coach,
    deadline or time bank, language."""
    say = lobby_say(bot, interaction, state)
    select = bot.bound(LobbySelect)
    seats = select("seats", state)
    seats.item.placeholder = say("lobby.seats_placeholder", seats=state.seats)
    for n in range(max(state.min_seats, len(state.players)), state.max_seats + 1):
        seats.item.add_option(
            label=say("lobby.seats_option", seats=n), value=str(n), default=n == state.seats
        )
    menus = [seats]
    if state.directions:
        way = select("direction", state)
        for direction in state.directions:
            label = say("lobby.direction_text", direction=say(f"lobby.direction.{direction}"))
            way.item.add_option(
                label=label, value=direction, emoji="🧭", default=direction == state.direction
            )
        menus.append(way)
    computers = select("computers", state)
    for level in COMPUTER_LEVELS:
        computers.item.add_option(
            label=say("lobby.computers_level", level=say(f"lobby.level.{level}")),
            value=level,
            default=state.computers and level == state.level,
        )
    computers.item.add_option(
        label=say("lobby.computers_off"), value="0", default=not state.computers
    )
    takeover = select("takeover", state)
    for value, on in TAKEOVER_CHOICES.items():
        label = say(f"lobby.{value}")
        takeover.item.add_option(label=label, value=value, default=on == state.takeover)
    coach = select("coach", state)
    for value, on in COACH_CHOICES.items():
        coach.item.add_option(label=say(f"lobby.{value}"), value=value, default=on == state.coach)
    menus += [
        computers,
        takeover,
        coach,
        deadline_menu(bot, state, say),
        language_menu(bot, state, say),
    ]
    return menus


def fewer_card(bot: Himiko, interaction: Interaction, state: LobbyState) -> ui.LayoutView:
    """Start left seats empty: the question, with Start with fewer, Fill with computers, Back."""
    return closed_card(
        bot,
        interaction,
        state,
        fewer_note(bot, interaction, state),
        fewer_view(bot, interaction, state),
    )


def closed_card(
    bot: Himiko,
    interaction: Interaction,
    state: LobbyState,
    note: str,
    buttons: ui.View | None = None,
) -> ui.LayoutView:
    """The lobby without its menus: heading, ``note``, the players; ``buttons`` below, if any."""
    say = lobby_say(bot, interaction, state)
    players = players_title(say, state) + "\n" + player_lines(state)
    return card(*texts(lobby_heading(say, state), note, players), *rows(buttons_of(buttons)))


def lobby_view(bot: Himiko, interaction: Interaction, state: LobbyState) -> ui.View:
    """The lobby's components for one state, in the lobby's language."""
    say = lobby_say(bot, interaction, state)
    view = ui.View(timeout=None)
    select, press = bot.bound(LobbySelect), bot.bound(LobbyButton)
    seats = select("seats", state)
    seats.item.placeholder = say("lobby.seats_placeholder", seats=state.seats)
    for n in range(max(state.min_seats, len(state.players)), state.max_seats + 1):
        seats.item.add_option(
            label=say("lobby.seats_option", seats=n), value=str(n), default=n == state.seats
        )
    add_directions(seats, state, say)
    view.add_item(seats)
    view.add_item(computers_menu(bot, state, say))
    view.add_item(press("join", state, say("lobby.join"), discord.ButtonStyle.primary))
    view.add_item(press("leave", state, say("lobby.leave")))
    view.add_item(press("start", state, say("lobby.start"), discord.ButtonStyle.success))
    view.add_item(press("cancel", state, say("lobby.cancel"), discord.ButtonStyle.danger))
    # after the buttons: menus without a row fill the next free one
    view.add_item(deadline_menu(bot, state, say))
    view.add_item(language_menu(bot, state, say))
    return view


def deadline_menu(bot: Himiko, state: LobbyState, say: Callable[..., str]) -> LobbySelect:
    """The turn deadlines and the time banks (issue 21 item 13, and the lobby's own when typed
    in ``/new``)."""
    deadline = bot.bound(LobbySelect)("deadline", state)
    deadline.item.placeholder = say("lobby.deadline_placeholder", deadline=clock_label(say, state))
    for hours in DEADLINE_HOURS:
        deadline.item.add_option(
            label=deadline_label(say, hours),
            value=str(hours),
            default=state.bank is None and hours == state.deadline,
        )
    banks = list(BANK_PRESETS) + ([] if state.bank in BANK_PRESETS else [state.bank])
    for bank in (b for b in banks if b is not None):
        deadline.item.add_option(
            label=bank_label(say, *bank), value=bank_value(*bank), default=bank == state.bank
        )
    return deadline


def add_directions(seats: LobbySelect, state: LobbyState, say: Callable[..., str]) -> None:
    """The directions of travel, in the seats menu: a message has at most five rows."""
    for direction in state.directions:
        seats.item.add_option(
            label=say("lobby.direction_text", direction=say(f"lobby.direction.{direction}")),
            value=direction,
            emoji="🧭",
            description=say("lobby.direction_chosen") if direction == state.direction else None,
        )


def language_menu(bot: Himiko, state: LobbyState, say: Callable[..., str]) -> LobbySelect:
    """The game's language, each named in its own words (issue 21 item 10)."""
    menu = bot.bound(LobbySelect)("lang", state)
    shown = LANGUAGE_NAMES.get(state.language or "", "")
    menu.item.placeholder = "🌐 " + say("lobby.language_placeholder", language=shown)
    for language in LANGUAGES:
        menu.item.add_option(
            label="🌐 " + LANGUAGE_NAMES[language],
            value=language,
            default=language == state.language,
        )
    return menu


def computers_menu(bot: Himiko, state: LobbyState, say: Callable[..., str]) -> LobbySelect:
    """Humans only, or computer players of one level in the empty seats."""
    computers = bot.bound(LobbySelect)("computers", state)
    off = say("lobby.computers_off")
    chosen = say("lobby.computers_level", level=say(f"lobby.level.{state.level}"))
    computers.item.placeholder = say(
        "lobby.computers_placeholder", state=chosen if state.computers else off
    )
    for level in COMPUTER_LEVELS:
        computers.item.add_option(
            label=say("lobby.computers_level", level=say(f"lobby.level.{level}")),
            value=level,
            default=state.computers and level == state.level,
        )
    computers.item.add_option(label=off, value="0", default=not state.computers)
    # the take-over and the coach share the menu of the computer's roles (D105: five rows)
    takeover = "takeover_off" if state.takeover else "takeover_on"
    computers.item.add_option(label=say(f"lobby.{takeover}"), value=takeover)
    coach = "coach_off" if state.coach else "coach_on"
    computers.item.add_option(label=say(f"lobby.{coach}"), value=coach)
    return computers


def fewer_note(bot: Himiko, interaction: Interaction, state: LobbyState) -> str:
    """The question when Start leaves seats empty, with how the game changes at that count."""
    say = lobby_say(bot, interaction, state)
    joined = len(state.players)
    if joined < state.min_seats:
        return say("lobby.fewer_fill_only", players=joined, least=state.min_seats)
    change = say(f"lobby.fewer.{state.game}.{joined}")
    return say("lobby.fewer_confirm", seats=state.seats, players=joined, change=change)


def fewer_view(bot: Himiko, interaction: Interaction, state: LobbyState) -> ui.View:
    """Start with the players who joined, fill the empty seats with computers, or go back."""
    say = lobby_say(bot, interaction, state)
    view, press = ui.View(timeout=None), bot.bound(LobbyButton)
    if len(state.players) >= state.min_seats:
        label = say("lobby.few", players=len(state.players))
        view.add_item(press("few", state, label, discord.ButtonStyle.success))
    fill = say("lobby.fill", computers=state.empty_seats)
    view.add_item(press("fill", state, fill, discord.ButtonStyle.primary))
    view.add_item(press("back", state, say("lobby.back")))
    return view


def lobby_in(message: discord.Message, bot_id: int | None) -> LobbyState | None:
    """The lobby as the bot last posted it (its components and embed); None if it is closed.

    A click's own custom id is never trusted for the state: a tampered client can send any.
    """
    if bot_id is None or message.author.id != bot_id:
        return None
    for component in shown_components(message.components):
        found = parse_custom_id(getattr(component, "custom_id", None) or "")
        if found is not None:
            return _with_players(found[1], players_in(message))
    return None


def _with_players(state: LobbyState, listed: list[tuple[int | None, str]]) -> LobbyState | None:
    """The options read from an id with the players listed in the embed (None: unreadable)."""
    names = tuple(name for _, name in listed)
    if state.players:  # an id posted before: the user ids are in it, the names in the embed
        return replace(state, names=names)
    users = tuple(user for user, _ in listed if user is not None)
    if not users or len(users) != len(listed):
        return None
    return replace(state, players=users, names=names)


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
        await _update(interaction, closed_card(bot, interaction, state, note))
        return replace(state, closed=True)
    elif action == "start" and state.empty_seats:  # ask first: fewer players, or computers
        await _update(interaction, fewer_card(bot, interaction, state))
        return state
    elif action == "start":
        return await _start(bot, interaction, state)
    elif action == "few":
        return await _start(bot, interaction, replace(state, seats=len(state.players)))
    elif action == "fill":
        return await _start(bot, interaction, state.with_computers(True))
    await _update(interaction, lobby_card(bot, interaction, state))
    return state


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
            await _close_lobby(bot, interaction, state, started)
            raise
        await _close_lobby(bot, interaction, state, say("lobby.cancelled"))
        if game_id is not None:
            await settle(bot, game_id)  # "the host cancelled this game"
        return replace(state, closed=True)
    await _close_lobby(bot, interaction, state, started)
    raise ServiceError("lobby.already_started", thread=thread)


async def _close_lobby(bot: Himiko, interaction: Interaction, state: LobbyState, note: str) -> None:
    """Show the lobby's closing note without buttons; if that fails, tell the clicker instead.

    The failed edit is owed: the bot's sweep retries it, and a click on the lobby closes it too.
    """
    message = interaction.message
    assert message is not None
    closed = closed_card(bot, interaction, state, note)
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
    await _close_lobby(bot, interaction, state, note)
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
