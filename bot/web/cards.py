"""The texts of the cards a page lists (a game's ``WebExtras`` names their prefix).

The texts are the pictures' own (``render/<game>/locale``), in the game's language; a card is
any string of the spectator's view that names one.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.contract import View
from render import words

from .games import extras


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def card_texts(game_key: str, view: View, language: str) -> tuple[tuple[str, str], ...]:
    """(name, text) of every card the view shows, in the order first seen."""
    prefix = extras(game_key).card_texts
    if prefix is None:
        return ()
    found: dict[str, str] = {}
    for name in _strings(view):
        if name not in found and words.known(prefix + name):
            found[name] = words.say(prefix + name, language)
    return tuple(found.items())


def field_name(game_key: str, field: str, language: str) -> str:
    """A field of a player's view in words: the picture's own name for it when it has one."""
    prefix = extras(game_key).field_texts
    if prefix is not None and words.known(prefix + field):
        return words.say(prefix + field, language)
    return field.replace("_", " ")
