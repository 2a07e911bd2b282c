"""Lobby state without Discord: who joined, the options, and its encoding in custom ids.

The store has no lobby table, so a lobby lives in its message: the buttons' custom ids carry
the options, the card's texts (an embed on lobbies posted before it) list the players
(``bot.views.lobby_card``). Ids written before carry the
joined user ids too (base 36); those still parse.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import discord
from discord import ui
from discord.components import Component, Container, SectionComponent

from bot.custom_ids import LOBBY
from bot.games import presentation
from bot.locks import KeyedLocks
from bot.store import COMPUTER_LEVELS as COMPUTER_LEVELS  # the lobby's levels, for its views
from bot.store import LANGUAGES, GameSettings
from engine import games

log = logging.getLogger(__name__)

LOBBY_MAX_AGE = 24 * 3600.0  # seconds an untouched open lobby stays cached
IN_MESSAGE = "@"  # the players field of the ids written now: the players are in the message

#: Turn deadlines offered in the lobby, in hours (0: none). Lobby ids made before the option
#: existed have no deadline field and mean the default.
DEADLINE_HOURS = (0, 12, 24, 48, 72, 168)
DEFAULT_DEADLINE_HOURS = 48
#: Time banks offered in the lobby's deadline menu: (bank, increment per turn) in hours.
BANK_PRESETS = ((24, 4), (72, 12), (168, 24))
#: The most a bank (30 days) and an increment (a week) may be, in hours.
MOST_BANK_HOURS, MOST_INCREMENT_HOURS = 720, 168
_BANK = re.compile(r"b([0-9]{1,3})i([0-9]{1,3})")
#: A duration typed for ``/new time_bank:`` or ``increment:``: days (d, j, g) and hours (h).
_DURATION = re.compile(r"(?:([0-9]{1,3}) ?[djg])? ?(?:([0-9]{1,4}) ?h?)?")
#: The computer seats' level when the host chose none (the player they always had).
DEFAULT_LEVEL = "normal"
#: Each language as its speakers name it (the lobby's language menu).
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "it": "Italiano", "pl": "Polski"}
#: The direction of travel drawn when the game starts (ruling N17), beside the game's own.
RANDOM_DIRECTION = "random"
#: The default direction of travel (the first of a game's ``Presentation.directions``).
CLOCKWISE = "clockwise"
#: The lobby card's texts (D201) before its players: the heading, then the note.
PLAYERS_FROM = 2
#: The start of the lobby card's free seats text (beside Join), which lists no player.
FREE_SEATS = "🪑 "


def _own_directions(game: str) -> tuple[str, ...]:
    """A game's directions of travel (none for a game without a presentation, such as Nim)."""
    try:
        return tuple(presentation(game).directions)
    except KeyError:
        return ()


