"""What the bot adds to a picture (any game), beyond the engine's view: stand-in seats a computer
plays for an absent human, whether the computer played the last turn for a human, the end of
a game that did not end by the rules (abandoned, or a resignation ended it), and each human
seat's time bank.

The bot hands them to ``render.render_board`` / ``render_focus`` in ``render.extras.Extras``, never
as keys of the view. Like the language (``render.words.speaking``), they are set once at each entry
point (``dressed``) and read by the drawing functions below.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from copy import copy
from typing import TypedDict, TypeVar

from render.extras import PLAIN, Extras
from render.words import say

#: Stand-ins (why the computer plays a human's seat) the picture names.
STAND_INS = ("away", "vacation", "resigned")
#: Reasons a game the bot ended (not the rules) the picture names.
END_REASONS = ("abandoned", "cancelled", "resigned")

__all__ = [
    "END_REASONS",
    "STAND_INS",
    "bank_words",
    "computer_played",
    "dressed",
    "ended",
    "rank",
    "seat_words",
    "spectator",
    "stand_in_words",
    "winners",
    "without_turn",
]


_EXTRAS: ContextVar[Extras] = ContextVar("picture_extras", default=PLAIN)


def _extras() -> Extras:
    return _EXTRAS.get()


@contextmanager
def dressed(extras: Extras) -> Iterator[Extras]:
    """Draw the pictures inside the block with the bot's extras."""
    token = _EXTRAS.set(extras)
    try:
        yield extras
    finally:
        _EXTRAS.reset(token)


def stand_in_words(seat: int) -> str:
    """The seat's stand-in in words ("away · computer plays"; once the game is over, with its
    result drawn: "resigned · computer played"), or "" while its human plays."""
    extras = _extras()
    kind = extras.seats.get(seat)
    if not kind:
        return ""
    tense = "played" if extras.ranks else "plays"
    if kind in STAND_INS:
        return say(f"c.stand_in.{tense}.{kind}")
    return say(f"c.stand_in.{tense}.other", kind=kind)


def bank_words(seat: int) -> str:
    """The seat's time bank in words ("bank 2 d 4 h"), or "" without a time bank."""
    seconds = _extras().left.get(seat)
    if seconds is None:
        return ""
    days, rest = divmod(max(0, seconds), 86400)
    hours, minutes = rest // 3600, rest % 3600 // 60
    if days:
        return say("c.bank.days_hours", days=days, hours=hours)
    if hours:
        return say("c.bank.hours_minutes", hours=hours, minutes=minutes)
    return say("c.bank.minutes", minutes=minutes)


def seat_words(seat: int) -> str:
    """What is told under a seat's name: its stand-in, else its time bank, else ""."""
    return stand_in_words(seat) or bank_words(seat)


def computer_played() -> bool:
    """Whether the last turn was played by the computer for a human seat."""
    return _extras().computer_played


def spectator() -> bool:
    """Whether the picture speaks to spectators (the web page): the step in the third person."""
    return _extras().voice == "spectator"


def ended() -> str | None:
    """How a game that did not end by the rules ended ("Game abandoned"), else None."""
    reason = _extras().ended
    if not reason:
        return None
    return (
        say(f"c.ended.{reason}") if reason in END_REASONS else say("c.ended.other", reason=reason)
    )


def winners(rules: Iterable[int]) -> list[int]:
    """The seats a finished game's picture names as its winners: the bot's first-ranked ones
    when it gave its result (a resigned seat ranks last, D286), else the rules' (``rules``)."""
    ranked = dict(_extras().ranks)
    if not ranked:
        return list(rules)
    best = min(ranked.values())
    return sorted(seat for seat, place in ranked.items() if place == best)


def rank(seat: int, rules: int) -> int:
    """A seat's final rank as the picture draws it: the bot's result's, else the rules'."""
    return dict(_extras().ranks).get(seat, rules)


class _Turned(TypedDict):
    current_seat: int | None


_View = TypeVar("_View", bound=_Turned)


def without_turn(view: _View) -> _View:
    """The view with nobody to play when the bot ended the game, else the view itself."""
    if ended() is None:
        return view
    quiet = copy(view)
    quiet["current_seat"] = None
    return quiet
