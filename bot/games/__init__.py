"""What is game-shaped in the bot, one module per game; the one place in ``bot/`` listing them.

A game's presentation turns its engine events into phrases, groups its legal actions for the turn
panel and names its ``/rules`` topics. Its texts are catalog keys that start with the game's key
(``yamatai.summary.build``); the service and the cogs stay the same for every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from bot.games.base import Texts
from bot.games.namiji import NamijiPresentation
from bot.games.yamatai import YamataiPresentation
from engine.contract import Event


class Presentation(Protocol):
    """How the bot shows one game: summaries, panel groups, rule topics."""

    @property
    def key(self) -> str:
        """The game's registry key (and catalog prefix)."""
        ...

    @property
    def rule_topics(self) -> Sequence[str]:
        """``/rules`` topics in reading order (keys ``<game>.rules.<topic>``)."""
        ...

    def describe(
        self, t: Texts, events: Sequence[Event], names: Sequence[str]
    ) -> tuple[list[str], list[str]]:
        """A turn's events as phrases (joined in one sentence) and lines that follow it."""
        ...

    def panel_group(self, action: str) -> str:
        """The turn-panel group of one legal action."""
        ...

    def panel_group_label(self, t: Texts, group: str) -> str:
        """A group's name for the menu."""
        ...

    def panel_actions(self, preview: Callable[[str], list[str]], legal: list[str]) -> list[str]:
        """The panel's choices from the legal actions (may add whole-turn shortcuts).

        ``preview(text)`` gives the actions legal after ``text`` without playing it.
        """
        ...


PRESENTATIONS: dict[str, Presentation] = {
    "yamatai": YamataiPresentation(),
    "namiji": NamijiPresentation(),
}


def register(presentation: Presentation) -> None:
    """Add a game's presentation (the line above lists the shipped games)."""
    PRESENTATIONS[presentation.key] = presentation


def presentation(game: str) -> Presentation:
    """The presentation of a registered game (KeyError if it has none)."""
    return PRESENTATIONS[game]
