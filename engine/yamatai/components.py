"""Yamatai component data (boats, cultures, fleets, building tiles, specialists) from data files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.contract import JsonObject


@dataclass(frozen=True)
class Fleet:
    """A fleet tile: its number (next round's turn-order spot), boats and power."""

    number: int
    boats: tuple[int, ...]
    power: str
    text: str


@dataclass(frozen=True)
class BuildingTile:
    """A building tile: required boats (counts per boat type), prestige points and kind."""

    id: str
    needs: tuple[int, ...]
    pp: int
    kind: str  # standard, trading_post, torii, palace

    @property
    def prestige(self) -> bool:
        """True for Torii and Palaces."""
        return self.kind in ("torii", "palace")

    @property
    def trading_post(self) -> bool:
        """True when group coins are doubled."""
        return self.kind == "trading_post"


@dataclass(frozen=True)
class Specialist:
    """A specialist tile: name, prestige points and a short power text."""

    name: str
    pp: int
    power: str


@dataclass(frozen=True)
class Components:
    """Every number the rules need that is printed on the components."""

    boat_names: tuple[str, ...]
    boat_letters: tuple[str, ...]
    boat_colours: tuple[str, ...]
    boat_counts: tuple[int, ...]
    buy_prices: tuple[int | None, ...]
    sell_prices: tuple[int | None, ...]
    tomoe_gold_price: int
    susanoo_sell: dict[int, int]
    culture_names: tuple[str, ...]
    culture_letters: tuple[str, ...]
    culture_per_type: int
    culture_blank: int
    player_colours: tuple[str, ...]
    starting_coins: int
    standard_buildings: dict[int, int]
    harbor: int
    riu_extra_harbor: int
    sacred_grounds: int
    fleets: dict[int, Fleet]
    buildings: dict[str, BuildingTile]
    specialists: dict[str, Specialist]
    specialist_track_size: int
    specialist_coins_per_round: int
    building_row_size: int
    fleet_visible: int
    fleet_hidden: int

    @property
    def gold(self) -> int:
        """Index of the gold boat type."""
        return self.boat_names.index("gold")


def _parse(data: JsonObject) -> Components:
    boats = data["boats"]["types"]
    names = tuple(b["id"] for b in boats)
    index = {name: i for i, name in enumerate(names)}
    letters = {b["letter"]: i for i, b in enumerate(boats)}

    def needs(code: str) -> tuple[int, ...]:
        counts = [0] * len(names)
        for letter in code:
            counts[letters[letter]] += 1
        return tuple(counts)

    fleets = {
        f["number"]: Fleet(f["number"], tuple(index[b] for b in f["boats"]), f["power"], f["text"])
        for f in data["fleets"]["tiles"]
    }
    buildings = {
        t["id"]: BuildingTile(t["id"], needs(t["boats"]), t["pp"], t["kind"])
        for t in data["buildings"]["tiles"]
    }
    specialists = {
        s["name"]: Specialist(s["name"], s["pp"], s["power"]) for s in data["specialists"]["cards"]
    }
    cultures = data["cultures"]
    players = data["players"]
    return Components(
        boat_names=names,
        boat_letters=tuple(b["letter"] for b in boats),
        boat_colours=tuple(b["colour"] for b in boats),
        boat_counts=tuple(b["count"] for b in boats),
        buy_prices=tuple(b["buy"] for b in boats),
        sell_prices=tuple(b["sell"] for b in boats),
        tomoe_gold_price=data["boats"]["tomoe_gold_price"],
        susanoo_sell={index[k]: v for k, v in data["boats"]["susanoo_sell"].items()},
        culture_names=tuple(cultures["types"]),
        culture_letters=tuple(cultures["letters"]),
        culture_per_type=cultures["per_type"],
        culture_blank=cultures["blank"],
        player_colours=tuple(players["colours"]),
        starting_coins=players["starting_coins"],
        standard_buildings={int(k): v for k, v in players["standard_buildings"].items()},
        harbor=players["harbor"],
        riu_extra_harbor=players["riu_extra_harbor"],
        sacred_grounds=players["sacred_grounds"],
        fleets=fleets,
        buildings=buildings,
        specialists=specialists,
        specialist_track_size=data["specialists"]["track_size"],
        specialist_coins_per_round=data["specialists"]["coins_per_round"],
        building_row_size=data["building_row_size"],
        fleet_visible=data["fleet_track"]["visible"],
        fleet_hidden=data["fleet_track"]["hidden"],
    )


@cache
def load_components() -> Components:
    """The packaged component data (read once)."""
    text = resources.files("engine.yamatai").joinpath("data/components.json").read_text("utf-8")
    return _parse(json.loads(text))
