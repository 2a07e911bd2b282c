"""What a lobby message shows (D201), built from its state, and how it is read back.

The lobby is one card: its first text display is the heading (game, host, options), the second
the note (what to do, or why it is closed; a rematch lobby's note starts with its invitation),
then the players, host first, one line each: ``<n>. <name> (<@user id>)`` (sent with no mention
allowed: nobody is pinged); then the option menus and Start / Cancel. The components' custom
ids carry the action and the options (format in ``bot.custom_ids``). Lobby messages posted
before the card are classic (an embed and rows of components: players in the embed's field,
and before that the user ids in the custom ids); they are still read, and ``lobby_embed`` /
``lobby_view`` still build one (the rematch lobby's first post, whose ping needs a classic
message: D200).

The buttons and menus are the click handlers' (``bot.views.lobby``), which build these cards:
they are handed in bound to the bot (``LobbyItems``), so this module never imports them.
Everything shown is in the game's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import discord
from discord import ui

from bot.cards import buttons_of, card, rows, texts
from bot.context import Himiko
from bot.internals import Interaction
from bot.lobby_state import (
    BANK_PRESETS,
    COMPUTER_LEVELS,
    DEADLINE_HOURS,
    FREE_SEATS,
    LANGUAGE_NAMES,
    PLAYERS_FROM,
    LobbyState,
    bank_value,
    card_texts,
    parse_custom_id,
    shown_components,
)
from bot.present import public_locale
from bot.service import LANGUAGES

# a player's line in the embed; lines posted before the ids were listed have no mention
_LINE = re.compile(r"^\d+\. (?P<name>.*?)(?: \(<@(?P<id>\d+)>\))?$")
_ESCAPED = re.compile(r"\\(.)")
#: The computers menu's take-over and coach choices (D105; the take-over menu's before it)
TAKEOVER_CHOICES = {"takeover_on": True, "takeover_off": False}
COACH_CHOICES = {"coach_on": True, "coach_off": False}
#: The start of a rematch lobby's invitation, the first line of its card's note
INVITATION = "🔁 "
#: A lobby menu: the select of a bound ``bot.views.lobby.LobbySelect``
Menu = ui.DynamicItem[ui.Select[ui.View]]


@dataclass(frozen=True)
class LobbyItems:
    """The lobby's buttons and menus bound to one bot, as its cards are built with them
    (``bot.views.lobby.lobby_items``): ``button(action, state, label, style)``,
    ``select(action, state)`` and ``seat(user id, label, host)``."""

    bot: Himiko
    button: Callable[[str, LobbyState, str, discord.ButtonStyle], ui.Item[Any]]
    select: Callable[[str, LobbyState], Menu]
    seat: Callable[[int, str, bool], ui.Item[Any]]


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


def lobby_in(message: discord.Message, bot_id: int | None) -> LobbyState | None:
    """The lobby as the bot last posted it (its components and embed); None if it is closed.

    A click's own custom id is never trusted for the state: a tampered client can send any.
    """
    if bot_id is None or message.author.id != bot_id:
        return None
    for component in shown_components(message.components):
        if not isinstance(component, discord.Button | discord.SelectMenu):
            continue
        found = parse_custom_id(component.custom_id or "")
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


def invitation_in(message: discord.Message | None) -> str | None:
    """A rematch lobby's invitation as its message shows it: the first line of a card's note
    when marked ``INVITATION`` (without the mark), or a classic lobby's content (only rematch
    lobbies had one); None for any other lobby."""
    if message is None:
        return None
    shown = card_texts(message)
    if not shown:
        return message.content or None
    first = shown[1].split("\n", 1)[0] if len(shown) > 1 else ""
    return first.removeprefix(INVITATION) if first.startswith(INVITATION) else None


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


def option_lines(say: Callable[..., str], state: LobbyState) -> list[str]:
    """The lobby's options in words, one line each (``say(key, **params)``)."""
    answer = say("lobby.yes" if state.computers else "lobby.no")
    deadline = clock_label(say, state)
    options = say("lobby.option_text", seats=state.seats, computers=answer, deadline=deadline)
    takeover = say(f"lobby.takeover_{'on' if state.takeover else 'off'}")
    level = say("lobby.level_text", level=say(f"lobby.level.{state.level}"))
    coach = say(f"lobby.coach_{'on' if state.coach else 'off'}")
    # the computers' level only where computers play (humans only: it said "normal" for nobody)
    # the most a turn's deadline may move: once per turn, on request (issue 39 item 4)
    more = [say("lobby.more_time_text")] if state.bank is None and state.deadline else []
    lines = [options, *([level] if state.computers else []), takeover, *more, coach]
    if state.directions:
        direction = say(f"lobby.direction.{state.direction}")
        lines.append(say("lobby.direction_text", direction=direction))
    return lines


def lobby_heading(say: Callable[..., str], state: LobbyState) -> str:
    """The lobby card's heading (its first text): the game, the host, the options."""
    title = say("lobby.title", game=state.game_name)
    host = say("lobby.host_line", host=f"<@{state.host}>")
    return "\n".join([f"## {title}", host, *(f"-# {line}" for line in option_lines(say, state))])


