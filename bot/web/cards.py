"""The texts of the cards a page lists (a game's ``WebExtras`` names their prefix).

The texts are the pictures' own (``render/<game>/locale``), in the game's language, named by a
prefix of their ids or made by the game's ``card_words``; a card is any string of the
spectator's view that names one.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.contract import View
from render import words

from .games import extras
from .texts import web_catalog


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
    """(name, text) of every card the view shows, in the order first seen: the game's
    ``card_words`` make each text, else its ``card_texts`` prefix names it."""
    web = extras(game_key)
    prefix, made = web.card_texts, web.card_words
    if prefix is None and made is None:
        return ()

    def t(key: str, **params: object) -> str:
        return web_catalog().text(key, language, **params)

    found: dict[str, str] = {}
    for name in _strings(view):
        if name in found:
            continue
        if made is not None:
            text = made(t, name)
            if text is not None:
                found[name] = text
        elif prefix is not None and words.known(prefix + name):
            found[name] = words.say(prefix + name, language)
    return tuple(found.items())


def field_name(game_key: str, field: str, language: str) -> str:
    """A field of a player's view in words: the picture's own name for it when it has one."""
    prefix = extras(game_key).field_texts
    if prefix is not None and words.known(prefix + field):
        return words.say(prefix + field, language)
    return field.replace("_", " ")
