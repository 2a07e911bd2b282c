"""Namiji's game state: dataclasses with a lossless JSON form."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from engine.contract import JsonObject

SCHEMA = 1
MOVE, STATION, DRAFT, OVER = "move", "station", "draft", "over"


@dataclass
class Boat:
    """A boat on the route: its space index, its spot and the seat it belongs to (None: neutral).

    ``spot`` is 0 on the route and 1 on the outer spot of a double space; at a pontoon or the port
    it is the slot number (1 nearest the station)."""

    pos: int
    spot: int
    seat: int | None


@dataclass
class Player:
    """A seat's boat board and collection; ``score`` is the score track."""

    name: str
    colour: str
    score: int = 0
    crate: list[str] = field(default_factory=lambda: [""] * 12)  # fish kind per cell, "" empty
    nets: list[str] = field(default_factory=list)  # placed nets, "bt r1c1 h"
    lines: list[str] = field(default_factory=list)  # crate lines that scored: "r1", "c3"
    trap: list[str] = field(default_factory=list)  # SH / CB
    offerings: int = 4
    panoramas: dict[str, int] = field(default_factory=lambda: {"D": 0, "O": 0, "W": 0})
    bonuses: list[str] = field(default_factory=list)  # BD / BO / BW
    pontoon: list[str] = field(default_factory=list)  # M1-M8, U1-U12, face up
    rocks: list[str] = field(default_factory=list)  # R01-R20, face down until the end
    arrival: str = ""  # A7 ... A1


@dataclass
class State:
    """The whole game: supplies, boats, players and the decision under way."""

    rng: int
    players: list[Player]
    boats: list[Boat]
    bank_up: list[str]  # face-up fish
    bank_down: list[str]  # face-down fish; the last is drawn first
    net_pile: list[str]  # face down; the last is on top, index 0 is under the pile
    bag: dict[str, int]  # crustaceans left: SH, CB
    pontoon_deck: list[str]  # the last is on top
    rock_deck: list[str]
    arrivals: list[str]  # arrival tokens left, the best first
    bonuses: list[str]  # panorama bonus cards left
    phase: str = MOVE
    boat: int = 0  # the boat that moves or whose stop is resolved
    tasks: list[str] = field(default_factory=list)  # decisions left at this stop, first = now
    catch: str = ""  # the fish taken, to keep or release
    nets_shown: list[str] = field(default_factory=list)  # nets revealed at this stop
    rocks_shown: list[str] = field(default_factory=list)  # rock cards drawn at this stop
    drawn: list[str] = field(default_factory=list)  # crustaceans drawn at this trap
    hand: list[str] = field(default_factory=list)  # pontoon cards of the draft
    draft_slot: int = 0  # the slot that picks now
    drafted: list[int] = field(default_factory=list)  # pontoons whose draft is done
    moved: bool = False  # the boat to act has moved this turn
    turns: int = 0
    direction: str = "clockwise"  # the setup option: "clockwise" or "reversed" (ruling N17)

    def clone(self) -> State:
        """A deep copy (field by field: much faster than copy.deepcopy)."""
        return State(
            self.rng,
            [_player_copy(p) for p in self.players],
            [Boat(b.pos, b.spot, b.seat) for b in self.boats],
            self.bank_up[:],
            self.bank_down[:],
            self.net_pile[:],
            dict(self.bag),
            self.pontoon_deck[:],
            self.rock_deck[:],
            self.arrivals[:],
            self.bonuses[:],
            self.phase,
            self.boat,
            self.tasks[:],
            self.catch,
            self.nets_shown[:],
            self.rocks_shown[:],
            self.drawn[:],
            self.hand[:],
            self.draft_slot,
            self.drafted[:],
            self.moved,
            self.turns,
            self.direction,
        )

    def to_dict(self) -> JsonObject:
        """JSON-ready data, lossless."""
        # Written out field by field (the keys and order of dataclasses.asdict, copies alike):
        # asdict deep-copies every string and number, and saving was most of a test's time.
        return {
            "rng": self.rng,
            "players": [player_dict(p) for p in self.players],
            "boats": [{"pos": b.pos, "spot": b.spot, "seat": b.seat} for b in self.boats],
            "bank_up": self.bank_up[:],
            "bank_down": self.bank_down[:],
            "net_pile": self.net_pile[:],
            "bag": dict(self.bag),
            "pontoon_deck": self.pontoon_deck[:],
            "rock_deck": self.rock_deck[:],
            "arrivals": self.arrivals[:],
            "bonuses": self.bonuses[:],
            "phase": self.phase,
            "boat": self.boat,
            "tasks": self.tasks[:],
            "catch": self.catch,
            "nets_shown": self.nets_shown[:],
            "rocks_shown": self.rocks_shown[:],
            "drawn": self.drawn[:],
            "hand": self.hand[:],
            "draft_slot": self.draft_slot,
            "drafted": self.drafted[:],
            "moved": self.moved,
            "turns": self.turns,
            "direction": self.direction,
            "schema": SCHEMA,
        }

    @staticmethod
    def from_dict(data: JsonObject) -> State:
        """The state ``to_dict`` wrote (ValueError, KeyError or TypeError if malformed)."""
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unknown Namiji schema {data.get('schema')!r}")
        data = {"direction": "clockwise", **data}  # stored before the option: clockwise
        values = {f.name: copy.deepcopy(data[f.name]) for f in fields(State)}
        values["players"] = [Player(**p) for p in data["players"]]
        values["boats"] = [Boat(**b) for b in data["boats"]]
        st = State(**values)
        if len(st.boats) < 3 or len(st.players) not in (2, 3, 4, 5):
            raise ValueError("not a Namiji state")
        if st.direction not in ("clockwise", "reversed"):
            raise ValueError(f"unknown Namiji direction {st.direction!r}")
        return st


def _player_copy(p: Player) -> Player:
    """A deep copy of a player."""
    return Player(
        p.name,
        p.colour,
        p.score,
        p.crate[:],
        p.nets[:],
        p.lines[:],
        p.trap[:],
        p.offerings,
        dict(p.panoramas),
        p.bonuses[:],
        p.pontoon[:],
        p.rocks[:],
        p.arrival,
    )


def player_from_view(data: Mapping[str, Any]) -> Player:
    """A player from a view's record (its ``rock_count`` dropped, lists and maps copied)."""
    return _player_copy(Player(**{k: v for k, v in data.items() if k != "rock_count"}))


def player_dict(p: Player) -> JsonObject:
    """A player's JSON-ready data (``dataclasses.asdict``'s keys, in its order, lists and maps
    copied); the view starts from it too."""
    return {
        "name": p.name,
        "colour": p.colour,
        "score": p.score,
        "crate": p.crate[:],
        "nets": p.nets[:],
        "lines": p.lines[:],
        "trap": p.trap[:],
        "offerings": p.offerings,
        "panoramas": dict(p.panoramas),
        "bonuses": p.bonuses[:],
        "pontoon": p.pontoon[:],
        "rocks": p.rocks[:],
        "arrival": p.arrival,
    }
