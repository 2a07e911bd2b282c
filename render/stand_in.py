"""Keys the bot adds to a view (any game): stand-in seats a computer plays for an absent human,
and the end of a game that did not end by the rules (abandoned, or a resignation ended it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render.words import say

#: ``players[seat]["stand_in"]`` (set by the bot, never by the engine) the picture names.
STAND_INS = ("away", "vacation", "resigned")
#: ``view["ended"]["reason"]`` (set by the bot on a game's final picture) the picture names.
END_REASONS = ("abandoned", "resigned")

__all__ = [
    "END_REASONS",
    "STAND_INS",
    "computer_played",
    "ended",
    "stand_in_words",
    "without_turn",
]


def stand_in_words(player: Mapping[str, Any]) -> str:
    """The seat's stand-in in words ("away · computer plays"), or "" while its human plays."""
    kind = player.get("stand_in")
    if not kind:
        return ""
    if kind in STAND_INS:
        return say(f"c.stand_in.{kind}")
    return say("c.stand_in.other", kind=kind)


def computer_played(view: Mapping[str, Any]) -> bool:
    """Whether the last turn was played by the computer for a human seat."""
    return bool(view.get("computer_played"))


def ended(view: Mapping[str, Any]) -> str | None:
    """How a game that did not end by the rules ended ("Game abandoned"), else None."""
    info = view.get("ended")
    if not isinstance(info, Mapping) or not info.get("reason"):
        return None
    reason = str(info["reason"])
    return (
        say(f"c.ended.{reason}") if reason in END_REASONS else say("c.ended.other", reason=reason)
    )


def without_turn(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The view with nobody to play when the bot ended the game, else the view itself."""
    if ended(view) is None:
        return view
    return {**view, "current_seat": None, "boat_to_act": None}
