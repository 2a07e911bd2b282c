"""The cards a page names: their names and texts (a game's ``WebExtras`` says how to find them).

The texts are the pictures' own (``render/<game>/locale``), in the game's language, named by a
prefix of their ids or made by the game's ``card_words``; a card is any string of the
spectator's view that names one. The pictures speak to the player ("Your harbor…"); a page
speaks to a spectator, so a card whose text would address the reader has the web's own, in the
third person (``web.card.<card>``, D240). A card is labelled by its name (the game's
``card_name``), never by its code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from bot.games import PRESENTATIONS
from engine.contract import View
from render import words

from .games import extras
from .texts import web_catalog

#: A catalog text in the page's language: ``t(key, **params)``.
Texts = Callable[..., str]


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def card_name(game_key: str, card: str, t: Texts) -> str:
    """A card as a reader names it (the game's ``card_name``: an upgrade's or a sacred rock's
    name, a meal's dish), in ``t``'s language; the card's own string when the game has none."""
    shown = PRESENTATIONS.get(game_key)
    return shown.card_name(t, card) if shown is not None else card


def card_texts(game_key: str, view: View, language: str) -> tuple[tuple[str, str], ...]:
    """(card, text) of every card the view shows, in the order first seen, each text naming its
    card ("Double catch: fishing: resolves…"): the web's own third-person text when it has
    one, else the game's ``card_words``, else the picture text its ``card_texts`` prefix names."""
    web = extras(game_key)
    prefix, made = web.card_texts, web.card_words
    if prefix is None and made is None:
        return ()
    catalog = web_catalog()

    def t(key: str, **params: object) -> str:
        return catalog.text(key, language, **params)

    def named(card: str, text: str) -> str:
        return t("web.card_line", card=card_name(game_key, card, t), text=text)

    found: dict[str, str] = {}
    for card in _strings(view):
        if card in found:
            continue
        text = None
        if made is not None:
            text = made(t, card)  # names the card itself
        elif prefix is not None and words.known(prefix + card):
            text = named(card, words.say(prefix + card, language))
        if text is None:
            continue
        own = f"web.card.{card}"
        found[card] = named(card, t(own)) if catalog.has(own) else text
    return tuple(found.items())


def field_name(game_key: str, field: str, language: str) -> str:
    """A field of a player's view in words: the picture's own name for it when it has one."""
    prefix = extras(game_key).field_texts
    if prefix is not None and words.known(prefix + field):
        return words.say(prefix + field, language)
    return field.replace("_", " ")
