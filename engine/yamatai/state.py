"""Yamatai game state: plain data that serializes to canonical JSON and back without loss."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from engine.contract import JsonObject

SCHEMA = 2  # 2 added step_order; a schema 1 state is a game begun under the old order
NONE = -1  # no boat on a spot, no culture token on an island

# Steps of a turn. In the rulebook's order a turn goes FLEET, TRADE, PLACE, ACTED (collected,
# built, or neither possible), STORED (harbor step 4), RECRUITED (step 5). Games begun before
# that order was followed keep the old one: ACTED, RECRUITED, then the harbor with ``end keep``.
FLEET, TRADE, PLACE, ACTED, RECRUITED, STORED = range(6)
STEP_NAMES = ("fleet", "trade", "place", "acted", "recruited", "stored")
RULEBOOK_ORDER = "rulebook"  # harbor (step 4) before recruiting (step 5)
RECRUIT_FIRST = "recruit-first"  # the order of games stored before the rulebook's was followed
STEP_ORDERS = (RULEBOOK_ORDER, RECRUIT_FIRST)


@dataclass(slots=True)
class Player:
    """One seat: its name, building colour and everything on its player mat."""

    name: str
    colour: str
    coins: int
    buildings_left: int
    pp_tokens: int = 0
    boats: list[int] = field(default_factory=lambda: [0] * 5)  # held: harbor, then this turn's
    set_aside: list[int] = field(default_factory=lambda: [0] * 5)
    tokens: list[int] = field(default_factory=lambda: [0] * 6)
    tiles: list[str] = field(default_factory=list)  # building tiles built
    specialists: list[str] = field(default_factory=list)
    reserved: list[str] = field(default_factory=list)  # fleet 2 reservations not yet built
    fleets: list[int] = field(default_factory=list)  # fleet tiles played this round

    def clone(self) -> Player:
        """A deep copy."""
        return Player(
            self.name,
            self.colour,
            self.coins,
            self.buildings_left,
            self.pp_tokens,
            self.boats[:],
            self.set_aside[:],
            self.tokens[:],
            self.tiles[:],
            self.specialists[:],
            self.reserved[:],
            self.fleets[:],
        )


@dataclass(slots=True)
class Turn:
    """What has happened so far in the current turn."""

    step: int = FLEET
    fleet: int = 0
    trades: int = 0
    placed: list[int] = field(default_factory=list)  # spots of boats placed this turn, in order
    used: list[str] = field(default_factory=list)  # once-per-turn powers used ("fleet", names)
    collected: bool = False
    looked: list[str] = field(default_factory=list)  # fleet 3 tiles waiting to be arranged
    recruited: str = ""  # the specialist recruited this turn

    def clone(self) -> Turn:
        """A deep copy."""
        return Turn(
            self.step,
            self.fleet,
            self.trades,
            self.placed[:],
            self.used[:],
            self.collected,
            self.looked[:],
            self.recruited,
        )


@dataclass(slots=True)
class Building:
    """A building on an island: who built it and from which tile."""

    owner: int
    tile: str

    def clone(self) -> Building:
        """A copy."""
        return Building(self.owner, self.tile)


@dataclass(slots=True)
class State:
    """The whole game: board, decks, tracks, players, the current turn and the random state."""

    board: str
    rng: int
    players: list[Player]
    island_tokens: list[int]  # culture index or NONE
    mountains: list[bool]
    sacred: list[bool]
    buildings: list[Building | None]
    spot_boats: list[int]  # boat type index or NONE
    reserve: list[int]
    sacred_left: int
    specialist_deck: list[str]  # index 0 is the top
    specialist_track: list[str | None]
    specialist_coins: list[int]
    building_deck: list[str]  # index 0 is the top
    building_row: list[str]
    fleet_track: list[int]  # fleet numbers by track position, 0 for an empty position
    turn_order: list[int]  # seat of each turn-order meeple, in playing order
    turn_index: int = 0
    round: int = 1
    played: list[int] = field(default_factory=list)  # fleet numbers played this round, in order
    turn: Turn = field(default_factory=Turn)
    last_building: bool = False
    over: bool = False
    end_reasons: list[str] = field(default_factory=list)
    step_order: str = RULEBOOK_ORDER

    @property
    def rulebook_order(self) -> bool:
        """Whether the harbor step comes before recruiting (every game begun since schema 2)."""
        return self.step_order == RULEBOOK_ORDER

    @property
    def seat(self) -> int:
        """The seat whose turn it is (meaningless once over)."""
        return self.turn_order[self.turn_index]

    def clone(self) -> State:
        """A deep copy, much faster than copy.deepcopy."""
        return State(
            self.board,
            self.rng,
            [p.clone() for p in self.players],
            self.island_tokens[:],
            self.mountains[:],
            self.sacred[:],
            [b.clone() if b else None for b in self.buildings],
            self.spot_boats[:],
            self.reserve[:],
            self.sacred_left,
            self.specialist_deck[:],
            self.specialist_track[:],
            self.specialist_coins[:],
            self.building_deck[:],
            self.building_row[:],
            self.fleet_track[:],
            self.turn_order[:],
            self.turn_index,
            self.round,
            self.played[:],
            self.turn.clone(),
            self.last_building,
            self.over,
            self.end_reasons[:],
            self.step_order,
        )

    def to_dict(self) -> JsonObject:
        """JSON-ready data, with the schema version."""
        data: JsonObject = {"schema": SCHEMA}
        for name in _NAMES[State]:
            value = getattr(self, name)
            if name == "players":
                value = [_plain(p) for p in value]
            elif name == "buildings":
                value = [_plain(b) if b else None for b in value]
            elif name == "turn":
                value = _plain(value)
            data[name] = value
        return data

    @classmethod
    def from_dict(cls, data: JsonObject) -> State:
        """Rebuild a state from ``to_dict`` output; KeyError/TypeError/ValueError if malformed."""
        if data.get("schema") == 1:
            data = {**data, "schema": SCHEMA, "step_order": RECRUIT_FIRST}
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unknown state schema {data.get('schema')!r}")
        if data["step_order"] not in STEP_ORDERS:
            raise ValueError(f"unknown step order {data['step_order']!r}")
        values = {f.name: data[f.name] for f in fields(cls)}
        values["players"] = [Player(**p) for p in values["players"]]
        values["buildings"] = [Building(**b) if b else None for b in values["buildings"]]
        values["turn"] = Turn(**values["turn"])
        return cls(**values)


def _plain(obj: Player | Turn | Building) -> JsonObject:
    return {name: _copy(getattr(obj, name)) for name in _NAMES[type(obj)]}


def _copy(value: object) -> object:
    return value[:] if isinstance(value, list) else value


# Each dataclass's field names, in order (``fields`` builds them anew at each call: saving a
# state asked for them about 40 times).
_NAMES = {kind: tuple(f.name for f in fields(kind)) for kind in (State, Player, Turn, Building)}
