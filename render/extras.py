"""What a picture is drawn with beyond the engine's view: one value, handed to every entry point.

The language and theme of the picture, and the bot's extras (see ``render.stand_in``): the seats a
computer plays for their human and why, whether it played the last turn so, why the bot ended
the game, each seat's time bank; for a turn picture, the others' turns since the viewer's last
one. The bot pickles it with the view to send a picture to a worker and hashes those bytes as
the picture's key (D133), so its fields are tuples in a fixed order, never dicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.contract import Event
from render.theme import Theme

__all__ = ["PLAIN", "Extras", "Since", "Voice"]

#: The others' turns since the viewer's last one, oldest first: (seat, that turn's events).
Since = Sequence[tuple[int, Sequence[Event]]]

#: Whom a picture's title speaks to: the players at the table (the step as the player to move
#: does it: "choose a fleet"), or spectators (the web page: "Ann chooses a fleet").
Voice = Literal["player", "spectator"]


@dataclass(frozen=True, kw_only=True)
class Extras:
    """A picture's language (en, fr, it, pl; any other: English) and theme; the bot's extras:
    (seat, why) the computer plays for a human (``stand_ins``), the last turn played so
    (``computer_played``), why the bot ended the game (``ended``; None: under way or ended by
    the rules), (seat, seconds) left in each time bank (``banks``; none: no time bank); for a
    turn picture, the others' turns since the viewer's last one, told and marked instead of
    the last turn (``since``; ``first_turn``: since the game began, the viewer has had none);
    whom the title speaks to (``voice``: "spectator" says the step in the third person); the
    result as the bot stored it, (seat, rank) with 1 the best (``ranks``: a resigned seat ranks
    last whatever its score; drawn instead of the rules' ranking; none: the rules' stands)."""

    language: str = "en"
    theme: str | Theme = "default"
    stand_ins: tuple[tuple[int, str], ...] = ()
    computer_played: bool = False
    ended: str | None = None
    banks: tuple[tuple[int, int], ...] = ()
    since: Since | None = None
    first_turn: bool = False
    voice: Voice = "player"
    ranks: tuple[tuple[int, int], ...] = ()

    @property
    def seats(self) -> dict[int, str]:
        """The stand-ins by seat."""
        return dict(self.stand_ins)

    @property
    def left(self) -> dict[int, int]:
        """The seconds left in each seat's time bank, by seat."""
        return dict(self.banks)


PLAIN = Extras()
"""A picture without extras: English, the default theme, nothing the bot adds."""