@dataclass(frozen=True)
class LobbyState:
    """A lobby: the game, the number of seats, computer fill, players (host first)."""

    game: str
    seats: int
    computers: bool
    players: tuple[int, ...]
    names: tuple[str, ...] = ()
    closed: bool = False
    deadline: int = DEFAULT_DEADLINE_HOURS  # hours a player has for a turn, 0: no deadline
    takeover: bool = False  # at a turn's deadline the computer takes the seat over (no vote)
    language: str | None = None  # of the game's public texts; None (older lobbies): the server's
    level: str = DEFAULT_LEVEL  # the computer seats' level (``COMPUTER_LEVELS``)
    coach: bool = False  # the players may ask for hints and turning points
    direction: str = CLOCKWISE  # the direction of travel (``directions``)
    bank: tuple[int, int] | None = None  # a time bank instead of the deadline: (bank, increment)

    @property
    def turn_deadline(self) -> int | None:
        """The deadline in seconds for the service (None: no deadline, or a time bank)."""
        return None if self.bank is not None else self.deadline * 3600 or None

    @property
    def time_bank(self) -> tuple[int, int] | None:
        """The time bank and its increment in seconds for the service (None: no bank)."""
        return None if self.bank is None else (self.bank[0] * 3600, self.bank[1] * 3600)

    @property
    def settings(self) -> GameSettings:
        """The settings the game starts with: deadline or bank, language, level, coach."""
        bank, increment = self.time_bank or (None, 0)
        return GameSettings(
            turn_deadline=self.turn_deadline,
            computer_takeover=self.takeover,
            language=self.language,
            computer_level=self.level,
            coach=self.coach,
            time_bank=bank,
            time_increment=increment,
        )

    @property
    def game_name(self) -> str:
        """The game's name as players know it."""
        return games.rules_for(self.game).display_name

    @property
    def min_seats(self) -> int:
        """The fewest seats the game is played with."""
        return games.rules_for(self.game).min_players

    @property
    def max_seats(self) -> int:
        """The most seats the game is played with."""
        return games.rules_for(self.game).max_players

    @property
    def host(self) -> int:
        """The user who opened the lobby."""
        return self.players[0]

    @property
    def full(self) -> bool:
        """Whether every seat is taken by a human."""
        return len(self.players) >= self.seats

    def name_of(self, index: int) -> str:
        """The display name of the index-th player (a placeholder if unknown)."""
        return self.names[index] if index < len(self.names) else f"Player {index + 1}"

    def custom_id(self, action: str) -> str:
        """The custom id of one of the lobby's components (without the players)."""
        return LOBBY.format(
            action=action,
            game=self.game,
            seats=self.seats,
            computers=self.computers,
            players=IN_MESSAGE,
            # left out at the default, so the ids of default lobbies are as before the options
            # (a take-over needs the deadline written before it, or it would read as one)
            deadline=None
            if self.deadline == DEFAULT_DEADLINE_HOURS and not self.takeover
            else self.deadline,
            takeover=1 if self.takeover else None,
            language=self.language,
            level=None if self.level == DEFAULT_LEVEL else self.level,
            coach="coach" if self.coach else None,
            direction=None if self.direction == CLOCKWISE else self.direction,
            bank=None if self.bank is None else bank_value(*self.bank),
        )

    @classmethod
    def parse(cls, groups: dict[str, str]) -> LobbyState:
        """The state from a custom id's fields (``bot.custom_ids.LOBBY``); no players when the
        id leaves them to the message."""
        written = groups["players"]
        players = () if written == IN_MESSAGE else tuple(int(p, 36) for p in written.split("."))
        deadline = groups.get("deadline")
        return cls(
            groups["game"],
            int(groups["seats"]),
            groups["computers"] == "1",
            players,
            deadline=DEFAULT_DEADLINE_HOURS if deadline is None else int(deadline),
            takeover=groups.get("takeover") == "1",
            language=groups.get("language"),
            level=groups.get("level") or DEFAULT_LEVEL,
            coach=groups.get("coach") == "coach",
            direction=groups.get("direction") or CLOCKWISE,
            bank=parse_bank(groups.get("bank")),
        )

    def join(self, user_id: int, name: str) -> LobbyState:
        """The lobby with one more player (callers check ``full`` and membership)."""
        return replace(self, players=(*self.players, user_id), names=(*self._names(), name))

    def leave(self, user_id: int) -> LobbyState:
        """The lobby without that player."""
        kept = [(p, n) for p, n in zip(self.players, self._names(), strict=True) if p != user_id]
        return replace(self, players=tuple(p for p, _ in kept), names=tuple(n for _, n in kept))

    def with_seats(self, seats: int) -> LobbyState:
        """Change the number of seats (never below the players already joined)."""
        low = max(self.min_seats, seats, len(self.players))
        return replace(self, seats=min(self.max_seats, low))

    def with_deadline(self, hours: int) -> LobbyState:
        """Change the turn deadline (one of ``DEADLINE_HOURS``; anything else is ignored); a
        fixed deadline replaces a time bank."""
        return replace(self, deadline=hours, bank=None) if hours in DEADLINE_HOURS else self

    def with_bank(self, bank: tuple[int, int] | None) -> LobbyState:
        """A time bank (hours, increment hours) instead of the deadline; an unfit one (see
        ``bank_fits``) is ignored."""
        return replace(self, bank=bank) if bank is not None and bank_fits(*bank) else self

    def with_takeover(self, on: bool) -> LobbyState:
        """Turn the computer's take-over at the deadline on or off."""
        return replace(self, takeover=on)

    def with_level(self, level: str) -> LobbyState:
        """Fill empty seats with computers of this level (one of ``COMPUTER_LEVELS``; anything
        else is ignored)."""
        return replace(self, computers=True, level=level) if level in COMPUTER_LEVELS else self

    def with_coach(self, on: bool) -> LobbyState:
        """Turn the coach (hints, turning points) on or off."""
        return replace(self, coach=on)

    @property
    def directions(self) -> tuple[str, ...]:
        """The directions of travel the host may choose (none for a game without them)."""
        own = _own_directions(self.game)
        return (*own, RANDOM_DIRECTION) if own else ()

    def with_direction(self, direction: str) -> LobbyState:
        """Change the direction of travel (one of ``directions``; anything else is ignored)."""
        return replace(self, direction=direction) if direction in self.directions else self

    def setup_options(self, draw: Callable[[], int]) -> dict[str, str]:
        """The game's setup options; a random direction is drawn from ``draw``, the games' seed
        source, never from the global random."""
        if not self.directions:
            return {}
        if self.direction == RANDOM_DIRECTION:
            own = _own_directions(self.game)
            return {"direction": own[draw() % len(own)]}
        return {"direction": self.direction}

    def with_language(self, language: str) -> LobbyState:
        """The game's language (one of ``LANGUAGES``; anything else is ignored)."""
        return replace(self, language=language) if language in LANGUAGES else self

    def next_language(self) -> LobbyState:
        """The lobby with the next of ``LANGUAGES`` (after the last, the first again)."""
        at = LANGUAGES.index(self.language) if self.language in LANGUAGES else -1
        return replace(self, language=LANGUAGES[(at + 1) % len(LANGUAGES)])

    @property
    def empty_seats(self) -> int:
        """Seats offered that nobody joined and no computer would fill."""
        return 0 if self.computers else max(0, self.seats - len(self.players))

    def with_computers(self, on: bool) -> LobbyState:
        """Turn filling empty seats with computer players on or off."""
        return replace(self, computers=on)

    def can_start(self) -> bool:
        """At least the game's fewest seats would be played."""
        return len(self.seat_users()) >= self.min_seats

    def seat_users(self) -> list[int | None]:
        """Humans then computers, one entry per seat that would be played."""
        humans: list[int | None] = list(self.players)
        fill = max(0, self.seats - len(humans)) if self.computers else 0
        return humans + [None] * fill

    def table(self, computer_name: Callable[[int], str]) -> list[tuple[int | None, str]]:
        """The seats to create: (user id or None for a computer, name), humans first."""
        seats: list[tuple[int | None, str]] = []
        number = 0
        for index, user in enumerate(self.seat_users()):
            if user is None:
                number += 1
                seats.append((None, computer_name(number)))
            else:
                seats.append((user, self.name_of(index)))
        return seats

    def _names(self) -> tuple[str, ...]:
        return tuple(self.name_of(i) for i in range(len(self.players)))


