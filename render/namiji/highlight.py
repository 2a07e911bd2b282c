"""What the last turn changed, read from its engine events, to ring on the picture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.contract import Event


@dataclass
class Highlight:
    """The last turn: who played, boats moved, and what each seat gained."""

    seat: int | None = None
    boats: set[int] = field(default_factory=set)  # boat indices that moved
    lines: dict[int, set[str]] = field(default_factory=dict)  # crate lines scored, by seat
    fished: set[int] = field(default_factory=set)  # seats that caught a fish
    kept: dict[int, set[str]] = field(default_factory=dict)  # crate cells of fish kept, by seat
    nets: dict[int, set[str]] = field(default_factory=dict)  # nets placed (as the view's), by seat
    cards: dict[int, set[str]] = field(default_factory=dict)  # pontoon cards taken, by seat
    panoramas: dict[int, set[str]] = field(default_factory=dict)  # panorama types, by seat
    trap: set[int] = field(default_factory=set)  # seats that took crustaceans
    offering: set[int] = field(default_factory=set)  # seats that gave an offering
    rocks: set[int] = field(default_factory=set)  # seats that kept a sacred rock card
    arrival: set[int] = field(default_factory=set)  # seats whose boat arrived

    @staticmethod
    def from_events(events: Sequence[Event] | None) -> Highlight:
        """Read a turn's events (events before the last ``end_turn`` but one are ignored)."""
        hl = Highlight()
        for event in events or ():
            kind = event.get("type")
            seat = event.get("seat")
            if kind == "move":
                hl.boats.add(int(event["boat"]))
            if isinstance(seat, int) and kind not in ("end_turn", "rocks_revealed", "score"):
                hl.seat = seat
            if not isinstance(seat, int):
                continue
            if kind == "crate_line":
                hl.lines.setdefault(seat, set()).add(str(event["line"]))
            elif kind == "fished":
                hl.fished.add(seat)
            elif kind == "kept":
                hl.kept.setdefault(seat, set()).add(str(event["cell"]))
            elif kind == "net_placed":
                net = f"{event['net']} {event['cell']} {event['orientation']}"
                hl.nets.setdefault(seat, set()).add(net)
            elif kind == "pontoon_card":
                hl.cards.setdefault(seat, set()).add(str(event["card"]))
            elif kind == "panorama":
                hl.panoramas.setdefault(seat, set()).add(str(event["card"])[:1])
            elif kind == "crustaceans":
                hl.trap.add(seat)
            elif kind == "offering":
                hl.offering.add(seat)
            elif kind == "rock_kept":
                hl.rocks.add(seat)
            elif kind == "arrival":
                hl.arrival.add(seat)
        return hl
