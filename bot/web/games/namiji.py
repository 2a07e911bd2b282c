"""Namiji on the web page: the upgrade cards' texts, the players' fields and their values."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from bot.games.base import Texts
from bot.games.namiji import fish_name, panorama_name

from . import times

CARD_TEXTS = "n.upgrade."
FIELD_TEXTS = "n.cat."
FISH = re.compile(r"[bgo][fst]")
NET = re.compile(r"([bgo][fst]) r(\d+)c(\d+) ([hv])")
LINE = re.compile(r"([rc])(\d+)")
PANORAMA = re.compile(r"[DOW]")
BONUS = re.compile(r"B([DOW])")
CRUSTACEANS = {"CB": "web.value.crab", "SH": "web.value.shrimp"}
LINES = {"r": "web.value.row", "c": "web.value.column"}


def words(t: Texts, field: str, value: Any) -> list[str] | None:
    """A player's field in words (``t``: the game's language): fish, nets, crate lines,
    crustaceans and panoramas by name; None for a field shown as it is (numbers, cards)."""
    say = _FIELDS.get(field)
    if say is None or not isinstance(value, list | dict):
        return None
    try:
        return say(t, value)
    except (KeyError, ValueError, TypeError):  # a value of another shape: shown as it is
        return None


def _each(pattern: re.Pattern[str], items: Any) -> list[re.Match[str]]:
    """Every item matched by ``pattern`` (ValueError if one is not)."""
    found = [pattern.fullmatch(str(item)) for item in items]
    if None in found:
        raise ValueError(items)
    return [m for m in found if m is not None]


def _crate(t: Texts, cells: list[str]) -> list[str]:
    fish = Counter(m[0] for m in _each(FISH, (c for c in cells if c)))
    return [times(t, fish_name(t, f), n) for f, n in fish.items()]


def _nets(t: Texts, nets: list[str]) -> list[str]:
    return [
        t(
            "web.value.net",
            fish=fish_name(t, m[1]),
            row=m[2],
            column=m[3],
            direction=t(f"web.value.net.{m[4]}"),
        )
        for m in _each(NET, nets)
    ]


def _lines(t: Texts, lines: list[str]) -> list[str]:
    return [t(LINES[m[1]], n=m[2]) for m in _each(LINE, lines)]


def _trap(t: Texts, caught: list[str]) -> list[str]:
    return [times(t, t(CRUSTACEANS[c]), n) for c, n in Counter(caught).items()]


def _panoramas(t: Texts, kinds: dict[str, int]) -> list[str]:
    _each(PANORAMA, kinds)
    return [times(t, panorama_name(t, k), int(n)) for k, n in kinds.items() if n]


def _bonuses(t: Texts, bonuses: list[str]) -> list[str]:
    return [panorama_name(t, m[1]) for m in _each(BONUS, bonuses)]


_FIELDS: dict[str, Callable[[Texts, Any], list[str]]] = {
    "crate": _crate,
    "nets": _nets,
    "lines": _lines,
    "trap": _trap,
    "panoramas": _panoramas,
    "bonuses": _bonuses,
}
