"""What changed in the last turn, so the picture can point at it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.contract import Event
from engine.yamatai.view import YamataiView

__all__ = ["Highlight"]


@dataclass(frozen=True)
class Highlight:
    """The last turn's changes: who played, boats placed, building built, tokens taken."""

    seat: int | None = None
    placed: frozenset[str] = frozenset()
    """Spot labels holding the boats placed this turn (after any slide or swap)."""
    moved: frozenset[str] = frozenset()
    """Spot labels whose boat a power slid or swapped."""
    removed: frozenset[str] = frozenset()
    """Spot labels whose boat a power took off the board."""
    built: str | None = None
    """Island label of the new building."""
    collected: tuple[tuple[str, str], ...] = ()
    """(island label, culture) of every token taken."""
    sacred: frozenset[str] = frozenset()
    """Island labels where a sacred ground was placed or removed."""
    swapped: frozenset[str] = frozenset()
    """Island labels whose tokens were swapped."""
    recruited: str | None = None
    fleet: int | None = None
    reserved: str | None = None

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Highlight:
        """The changes of the last turn found in a list of engine events (earlier turns ignored)."""
        seat: int | None = None
        placed: list[str] = []
        moved: set[str] = set()
        removed: set[str] = set()
        built: str | None = None
        collected: list[tuple[str, str]] = []
        sacred: set[str] = set()
        swapped: set[str] = set()
        recruited: str | None = None
        fleet: int | None = None
        reserved: str | None = None
        for event in events:
            kind = event.get("type")
            if kind == "fleet":  # a new turn starts: forget older ones
                seat, fleet = event.get("seat"), event.get("fleet")
                placed, moved, removed, collected = [], set(), set(), []
                sacred, swapped = set(), set()
                built = recruited = reserved = None
            elif kind == "place":
                placed.append(str(event["spot"]))
            elif kind == "slide":
                start, end = str(event["from"]), str(event["to"])
                placed = [end if s == start else s for s in placed]
                moved.discard(start)
                moved.add(end)
            elif kind == "swap_boats":
                a, b = (str(s) for s in event["spots"])
                placed = [b if s == a else a if s == b else s for s in placed]
                moved.update((a, b))
            elif kind == "remove":
                gone = {str(b["spot"]) for b in event.get("boats", [])}
                placed = [s for s in placed if s not in gone]
                moved -= gone
                removed |= gone
            elif kind == "collect":
                collected += [
                    (str(t["island"]), str(t["culture"])) for t in event.get("tokens", [])
                ]
            elif kind == "ebisu":
                collected.append((str(event["island"]), str(event["culture"])))
            elif kind == "build":
                built = str(event["island"])
            elif kind in ("sacred", "kachiko"):
                sacred.add(str(event["island"]))
            elif kind == "swap_tokens":
                swapped.update(str(i) for i in event["islands"])
            elif kind == "recruit":
                recruited = str(event["specialist"])
            elif kind == "reserve":
                reserved = str(event["tile"])
            if kind in ("fleet", "end_turn") and isinstance(event.get("seat"), int):
                seat = event["seat"]
        return cls(
            seat=seat,
            placed=frozenset(placed),
            moved=frozenset(moved),
            removed=frozenset(removed),
            built=built,
            collected=tuple(collected),
            sacred=frozenset(sacred),
            swapped=frozenset(swapped),
            recruited=recruited,
            fleet=fleet,
            reserved=reserved,
        )

    @classmethod
    def from_view(cls, view: YamataiView) -> Highlight:
        """The turn in progress as the view shows it (boats placed so far by the current seat)."""
        spots = view.get("spots", [])
        placed = frozenset(str(s["label"]) for s in spots if s.get("placed_this_turn"))
        turn = view.get("turn") or {}
        return cls(seat=view.get("current_seat"), placed=placed, fleet=turn.get("fleet"))
