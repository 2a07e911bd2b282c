"""What is game-shaped in the bot, one package per game; the one place in ``bot/`` listing them.

A game's presentation (``bot.games.base.Presentation``) turns its engine events into phrases,
groups its legal actions for the turn panel and names its ``/rules`` topics. Its texts are catalog
keys that start with the game's key (``yamatai.summary.build``), in its own folder
(``bot/games/<game>/locale/<lang>.json``); the service and the cogs stay the same for every game.
"""

from __future__ import annotations

from bot.games.base import Presentation
from bot.games.namiji import NamijiPresentation
from bot.games.yamatai import YamataiPresentation

__all__ = ["PRESENTATIONS", "Presentation", "presentation", "register"]


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
