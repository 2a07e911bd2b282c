"""Namiji's notation: parse and format one action (case and extra spaces do not matter)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import InvalidNotation, echo
from engine.namiji.components import CELLS, PANORAMA_TYPES, components
from engine.namiji.refusals import REFUSALS

FORMS = (
    "move SPACE",
    "move SPACE slot N",
    "fish KIND",
    "fish hidden",
    "keep CELL",
    "release",
    "net N:KIND CELL h|v",
    "refuse",
    "draw",
    "stop",
    "rock RNN",
    "offer",
    "panorama D|O|W",
    "pick CARD",
    "end",
)
WORDS = ("release", "refuse", "draw", "stop", "offer", "end")


@dataclass(frozen=True)
class Action:
    """One action: its kind (the first word) and its arguments, canonical.

    ``station`` is a move's destination letter in the game's direction, filled in by
    ``Namiji.parse`` (which knows the state); it takes no part in equality."""

    kind: str
    args: tuple[str, ...] = ()
    station: str = field(default="", compare=False)


def _bad(text: str, reason: str = "bad_notation") -> InvalidNotation:
    return REFUSALS.notation(reason, legal=FORMS, text=echo(text), actions=", ".join(FORMS))


SLOTS = ("1", "2", "3", "4", "5")


def _space(word: str) -> bool:
    return word.isdigit() and len(word) <= 3 and int(word) < len(components().route)


def _kind(word: str) -> str | None:
    comp = components()
    return word if len(word) == 2 and word in comp.fish else None


def parse(text: str) -> Action:
    """One action from its text (InvalidNotation if it is not one)."""
    words = text.strip().lower().split()
    if not words:
        raise _bad(text, "empty")
    head, rest = words[0], words[1:]
    if head in WORDS and not rest:
        return Action(head)
    if head == "move" and rest and _space(rest[0]):
        if len(rest) == 1:
            return Action("move", (str(int(rest[0])),))
        if len(rest) == 3 and rest[1] == "slot" and rest[2] in SLOTS:
            return Action("move", (str(int(rest[0])), rest[2]))
    if head == "fish" and len(rest) == 1 and (rest[0] == "hidden" or _kind(rest[0])):
        return Action("fish", (rest[0],))
    if head == "keep" and len(rest) == 1 and rest[0] in CELLS:
        return Action("keep", (rest[0],))
    if head == "net" and len(rest) == 3:
        kind = _kind(rest[0].removeprefix("n:"))
        if kind and rest[1] in CELLS and rest[2] in ("h", "v"):
            return Action("net", (kind, rest[1], rest[2]))
    if head == "rock" and len(rest) == 1 and rest[0].upper() in components().rocks:
        return Action("rock", (rest[0].upper(),))
    if head == "panorama" and len(rest) == 1 and rest[0].upper() in PANORAMA_TYPES:
        return Action("panorama", (rest[0].upper(),))
    if head == "pick" and len(rest) == 1:
        card = rest[0].upper()
        if card in components().meals or card in components().upgrades:
            return Action("pick", (card,))
    raise _bad(text)


def format_action(action: Action) -> str:
    """The canonical text of an action."""
    a = action.args
    if action.kind == "move":
        return f"move {a[0]}" if len(a) == 1 else f"move {a[0]} slot {a[1]}"
    if action.kind == "net":
        return f"net N:{a[0]} {a[1]} {a[2]}"
    return " ".join((action.kind, *a))
