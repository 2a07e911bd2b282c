"""Keys the bot adds to a view (any game): stand-in seats a computer plays for an absent human,
and the end of a game that did not end by the rules (abandoned, or a resignation ended it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: ``players[seat]["stand_in"]`` (set by the bot, never by the engine) -> what the picture says.
STAND_IN_WORDS: Mapping[str, str] = {
    "away": "away · computer plays",
    "vacation": "on vacation · computer plays",
    "resigned": "resigned · computer plays",
}
COMPUTER_PLAYED = "played by the computer"
"""The last turn's note when ``view["computer_played"]`` is True."""

ENDED_WORDS: Mapping[str, str] = {
    "abandoned": "Game abandoned",
    "resigned": "Game ended by a resignation",
}
"""``view["ended"]["reason"]`` (set by the bot on a game's final picture) -> what the title says."""

__all__ = [
    "COMPUTER_PLAYED",
    "ENDED_WORDS",
    "STAND_IN_WORDS",
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
    return STAND_IN_WORDS.get(str(kind), f"{kind} · computer plays")


def computer_played(view: Mapping[str, Any]) -> bool:
    """Whether the last turn was played by the computer for a human seat."""
    return bool(view.get("computer_played"))


def ended(view: Mapping[str, Any]) -> str | None:
    """How a game that did not end by the rules ended ("Game abandoned"), else None."""
    info = view.get("ended")
    if not isinstance(info, Mapping) or not info.get("reason"):
        return None
    reason = str(info["reason"])
    return ENDED_WORDS.get(reason, f"Game ended: {reason}")


def without_turn(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The view with nobody to play when the bot ended the game, else the view itself."""
    if ended(view) is None:
        return view
    return {**view, "current_seat": None, "boat_to_act": None}
