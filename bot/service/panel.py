"""Grouping legal actions for the turn panel: categories and pages that fit Discord's limits."""

from __future__ import annotations

from collections.abc import Callable

from .results import Category

#: A game's panel grouping: the group of one legal action.
Grouping = Callable[[str], str]

PER_SELECT = 25  # options in one select menu
SELECTS = 3  # select menus of actions on one page
PAGE_SIZE = PER_SELECT * SELECTS
MAX_VALUE = 100  # Discord's limit for an option's value


def categories(legal: list[str], group: Grouping) -> list[Category]:
    """The groups present in the legal actions, in the engine's order, with their sizes."""
    counts: dict[str, int] = {}
    for action in legal:
        key = group(action)
        counts[key] = counts.get(key, 0) + 1
    return [Category(key, n) for key, n in counts.items()]


def page_of(
    legal: list[str], category: str, page: int, group: Grouping
) -> tuple[list[str], int, int]:
    """One page of a group's actions: (actions, page number clamped, number of pages)."""
    members = [a for a in legal if group(a) == category]
    pages = max(1, -(-len(members) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    return members[page * PAGE_SIZE : (page + 1) * PAGE_SIZE], page, pages


def chunks(actions: list[str]) -> list[list[str]]:
    """Actions split into select menus of at most PER_SELECT options."""
    return [actions[i : i + PER_SELECT] for i in range(0, len(actions), PER_SELECT)]
