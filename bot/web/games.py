"""What a game's web page shows of it beyond the generic page: its presentation's ``web``.

A game's presentation (``bot.games``) declares its ``WebExtras``: the prefixes of its picture
texts that are card texts and that name a player's fields, its players' fields in words, and a
player's running score as the spectator's view has it. A game without them (or a key no
presentation has) gets the generic page: nothing here names a game (tests/test_seam.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games import PRESENTATIONS
from bot.games.base import Score, WebExtras

#: What a game without extras gets.
GENERIC = WebExtras()


def extras(game_key: str) -> WebExtras:
    """The game's web page extras (the generic page's for a game the bot does not present)."""
    shown = PRESENTATIONS.get(game_key)
    return shown.web if shown is not None else GENERIC


def shown_score(game_key: str, player: Mapping[str, Any], language: str) -> Score:
    """A player's running score as the spectator's view of that player has it (never the
    engine's standing, which counts what a spectator may not see): the game's own ``score``,
    else the view's ``score`` (a number, or a mapping with its ``total``)."""
    own = extras(game_key).score
    if own is not None:
        found = own(player, language)
        if found is not None:
            return (str(found[0]), None if found[1] is None else str(found[1]))
    score = player.get("score", 0)
    if isinstance(score, Mapping):
        score = score.get("total", 0)
    return (str(score), None)
