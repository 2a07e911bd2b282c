"""Grouping legal actions for the turn panel: groups, staged choices and pages that fit Discord.

A group too large for one menu is chosen in stages, word by word ("collect A2" then
"collect A2 B4"): each stage lists the distinct next words, so hundreds of actions take two or
three small menus instead of pages. A stage's value ends with ``STAGE`` so it cannot be taken
for an action.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence

from .results import Category

#: A game's panel grouping: the group of one legal action.
Grouping = Callable[[str], str]

PER_SELECT = 25  # options in one select menu
SELECTS = 3  # select menus of actions on one page
PAGE_SIZE = PER_SELECT * SELECTS
MAX_VALUE = 100  # Discord's limit for an option's value
STAGE = " …"  # the end of a stage's value (the first words of several actions)
END_GROUP = "end"  # the group of ending the turn: a button, never a menu


def categories(legal: list[str], group: Grouping) -> list[Category]:
    """The groups present in the legal actions, in the engine's order, with their sizes."""
    counts: dict[str, int] = {}
    for action in legal:
        key = group(action)
        counts[key] = counts.get(key, 0) + 1
    return [Category(key=key, count=n) for key, n in counts.items()]


def next_group(keys: Sequence[str], after: str | None, order: Sequence[str]) -> str:
    """The group the panel opens: the one just played while it lasts, else the likely next step.

    ``order`` lists group kinds (``place`` for ``place:clay``) by how likely they come next;
    without a match the engine's first group is taken. Ending the turn is a button, not a group.
    """
    menus = [k for k in keys if k != END_GROUP] or list(keys)
    if after in menus:
        return after
    for kind in order:
        found = next((k for k in menus if k.partition(":")[0] == kind), None)
        if found is not None:
            return found
    return menus[0]


def _under(action: str, prefix: str) -> bool:
    return not prefix or action == prefix or action.startswith(prefix + " ")


def stage(members: list[str], prefix: str = "") -> tuple[list[str], str]:
    """The choices under ``prefix``: the actions when they fit one menu, else stages of them.

    Returns the values (actions, or stage values ending in ``STAGE``) and the prefix they are
    under (deeper than asked when every action shares more words).
    """
    chosen = [a for a in members if _under(a, prefix)]
    if not chosen:  # a stale prefix: start the group again
        chosen, prefix = members, ""
    while len(chosen) > PER_SELECT:
        depth = len(prefix.split())
        nexts = list(dict.fromkeys(" ".join(a.split()[: depth + 1]) for a in chosen))
        if len(nexts) == 1 and nexts[0] != prefix:
            prefix = nexts[0]  # every action shares this word: look one word deeper
            continue
        if len(nexts) == len(chosen) or len(nexts) > PAGE_SIZE:
            break  # the next word is the last one: pages of actions
        return [n if n in chosen and not _deeper(chosen, n) else n + STAGE for n in nexts], prefix
    return chosen, prefix


def _deeper(actions: list[str], prefix: str) -> bool:
    return any(a.startswith(prefix + " ") for a in actions)


def page_of(values: list[str], page: int) -> tuple[list[str], int, int]:
    """One page of a menu's values: (values, page number clamped, number of pages)."""
    pages = max(1, -(-len(values) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    return values[page * PAGE_SIZE : (page + 1) * PAGE_SIZE], page, pages


def chunks(actions: list[str]) -> list[list[str]]:
    """Actions split into select menus of at most PER_SELECT options."""
    return [actions[i : i + PER_SELECT] for i in range(0, len(actions), PER_SELECT)]


def checksum(action: str) -> str:
    """The 8-hex-digit checksum a button carries for the action it plays."""
    return f"{zlib.crc32(action.encode('utf-8')):08x}"


def by_checksum(legal: list[str], crc: str) -> str | None:
    """The legal action a button's checksum names (None if the board moved on)."""
    return next((a for a in legal if checksum(a) == crc), None)