def players_title(say: Callable[..., str], state: LobbyState) -> str:
    """The title above the seats: how many joined, of how many seats."""
    return "**👥 " + say("lobby.players", count=len(state.players), seats=state.seats) + "**"


def invited(note: str, invitation: str | None) -> str:
    """A note of an open lobby, under its rematch invitation if it has one (kept on every card
    until the lobby closes: ``invitation_in`` reads it back)."""
    return note if not invitation else f"{INVITATION}{invitation}\n{note}"


def lobby_card(
    items: LobbyItems, interaction: Interaction, state: LobbyState, invitation: str | None = None
) -> ui.LayoutView:
    """The open lobby as one card, in the lobby's language: heading, note (under the rematch
    ``invitation``, if any), a section per seat (Leave beside a player, Join beside the free
    seats), the option menus, Start and Cancel."""
    say = lobby_say(items.bot, interaction, state)
    note = invited(say("lobby.card_description"), invitation)
    parts: list[ui.Item[Any]] = [
        *texts(lobby_heading(say, state), note),
        ui.Separator(),
        ui.TextDisplay(players_title(say, state)),
        *(seat_section(items, state, i, say) for i in range(len(state.players))),
    ]
    if not state.full:
        join = items.button("join", state, say("lobby.join"), discord.ButtonStyle.primary)
        free = say("lobby.free_seats", count=state.seats - len(state.players))
        if state.computers:
            free += "\n" + say("lobby.free_seats_computers")
        parts.append(ui.Section(ui.TextDisplay(FREE_SEATS + free), accessory=join))
    parts.append(ui.Separator())
    parts += [ui.ActionRow(menu) for menu in option_menus(items, interaction, state)]
    parts.append(
        ui.ActionRow(
            items.button("start", state, say("lobby.start"), discord.ButtonStyle.success),
            items.button("cancel", state, say("lobby.cancel"), discord.ButtonStyle.danger),
        )
    )
    return card(*parts)


def seat_section(
    items: LobbyItems, state: LobbyState, index: int, say: Callable[..., str]
) -> ui.Section[Any]:
    """A joined player's seat: the line, and beside it Leave (the host's seat: a badge)."""
    user, host = state.players[index], index == 0
    label = say("lobby.host") if host else say("lobby.leave")
    accessory = items.seat(user, label, host)
    return ui.Section(ui.TextDisplay(player_line(state, index)), accessory=accessory)


def option_menus(items: LobbyItems, interaction: Interaction, state: LobbyState) -> list[Menu]:
    """The host's menus, each option its own: seats, direction, computers, take-over, coach,
    deadline or time bank, language."""
    say = lobby_say(items.bot, interaction, state)
    seats = items.select("seats", state)
    seats.item.placeholder = say("lobby.seats_placeholder", seats=state.seats)
    for n in range(max(state.min_seats, len(state.players)), state.max_seats + 1):
        seats.item.add_option(
            label=say("lobby.seats_option", seats=n), value=str(n), default=n == state.seats
        )
    menus = [seats]
    if state.directions:
        way = items.select("direction", state)
        for direction in state.directions:
            label = say("lobby.direction_text", direction=say(f"lobby.direction.{direction}"))
            way.item.add_option(
                label=label, value=direction, emoji="🧭", default=direction == state.direction
            )
        menus.append(way)
    computers = items.select("computers", state)
    for level in COMPUTER_LEVELS:
        computers.item.add_option(
            label=say("lobby.computers_level", level=say(f"lobby.level.{level}")),
            value=level,
            default=state.computers and level == state.level,
        )
    computers.item.add_option(
        label=say("lobby.computers_off"), value="0", default=not state.computers
    )
    takeover = items.select("takeover", state)
    for value, on in TAKEOVER_CHOICES.items():
        label = say(f"lobby.{value}")
        takeover.item.add_option(label=label, value=value, default=on == state.takeover)
    coach = items.select("coach", state)
    for value, on in COACH_CHOICES.items():
        coach.item.add_option(label=say(f"lobby.{value}"), value=value, default=on == state.coach)
    menus += [
        computers,
        takeover,
        coach,
        deadline_menu(items, state, say),
        language_menu(items, state, say),
    ]
    return menus


def deadline_menu(items: LobbyItems, state: LobbyState, say: Callable[..., str]) -> Menu:
    """The turn deadlines and the time banks (issue 21 item 13, and the lobby's own when typed
    in ``/new``)."""
    deadline = items.select("deadline", state)
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


def language_menu(items: LobbyItems, state: LobbyState, say: Callable[..., str]) -> Menu:
    """The game's language, each named in its own words (issue 21 item 10)."""
    menu = items.select("lang", state)
    shown = LANGUAGE_NAMES.get(state.language or "", "")
    menu.item.placeholder = "🌐 " + say("lobby.language_placeholder", language=shown)
    for language in LANGUAGES:
        menu.item.add_option(
            label="🌐 " + LANGUAGE_NAMES[language],
            value=language,
            default=language == state.language,
        )
    return menu


