"""Namiji's component data (route, fish, nets, cards, tracks) from the packaged data file."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from engine.contract import JsonObject

ROWS, COLUMNS = 3, 4
PANORAMA_TYPES = ("D", "O", "W")
CELLS = tuple(f"r{r}c{c}" for r in range(1, ROWS + 1) for c in range(1, COLUMNS + 1))
CLOCKWISE, REVERSED = "clockwise", "reversed"
DIRECTIONS = (CLOCKWISE, REVERSED)  # the setup option ``direction``, the default first


@dataclass(frozen=True)
class Upgrade:
    """An upgrade card: the station letters where it acts and its effect code."""

    station: str
    effect: str
    text: str


@dataclass(frozen=True)
class Rock:
    """A sacred rock card: its points and conditions (measure, ">=" or "<=", value)."""

    name: str
    points: int
    when: tuple[tuple[str, str, int], ...]


@dataclass(frozen=True)
class Components:
    """Every value the rules need, read from ``data/components.json``."""

    route: tuple[str, ...]  # station letters by index, "*" dropped
    double: tuple[bool, ...]  # a double space at that index
    colours: tuple[str, ...]
    slots: dict[int, int]  # pontoon slots used by player count
    double_from: int  # both spots of a double space are used from this many players
    double_below: str  # below that: "route_spot" (the spot on the route only) or "none"
    fish_colours: dict[str, str]
    fish_shapes: dict[str, str]
    fish: dict[str, int]
    nets: dict[str, int]
    crustaceans: dict[str, int]
    max_draws: int
    bust_on_crab: int
    row_points: tuple[int, ...]
    column_points: tuple[int, ...]
    penalty_by_left: tuple[int, ...]
    sections: dict[str, int]
    panorama_names: dict[str, str]
    panorama_bonus: int
    arrival_points: dict[str, int]
    arrival_tokens: dict[int, tuple[str, ...]]
    meals: dict[str, int]
    meal_names: dict[str, str]
    upgrades: dict[str, Upgrade]
    rocks: dict[str, Rock]

    @property
    def arrival(self) -> int:
        """The index of the arrival port (the last space of the route)."""
        return len(self.route) - 1

    def is_port(self, index: int) -> bool:
        """Whether the space holds every boat in slots (a pontoon or the port)."""
        return self.route[index][0] in "PS"

    def next_stop(self, index: int) -> int:
        """The first pontoon or port after ``index``: no boat sails past it."""
        return next(i for i in range(index + 1, len(self.route)) if self.is_port(i))


def _load() -> JsonObject:
    text = resources.files("engine.namiji").joinpath("data/components.json").read_text("utf-8")
    data: JsonObject = json.loads(text)
    return data


@cache
def components(direction: str = CLOCKWISE) -> Components:
    """The component data (read once), the route in the order a game in ``direction`` sails it.

    Reversed (docs/rules.md, N17), index k is the house sheet's space ``arrival - k`` with its
    station and its double spot; the port and the pontoons keep their indices and names, so the
    first pontoon reached is always P1."""
    if direction == CLOCKWISE:
        return _clockwise()
    if direction != REVERSED:
        raise ValueError(f"unknown direction {direction!r}")
    comp = _clockwise()
    backwards = comp.route[::-1]
    assert all(
        (a[0] in "PS") == (b[0] in "PS") for a, b in zip(comp.route, backwards, strict=True)
    ), "the pontoons are not symmetric on the route"
    route = tuple(a if a[0] in "PS" else b for a, b in zip(comp.route, backwards, strict=True))
    return replace(comp, route=route, double=comp.double[::-1])


def sheet_index(index: int, direction: str) -> int:
    """The house sheet's (clockwise) index of route index ``index`` in a game in ``direction``."""
    return index if direction == CLOCKWISE else components().arrival - index


@cache
def _clockwise() -> Components:
    d = _load()
    spaces: list[str] = d["route"]["spaces"]
    return Components(
        route=tuple(s.rstrip("*") for s in spaces),
        double=tuple(s.endswith("*") for s in spaces),
        colours=tuple(d["colours"]["value"]),
        slots={int(k): int(v) for k, v in d["pontoon_slots"]["by_players"].items()},
        double_from=int(d["double_spaces"]["both_spots_from"]),
        double_below=str(d["double_spaces"]["below"]),
        fish_colours=dict(d["fish"]["colours"]),
        fish_shapes=dict(d["fish"]["shapes"]),
        fish=dict(d["fish"]["counts"]),
        nets=dict(d["nets"]["counts"]),
        crustaceans={"SH": int(d["crustaceans"]["SH"]), "CB": int(d["crustaceans"]["CB"])},
        max_draws=int(d["trap"]["max_draws"]),
        bust_on_crab=int(d["trap"]["bust_on_crab"]),
        row_points=tuple(d["crate"]["rows"]),
        column_points=tuple(d["crate"]["columns"]),
        penalty_by_left=tuple(d["offerings"]["penalty_by_left"]),
        sections=dict(d["panoramas"]["sections"]),
        panorama_names=dict(d["panoramas"]["names"]),
        panorama_bonus=int(d["panoramas"]["bonus"]),
        arrival_points=dict(d["arrival"]["tokens"]),
        arrival_tokens={int(k): tuple(v) for k, v in d["arrival"]["by_boats"].items()},
        meals={k: int(v["points"]) for k, v in d["meals"]["cards"].items()},
        meal_names={k: str(v["name"]) for k, v in d["meals"]["cards"].items()},
        upgrades={
            k: Upgrade(v["station"], v["effect"], v["text"])
            for k, v in d["upgrades"]["cards"].items()
        },
        rocks={
            k: Rock(v["name"], int(v["points"]), tuple((m, op, int(n)) for m, op, n in v["when"]))
            for k, v in d["rocks"]["cards"].items()
        },
    )


def cell_index(cell: str) -> int:
    """The index (0-11) of a crate cell label such as ``r2c3``."""
    return CELLS.index(cell)