def bank_value(bank: int, increment: int) -> str:
    """A time bank as the lobby writes it in ids and menu values: ``b<hours>i<hours>``."""
    return f"b{bank}i{increment}"


def bank_fits(bank: int, increment: int) -> bool:
    """Whether a time bank (hours) may be played: 1 h to 30 days, increment at most a week."""
    return 1 <= bank <= MOST_BANK_HOURS and 0 <= increment <= MOST_INCREMENT_HOURS


def parse_bank(value: str | None) -> tuple[int, int] | None:
    """(bank, increment) in hours from ``b<hours>i<hours>``; None for anything else."""
    found = None if value is None else _BANK.fullmatch(value)
    if found is None:
        return None
    bank = int(found[1]), int(found[2])
    return bank if bank_fits(*bank) else None


def parse_hours(text: str) -> int | None:
    """Hours from a typed duration: "72", "12h", "3d", "3d 12h" ("3j", "3g" too); None if it
    is not one."""
    found = _DURATION.fullmatch(text.strip().lower())
    if found is None or not (found[1] or found[2]):
        return None
    return int(found[1] or 0) * 24 + int(found[2] or 0)


def shown_components(components: Sequence[Component]) -> list[Component]:
    """Every component of a message, depth first (containers, rows, sections and accessories)."""
    found: list[Component] = []
    for component in components:
        found.append(component)
        if isinstance(component, discord.ActionRow | Container | SectionComponent):
            found += shown_components(component.children)
        if isinstance(component, SectionComponent):
            found.append(component.accessory)
    return found