def fewer_note(bot: Himiko, interaction: Interaction, state: LobbyState) -> str:
    """The question when Start leaves seats empty, with how the game changes at that count."""
    say = lobby_say(bot, interaction, state)
    joined = len(state.players)
    if joined < state.min_seats:
        return say("lobby.fewer_fill_only", players=joined, least=state.min_seats)
    change = say(f"lobby.fewer.{state.game}.{joined}")
    return say("lobby.fewer_confirm", seats=state.seats, players=joined, change=change)


def fewer_card(
    items: LobbyItems, interaction: Interaction, state: LobbyState, invitation: str | None = None
) -> ui.LayoutView:
    """Start left seats empty: the question (under the rematch ``invitation``, if any), with
    Start with fewer, Fill with computers, Back."""
    question = invited(fewer_note(items.bot, interaction, state), invitation)
    buttons = fewer_view(items, interaction, state)
    return closed_card(items.bot, interaction, state, question, buttons)


def fewer_view(items: LobbyItems, interaction: Interaction, state: LobbyState) -> ui.View:
    """Start with the players who joined, fill the empty seats with computers, or go back."""
    say = lobby_say(items.bot, interaction, state)
    view, press = ui.View(timeout=None), items.button
    if len(state.players) >= state.min_seats:
        label = say("lobby.few", players=len(state.players))
        view.add_item(press("few", state, label, discord.ButtonStyle.success))
    fill = say("lobby.fill", computers=state.empty_seats)
    view.add_item(press("fill", state, fill, discord.ButtonStyle.primary))
    view.add_item(press("back", state, say("lobby.back"), discord.ButtonStyle.secondary))
    return view


def closed_card(
    bot: Himiko,
    interaction: Interaction,
    state: LobbyState,
    note: str,
    buttons: ui.View | None = None,
    *,
    seated: bool = False,
) -> ui.LayoutView:
    """The lobby without its menus: heading, ``note``, the players; ``buttons`` below, if any.
    ``seated``: its game started, so the players are its seats, the computers' too, named as
    the game names them (the winner of a game with computers is among them)."""
    say = lobby_say(bot, interaction, state)
    players = (
        seat_lines(say, state) if seated else players_title(say, state) + "\n" + player_lines(state)
    )
    return card(*texts(lobby_heading(say, state), note, players), *rows(buttons_of(buttons)))


def seat_lines(say: Callable[..., str], state: LobbyState) -> str:
    """A started game's seats under the players' title: the humans' lines, then each computer
    by the name its seat has in the game ("Computer 1 (normal)")."""
    level = say(f"lobby.level.{state.level}")
    table = state.table(lambda n: say("lobby.computer_name_level", number=n, level=level))
    lines = [
        player_line(state, i)
        if user is not None
        else f"{i + 1}. {discord.utils.escape_markdown(name)}"
        for i, (user, name) in enumerate(table)
    ]
    title = "**👥 " + say("lobby.players", count=len(table), seats=state.seats) + "**"
    return "\n".join([title, *lines])


def lobby_embed(
    bot: Himiko, interaction: Interaction, state: LobbyState, note: str | None = None
) -> discord.Embed:
    """A classic lobby's embed: host, players (parsed back on clicks), options."""
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


def lobby_view(items: LobbyItems, interaction: Interaction, state: LobbyState) -> ui.View:
    """A classic lobby's components (five rows, D105), in the lobby's language."""
    say = lobby_say(items.bot, interaction, state)
    view = ui.View(timeout=None)
    seats = items.select("seats", state)
    seats.item.placeholder = say("lobby.seats_placeholder", seats=state.seats)
    for n in range(max(state.min_seats, len(state.players)), state.max_seats + 1):
        seats.item.add_option(
            label=say("lobby.seats_option", seats=n), value=str(n), default=n == state.seats
        )
    add_directions(seats, state, say)
    view.add_item(seats)
    view.add_item(computers_menu(items, state, say))
    press, plain = items.button, discord.ButtonStyle.secondary
    view.add_item(press("join", state, say("lobby.join"), discord.ButtonStyle.primary))
    view.add_item(press("leave", state, say("lobby.leave"), plain))
    view.add_item(press("start", state, say("lobby.start"), discord.ButtonStyle.success))
    view.add_item(press("cancel", state, say("lobby.cancel"), discord.ButtonStyle.danger))
    # after the buttons: menus without a row fill the next free one
    view.add_item(deadline_menu(items, state, say))
    view.add_item(language_menu(items, state, say))
    return view


def add_directions(seats: Menu, state: LobbyState, say: Callable[..., str]) -> None:
    """The directions of travel, in the seats menu: a message has at most five rows."""
    for direction in state.directions:
        seats.item.add_option(
            label=say("lobby.direction_text", direction=say(f"lobby.direction.{direction}")),
            value=direction,
            emoji="🧭",
            description=say("lobby.direction_chosen") if direction == state.direction else None,
        )


def computers_menu(items: LobbyItems, state: LobbyState, say: Callable[..., str]) -> Menu:
    """Humans only, or computer players of one level in the empty seats."""
    computers = items.select("computers", state)
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
