"""Namiji's names a player may type in words: fish, panoramas and cards."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from importlib.resources import files

from bot.games.typed import Names, locale_texts, names_of
from engine.namiji.components import PANORAMA_TYPES, components

#: Which arguments of each verb are names (``bot.games.typed.Names``).
VERBS = {
    "fish": ("fish",),
    "panorama": ("panorama",),
    "pick": ("card",),
    "rock": ("card",),
}


def _named() -> Iterator[tuple[str, str, str]]:
    comp = components()
    yield "fish", "hidden", "hidden"
    for kind in comp.fish:
        yield "fish", kind, kind
    for code in (*comp.meals, *comp.upgrades, *comp.rocks):
        yield "card", code, code
    for code, name in comp.meal_names.items():
        yield "card", name, code
    for kind in PANORAMA_TYPES:
        yield "panorama", kind, kind
    for texts in locale_texts(files("bot.games.namiji") / "locale").values():
        for kind in comp.fish:
            colour = texts[f"namiji.fish.colour.{kind[0]}"]
            shape = texts[f"namiji.fish.shape.{kind[1]}"]
            yield "fish", f"{colour} {shape}", kind
            yield "fish", f"{shape} {colour}", kind
            yield "fish", texts[f"namiji.fish.{kind}"], kind  # as the bot says it
        for code in comp.meals:
            yield "card", texts[f"namiji.meal.{code}"], code
        for kind in PANORAMA_TYPES:
            yield "panorama", texts[f"namiji.panorama.{kind}"], kind
        for code in (*comp.upgrades, *comp.rocks):
            yield "card", texts[f"namiji.card.{code}"], code


@cache
def typed_names() -> Names:
    """The names Namiji's ``/play`` reads in words, in every language."""
    return names_of(VERBS, _named())
