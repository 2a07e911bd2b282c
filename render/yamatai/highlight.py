"""What changed in the last turn, so the picture can point at it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.contract import Event
from engine.yamatai.view import YamataiView

__all__ = ["EXCHANGES", "Highlight"]

EXCHANGES = ("raijin", "nakatsu", "michimata", "hetsuka")
"""The specialists' exchange powers, told by the specialist's name ("used Raijin")."""


@dataclass(frozen=True)
class Highlight:
    """The last turn's changes: who played, boats placed, building built, tokens taken, and
    what the board does not show (boats bought and sold, kept in the harbor, powers used)."""

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
    """Island labels where a sacred ground was placed."""
    unsacred: frozenset[str] = frozenset()
    """Island labels whose sacred ground Kachiko removed."""
    swapped: frozenset[str] = frozenset()
    """Island labels whose tokens were swapped."""
    recruited: str | None = None
    fleet: int | None = None
    reserved: str | None = None
    traded: tuple[tuple[str, str], ...] = ()
    """("buy" or "sell", boat) of every trade, in order."""
    kept: tuple[str, ...] = ()
    """The boats kept in the harbor at the turn's end."""
    set_aside: int = 0
    """How many boats were set aside at the turn's end."""
    exchanged: tuple[str, ...] = ()
    """The specialists whose exchange the turn used (Raijin, Nakatsu, Michimata, Hetsuka)."""
    looked: bool = False
    """Whether the turn looked at the building pile (a fleet's power)."""

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
        unsacred: set[str] = set()
        traded: list[tuple[str, str]] = []
        kept: tuple[str, ...] = ()
        set_aside = 0
        exchanged: list[str] = []
        looked = False
        for event in events:
            kind = event.get("type")
            if kind == "fleet":  # a new turn starts: forget older ones
                seat, fleet = event.get("seat"), event.get("fleet")
                placed, moved, removed, collected = [], set(), set(), []
                sacred, swapped, unsacred = set(), set(), set()
                built = recruited = reserved = None
                traded, kept, set_aside, exchanged, looked = [], (), 0, [], False
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
            elif kind == "sacred":
                sacred.add(str(event["island"]))
            elif kind == "kachiko":
                unsacred.add(str(event["island"]))
            elif kind in ("buy", "sell"):
                traded.append((str(kind), str(event["boat"])))
            elif kind == "harbor":
                kept = tuple(str(b) for b in event.get("kept", []))
                set_aside = len(event.get("set_aside", []))
            elif kind in EXCHANGES:
                exchanged.append(str(kind).title())
            elif kind == "look":
                looked = True
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
            unsacred=frozenset(unsacred),
            traded=tuple(traded),
            kept=kept,
            set_aside=set_aside,
            exchanged=tuple(exchanged),
            looked=looked,
        )

    @classmethod
    def from_view(cls, view: YamataiView) -> Highlight:
        """The turn in progress as the view shows it (boats placed so far by the current seat)."""
        spots = view.get("spots", [])
        placed = frozenset(str(s["label"]) for s in spots if s.get("placed_this_turn"))
        turn = view.get("turn") or {}
        return cls(seat=view.get("current_seat"), placed=placed, fleet=turn.get("fleet"))
