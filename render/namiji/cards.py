"""Namiji's cards in words for the turn picture: a meal's points, an upgrade's effect where it
acts, a sacred rock card's objective (texts in render/locale: ``n.upgrade.*``, ``n.measure.*``)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.namiji.components import components
from render.words import say

__all__ = ["card_line", "card_name", "card_text", "card_words", "is_card"]


def is_card(code: str) -> bool:
    """Whether ``code`` names a pontoon card (meal, upgrade) or a sacred rock card."""
    comp = components()
    return code in comp.meals or code in comp.upgrades or code in comp.rocks


def _condition(measure: str, op: str, n: int) -> str:
    """One objective in words: "orange cells: at least 4", "no crabs" (at most none)."""
    if op == "<=" and n == 0:
        return say(f"n.cards.none.{measure}")
    key = "n.cards.at_least" if op == ">=" else "n.cards.at_most"
    return say(key, what=say(f"n.measure.{measure}"), n=n)


def _conditions(when: Iterable[tuple[str, str, int]]) -> str:
    return say("n.and").join(_condition(measure, op, n) for measure, op, n in when)


def card_words(code: str) -> str:
    """A card's code and what it does, in the picture's language ("U1: fishing: resolve the
    fishing effect twice"); any other code as it is."""
    text = card_text(code)
    return code if text is None else say("n.cards.line", card=code, text=text)


def card_name(code: str) -> str:
    """A card as a player names it, in the picture's language (a meal by its dish, an upgrade or
    a sacred rock card by its name: "sacred rock “Crab catcher”"); any other code as it is."""
    comp = components()
    if code in comp.meals:
        return say("n.name.meal", name=say(f"n.meal.{code}"))
    if code in comp.upgrades:
        return say("n.name.upgrade", name=say(f"n.card.{code}"))
    if code in comp.rocks:
        return say("n.name.rock", name=say(f"n.card.{code}"))
    return code


def card_line(code: str) -> str:
    """A card named and what it does, for a line of its own ("Sacred rock “Crab catcher”: at
    the end, 4 pts if crabs ≥ 3"; a meal: its dish and points); any other code as it is."""
    text = card_text(code)
    if text is None:
        return code
    if code not in components().meals:  # a meal's text already names its dish
        text = say("n.cards.line", card=card_name(code), text=text)
    return text[:1].upper() + text[1:]


def card_text(code: str) -> str | None:
    """What a card does, in the picture's language ("fishing: resolve the fishing effect
    twice"; a meal's dish and points, a rock card's objective); None for another code."""
    comp = components()
    if code in comp.meals:
        points = say("n.board.points", count=comp.meals[code])
        text = say("n.cards.meal", name=say(f"n.meal.{code}"), points=points)
    elif code in comp.upgrades:
        station = comp.upgrades[code].station
        where = say(f"n.station.{station}") if len(station) == 1 else say("n.board.panorama")
        text = say("n.cards.station", station=where, effect=say(f"n.upgrade.{code}"))
    elif code in comp.rocks:
        rock = comp.rocks[code]
        points = say("n.board.points", count=rock.points)
        text = say("n.cards.rock", points=points, conditions=_conditions(rock.when))
    else:
        return None
    return text
