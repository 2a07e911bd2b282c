"""Custom ids of the persistent buttons and menus: one specification per kind.

A ``CustomId`` names its fields once; the same definition gives the regular expression that
``discord.ui.DynamicItem`` matches a click against (``template``), writes an id (``format``) and
reads one back (``parse``). Every id is at most Discord's 100 characters; ids on old messages
still match and parse, so their buttons keep working.

Lobby ids (``LOBBY``): ``himiko:lobby:<action>:<game>:<seats>:<computers 0|1>:<players>
[:<deadline>][:<takeover>][:<language>]``. ``players`` is ``@`` in ids written now: the joined
players are the mentions in the lobby message's embed (``bot.views.lobby``), which keeps the
longest id (five seats, every option) at 44 characters. Ids written before carry the
joined user ids there instead (base 36, host first, joined by dots; up to 13 characters each,
over 100 characters with five 64-bit ids and every option). ``deadline`` is the turn deadline in
hours (0: none; absent: 48, written whenever take-over is), ``takeover`` 1 when the computer takes
a seat over at its deadline (absent: off), ``language`` the game's (absent: the server's
preferred locale).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

NUMBER = r"\d+"


@dataclass(frozen=True)
class Field:
    """One ``:``-separated part of an id: its name, its pattern, whether it may be left out."""

    name: str
    pattern: str = NUMBER
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

    def format(self, **values: Any) -> str:
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
        """The field values of an id of this kind, or None if it is not one."""
        match = re.fullmatch(self.template, custom_id)
        return None if match is None else match.groupdict()


def spec(prefix: str, *fields: Field | str) -> CustomId:
    """A ``CustomId``; a field given as a bare name is a number."""
    return CustomId(prefix, tuple(Field(f) if isinstance(f, str) else f for f in fields))


OK_NO = Field("ok", "ok|no")
TURN = Field("turn", r"\d+\.\d+", optional=True)  # round.seat, absent on buttons made before it

OPEN_PANEL = spec("himiko:open", "game", TURN, "version")
SEQUENCE = spec("himiko:seq", OK_NO, "game", "version", "user", Field("crc", "[0-9a-f]{8}"))
RESIGN = spec("himiko:resign", OK_NO, "game", "version", "user")
PANEL_CATEGORY = spec("himiko:panel:cat", "game", "version")
PANEL_ACTION = spec("himiko:panel:act", "game", "version", Field("n", r"\d"))
PANEL_PAGE = spec("himiko:panel:page", "game", "version", "page", Field("cat", ".+"))
PANEL_UNDO = spec("himiko:panel:undo", "game", "version")
PANEL_DO = spec("himiko:panel:do", "game", "version", Field("crc", "[0-9a-f]{8}"))
PANEL_REFRESH = spec("himiko:panel:refresh", "game")
# the turn voted on: round.seat.start (bot.service ``Turn``); buttons posted before migration
# 0012 carry round.seat, which names only the turn a game was playing then
DEADLINE_TURN = Field("turn", r"\d+\.\d+(?:\.\d+)?")
DEADLINE_SKIP = spec("himiko:deadline:skip", "game", DEADLINE_TURN)
DEADLINE_AWAY = spec("himiko:deadline:away", "game", DEADLINE_TURN)
ABANDON = spec("himiko:abandon", OK_NO, "game", "version", "user")

# few / fill / back: the host's answer when Start leaves seats empty (start with fewer players,
# fill them with computers, back to the lobby)
# language: the host's button that switches the game's language to the next one
LOBBY_BUTTONS = ("join", "leave", "start", "cancel", "few", "fill", "back", "language")
LOBBY_SELECTS = ("seats", "computers", "deadline", "takeover")
_LOBBY = (
    Field("game", "[a-z0-9_]+"),
    Field("seats", "[1-9][0-9]?"),
    Field("computers", "[01]"),
    # "@": the players are in the lobby message's embed; ids written before: user ids, base 36
    Field("players", r"@|[0-9a-z]+(?:\.[0-9a-z]+)*"),
    Field("deadline", r"\d{1,3}", optional=True),  # turn deadline in hours, 0 none; absent: 48
    # 1: the computer takes a seat over at its deadline; absent (ids made before it): 0
    Field("takeover", "[01]", optional=True),
    # the game's language; absent (ids made before it): the server's preferred locale
    Field("language", "en|fr|it|pl", optional=True),
)
LOBBY = spec("himiko:lobby", Field("action", "|".join(LOBBY_BUTTONS + LOBBY_SELECTS)), *_LOBBY)
LOBBY_BUTTON = spec("himiko:lobby", Field("action", "|".join(LOBBY_BUTTONS)), *_LOBBY)
LOBBY_SELECT = spec("himiko:lobby", Field("action", "|".join(LOBBY_SELECTS)), *_LOBBY)