def card_texts(message: discord.Message) -> list[str]:
    """The texts of a card's text displays, in order (none for a classic message)."""
    shown = shown_components(message.components)
    return [c.content for c in shown if isinstance(c, discord.TextDisplay)]


def lobby_note_card(message: discord.Message, note: str) -> ui.LayoutView | None:
    """A lobby card (D201) closed with ``note``: its heading and its players as the message shows
    them, ``note`` in place of its note, no button or menu; None for a classic lobby message.

    For the thread side (the game's end), which cannot import the views: edit the lobby message
    with ``view=`` this card.
    """
    shown = card_texts(message)
    if not message.flags.components_v2 or not shown:
        return None
    players = "\n".join(t for t in shown[PLAYERS_FROM:] if not t.startswith(FREE_SEATS))
    view: ui.LayoutView = ui.LayoutView(timeout=None)
    parts = [ui.TextDisplay[ui.LayoutView](t) for t in (shown[0], note, players) if t]
    view.add_item(ui.Container(*parts))
    return view


def parse_custom_id(custom_id: str) -> tuple[str, LobbyState] | None:
    """(action, state) of a lobby custom id, or None if it is not one."""
    fields = LOBBY.parse(custom_id)
    if fields is None or fields["game"] not in games.GAMES:
        return None
    state = LobbyState.parse(fields)
    if not state.min_seats <= state.seats <= state.max_seats or len(state.players) > state.seats:
        return None
    if state.deadline not in DEADLINE_HOURS:
        return None
    if state.direction != CLOCKWISE and state.direction not in state.directions:
        return None  # a direction for a game without one: forged
    if fields.get("bank") is not None and state.bank is None:  # out of bounds
        return None
    return fields["action"], state


class LobbyBook(KeyedLocks):
    """In-process cache and locks so quick clicks on one lobby apply one after the other.

    A closed lobby (cancelled or started) is forgotten once no click holds or awaits it: its
    message has no components left, which is how a later click is told it is closed. An open
    lobby nobody touched for ``max_age`` seconds is forgotten too; a later click rebuilds it from
    its message. ``unclosed`` holds lobby edits that failed (message -> channel, closing card).
    """

    def __init__(
        self, *, max_age: float = LOBBY_MAX_AGE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.states: dict[int, LobbyState] = {}
        self.unclosed: dict[int, tuple[int, ui.LayoutView]] = {}
        self.max_age, self._clock = max_age, clock
        self._touched: dict[int, float] = {}

    def get(self, key: int) -> LobbyState | None:
        """The lobby's latest state, if still cached."""
        self.purge()
        return self.states.get(key)

    def put(self, key: int, state: LobbyState) -> None:
        """Cache the lobby's latest state."""
        self.states[key] = state
        self._touched[key] = self._clock()

    def forget(self, key: int) -> None:
        """Drop the lobby from the cache."""
        self.states.pop(key, None)
        self._touched.pop(key, None)

    def purge(self) -> None:
        """Forget lobbies untouched for ``max_age`` seconds (never closed) that nobody holds."""
        cutoff = self._clock() - self.max_age
        for key in [k for k, at in self._touched.items() if at < cutoff and k not in self.locks]:
            self.forget(key)

    def released(self, key: int) -> None:
        """Forget a closed lobby's state."""
        state = self.states.get(key)
        if state is not None and state.closed:
            self.forget(key)

    async def sweep(self, client: discord.Client) -> None:
        """Forget stale lobbies and retry the lobby edits that failed (never raises)."""
        self.purge()
        for message_id, (channel_id, closed) in list(self.unclosed.items()):
            message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
            try:  # a classic lobby (posted before the card) becomes the card: content reset
                await message.edit(
                    content=None,
                    embed=None,
                    view=closed,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.NotFound:
                pass  # deleted: nothing left to close
            except Exception:
                log.warning("lobby %s: still not closed", message_id, exc_info=True)
                continue
            self.unclosed.pop(message_id, None)
