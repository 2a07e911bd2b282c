"""Grouping legal actions for the turn panel: categories and pages that fit Discord's limits."""

from __future__ import annotations

from .results import Category

PER_SELECT = 25  # options in one select menu
SELECTS = 3  # select menus of actions on one page
PAGE_SIZE = PER_SELECT * SELECTS
MAX_VALUE = 100  # Discord's limit for an option's value


def category_of(action: str) -> str:
    """The panel group of one action: ``fleet``, ``trade``, ``place:clay``, ``recruit:Riu``..."""
    words = action.split()
    kind = words[0]
    if kind in ("buy", "sell"):
        return "trade"
    if kind in ("place", "recruit") and len(words) > 1:
        return f"{kind}:{words[1]}"
    if kind == "swap" and len(words) > 1:
        return f"swap_{words[1]}"
    return kind


def categories(legal: list[str]) -> list[Category]:
    """The groups present in the legal actions, in the engine's order, with their sizes."""
    counts: dict[str, int] = {}
    for action in legal:
        key = category_of(action)
        counts[key] = counts.get(key, 0) + 1
    return [Category(key, n) for key, n in counts.items()]


def page_of(legal: list[str], category: str, page: int) -> tuple[list[str], int, int]:
    """One page of a group's actions: (actions, page number clamped, number of pages)."""
    members = [a for a in legal if category_of(a) == category]
    pages = max(1, -(-len(members) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    return members[page * PAGE_SIZE : (page + 1) * PAGE_SIZE], page, pages


def chunks(actions: list[str]) -> list[list[str]]:
    """Actions split into select menus of at most PER_SELECT options."""
    return [actions[i : i + PER_SELECT] for i in range(0, len(actions), PER_SELECT)]
