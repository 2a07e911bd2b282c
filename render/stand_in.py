"""Stand-in seats (any game): the bot marks a seat a computer plays for an absent human."""

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

__all__ = ["COMPUTER_PLAYED", "STAND_IN_WORDS", "computer_played", "stand_in_words"]


def stand_in_words(player: Mapping[str, Any]) -> str:
    """The seat's stand-in in words ("away · computer plays"), or "" while its human plays."""
    kind = player.get("stand_in")
    if not kind:
        return ""
    return STAND_IN_WORDS.get(str(kind), f"{kind} · computer plays")


def computer_played(view: Mapping[str, Any]) -> bool:
    """Whether the last turn was played by the computer for a human seat."""
    return bool(view.get("computer_played"))
