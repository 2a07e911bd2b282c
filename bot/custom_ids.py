"""Custom ids of the persistent buttons and menus: one specification per kind.

A ``CustomId`` names its fields once; the same definition gives the regular expression that
``discord.ui.DynamicItem`` matches a click against (``template``), writes an id (``format``) and
reads one back (``parse``). Every id is at most Discord's 100 characters; ids on old messages
still match and parse, so their buttons keep working.

Lobby ids (``LOBBY``): ``himiko:lobby:<action>:<game>:<seats>:<computers 0|1>:<players>
[:<deadline>][:<takeover>][:<language>][:<level>][:<coach>][:<direction>][:<bank>]``.
``players`` is ``@`` in ids written now: the joined players are the mentions the lobby message
lists, in the card's seat sections (D201; ``bot.views.lobby_card``), or in the embed of lobbies
posted before cards; that keeps the longest id (five seats, every option) at 75
characters. Ids written before carry the joined user ids there instead (base 36, host first, joined
by dots; up to 13 characters each, over 100 characters with five 64-bit ids and every option).
``deadline`` is the turn deadline in hours (0: none; absent: 48, written whenever take-over is),
``takeover`` 1 when the computer takes a seat over at its deadline (absent: off), ``language`` the
game's (absent: the server's preferred locale), ``level`` the computer seats' (``easy`` or
``strong``; absent: normal) and ``coach`` when the players may ask for hints (absent: off),
``direction`` the direction of travel (``reversed``, or ``random``: drawn when the game
starts; absent: clockwise) and ``bank`` a time bank instead of the deadline, ``b<bank
hours>i<increment hours>`` (absent: none).

Every number field is bounded (``at_most``): a Discord id (a user) fits in 64 bits, a game id
in the database's signed 64 bits, a version, a round or a page in far less. An id with a
number out of range, or longer than Discord's 100 characters, matches no template and parses
to None: it is refused like any forged id (discord.py answers no click whose id matches no
template), and no out-of-range number reaches the service or the database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_LENGTH = 100  # Discord's limit on a custom id
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
SNOWFLAKE_MAX = (1 << 64) - 1  # Discord's ids are unsigned 64-bit numbers
ROW_ID_MAX = (1 << 63) - 1  # the database's ids (a game's) are signed 64-bit integers
VERSION_MAX = (1 << 31) - 1  # a game's version counts its changes
ROUND_MAX = 999_999  # a turn key's round (a game without rounds counts turns)
SEAT_MAX = 99
PAGE_MAX = 9_999  # a page of a panel group


def _char_class(chars: str) -> str:
    """A regular expression class of these digits, runs of consecutive characters as ranges."""
    runs: list[str] = []
    start = prev = chars[0]
    for char in chars[1:] + "\0":
        if ord(char) == ord(prev) + 1:
            prev = char
            continue
        runs.append(start if start == prev else f"{start}-{prev}")
        start = prev = char
    return chars if len(chars) == 1 else "[" + "".join(runs) + "]"


def at_most(limit: int, base: int = 10) -> str:
    """A pattern of the numbers from 0 to ``limit`` written in ``base`` (lowercase digits),
    with at most as many digits as ``limit`` has."""
    digits = DIGITS[:base]
    top = ""
    rest = limit
    while True:
        rest, digit = divmod(rest, base)
        top = digits[digit] + top
        if not rest:
            break
    any_digit = _char_class(digits)
    choices = [f"{any_digit}{{1,{len(top) - 1}}}"] if len(top) > 1 else []
    for at, char in enumerate(top):
        lower = digits[: digits.index(char)]
        if lower:
            left = len(top) - at - 1
            tail = any_digit + (f"{{{left}}}" if left > 1 else "") if left else ""
            choices.append(f"{top[:at]}{_char_class(lower)}{tail}")
    choices.append(top)
    return "(?:" + "|".join(choices) + ")"


#: the bound of each number field given by a bare name in ``spec``
BOUNDS = {"game": ROW_ID_MAX, "version": VERSION_MAX, "user": SNOWFLAKE_MAX, "page": PAGE_MAX}


@dataclass(frozen=True)
class Field:
    """One ``:``-separated part of an id: its name, its pattern, whether it may be left out."""

    name: str
    pattern: str
    optional: bool = False


@dataclass(frozen=True)
class CustomId:
    """A kind of custom id: a fixed prefix then its fields, ``prefix:field:field...``."""

    prefix: str
    fields: tuple[Field, ...]

    @property
    def template(self) -> str:
        """The regular expression of the whole id, with a named group per field."""
        parts = [re.escape(self.prefix)]
        for field in self.fields:
            group = f"(?P<{field.name}>{field.pattern})"
            parts.append(f"(?::{group})?" if field.optional else f":{group}")
        return "".join(parts)

    def format(self, **values: object) -> str:
        """The id with these field values (an optional field given as None is left out)."""
        parts = [self.prefix]
        for field in self.fields:
            value = values[field.name]
            if value is None and field.optional:
                continue
            text = str(int(value)) if isinstance(value, bool) else str(value)
            if re.fullmatch(field.pattern, text) is None:
                raise ValueError(f"{self.prefix}: {field.name}={text!r} does not fit the id")
            parts.append(text)
        return ":".join(parts)

    def parse(self, custom_id: str) -> dict[str, str] | None:
        """The field values of an id of this kind, or None if it is not one (or out of range)."""
        if len(custom_id) > MAX_LENGTH:
            return None
        match = re.fullmatch(self.template, custom_id)
        return None if match is None else match.groupdict()


def spec(prefix: str, *fields: Field | str) -> CustomId:
    """A ``CustomId``; a field given as a bare name is a number bounded by ``BOUNDS``."""
    unbounded = [f for f in fields if isinstance(f, str) and f not in BOUNDS]
    if unbounded:
        raise ValueError(f"{prefix}: number fields {unbounded} need a bound in BOUNDS")
    return CustomId(
        prefix, tuple(Field(f, at_most(BOUNDS[f])) if isinstance(f, str) else f for f in fields)
    )


OK_NO = Field("ok", "ok|no")
TURN_KEY = rf"{at_most(ROUND_MAX)}\.{at_most(SEAT_MAX)}"  # round.seat
TURN = Field("turn", TURN_KEY, optional=True)  # absent on buttons made before it

OPEN_PANEL = spec("himiko:open", "game", TURN, "version")
SEQUENCE = spec("himiko:seq", OK_NO, "game", "version", "user", Field("crc", "[0-9a-f]{8}"))
RESIGN = spec("himiko:resign", OK_NO, "game", "version", "user")
PANEL_CATEGORY = spec("himiko:panel:cat", "game", "version")
PANEL_ACTION = spec("himiko:panel:act", "game", "version", Field("n", "[0-2]"))  # three menus
PANEL_PAGE = spec("himiko:panel:page", "game", "version", "page", Field("cat", ".+"))
PANEL_UNDO = spec("himiko:panel:undo", "game", "version")
PANEL_DO = spec("himiko:panel:do", "game", "version", Field("crc", "[0-9a-f]{8}"))
PANEL_REFRESH = spec("himiko:panel:refresh", "game")
PANEL_HINT = spec("himiko:panel:hint", "game", "version")  # the coach's hint for this step
# a hint's Play button (issue 38 item 2): the panel focused on the action of this checksum
COACH_PLAY = spec("himiko:coach:play", "game", "version", Field("crc", "[0-9a-f]{8}"))
COACH_POINTS = spec("himiko:coach:points", "game")  # a player's turning points, at the end
# the turn voted on: round.seat.start (bot.service ``TurnId``: start counts the actions played
# before it); buttons posted before migration 0012 carry round.seat, which names only the turn a
# game was playing then
DEADLINE_TURN = Field("turn", rf"{TURN_KEY}(?:\.{at_most(VERSION_MAX)})?")
DEADLINE_SKIP = spec("himiko:deadline:skip", "game", DEADLINE_TURN)
DEADLINE_AWAY = spec("himiko:deadline:away", "game", DEADLINE_TURN)
ABANDON = spec("himiko:abandon", OK_NO, "game", "version", "user")
REMATCH = spec("himiko:rematch", "game")  # a finished game's Rematch button (issue 21 item 12)
RULES = spec("himiko:rules", Field("game", "[a-z0-9_]{1,32}"))  # a card's Rules button (D200)

# few / fill / back: the host's answer when Start leaves seats empty (start with fewer players,
# fill them with computers, back to the lobby)
# language: the host's button that switched the game's language to the next one (lobbies posted
# before the language menu, "lang"; still handled)
LOBBY_BUTTONS = ("join", "leave", "start", "cancel", "few", "fill", "back", "language")
# direction, coach: the lobby card's own menus (D201; on lobbies posted before, the seats menu
# carried the direction and the computers menu the coach)
LOBBY_SELECTS = ("seats", "computers", "deadline", "takeover", "lang", "direction", "coach")
USER_36 = at_most(SNOWFLAKE_MAX, 36)  # a user id in base 36, in lobby ids written before
_LOBBY = (
    Field("game", "[a-z0-9_]+"),
    Field("seats", "[1-9][0-9]?"),
    Field("computers", "[01]"),
    # "@": the players are in the lobby message's embed; ids written before: user ids, base 36
    Field("players", rf"@|{USER_36}(?:\.{USER_36})*"),
    Field("deadline", "[0-9]{1,3}", optional=True),  # turn deadline in hours, 0 none; absent: 48
    # 1: the computer takes a seat over at its deadline; absent (ids made before it): 0
    Field("takeover", "[01]", optional=True),
    # the game's language; absent (ids made before it): the server's preferred locale
    Field("language", "en|fr|it|pl", optional=True),
    # the computer seats' level; absent (the default, and ids made before it): normal
    Field("level", "easy|strong", optional=True),
    # "coach": the players may ask for hints; absent (the default, ids made before it): off
    Field("coach", "coach", optional=True),
    # the direction of travel: reversed, or drawn at start; absent: clockwise (ruling N17)
    Field("direction", "reversed|random", optional=True),
    # a time bank instead of the deadline: b<bank hours>i<increment hours>; absent: none
    Field("bank", "b[0-9]{1,3}i[0-9]{1,3}", optional=True),
)
LOBBY = spec("himiko:lobby", Field("action", "|".join(LOBBY_BUTTONS + LOBBY_SELECTS)), *_LOBBY)
LOBBY_BUTTON = spec("himiko:lobby", Field("action", "|".join(LOBBY_BUTTONS)), *_LOBBY)
LOBBY_SELECT = spec("himiko:lobby", Field("action", "|".join(LOBBY_SELECTS)), *_LOBBY)
# a seat's button on the lobby card (D201): its player leaves, or the host removes that player
LOBBY_PLAYER = spec("himiko:lobby:player", "user")
# a game's button on the /mygames card (D202): opens the clicker's panel of that game as it is now
MY_GAME = spec("himiko:mygame", "game")
