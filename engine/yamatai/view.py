"""What one seat (or a spectator) may see of a Yamatai game, as JSON-ready data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast

from engine.yamatai.common import boat_list
from engine.yamatai.context import Ctx
from engine.yamatai.rules import shown_step
from engine.yamatai.scoring import outcome, score_lines
from engine.yamatai.state import STEP_NAMES, Building, Player, State
from engine.yamatai.turn import harbor_capacity, trade_limit

VIEW_SCHEMA = 2  # 2: step_order, face-down built tiles (hidden_tiles, building tile None)


class YamataiTile(TypedDict):
    """A building tile: its id, the boats it needs, its prestige points and its kind."""

    id: str
    boats: list[str]
    pp: int
    kind: str


class YamataiScore(TypedDict):
    """A player's running score: its total and each scoring line."""

    total: int
    lines: dict[str, int]


class YamataiPlayer(TypedDict):
    """A seat's mat as the viewer sees it (others' built tiles only counted, face down)."""

    seat: int
    name: str
    colour: str
    coins: int
    pp_tokens: int
    boats: list[str]
    set_aside: list[str]
    tokens: dict[str, int]
    buildings_left: int
    tiles: list[str]
    hidden_tiles: int
    specialists: list[str]
    reserved: list[YamataiTile]
    fleets: list[int]
    harbor_capacity: int
    score: YamataiScore


class YamataiBuilding(TypedDict):
    """A building on an island: its owner and figure, its tile (None: face down to the viewer)."""

    tile: str | None
    owner: int
    kind: str


class YamataiIsland(TypedDict):
    """An island: its culture token, mountain, sacred site and building."""

    label: str
    token: str | None
    mountain: bool
    sacred: bool
    building: YamataiBuilding | None


class YamataiSpot(TypedDict):
    """A boat spot of the sea: the boat on it and whether it was placed this turn."""

    label: str
    boat: str | None
    placed_this_turn: bool


class YamataiSpecialist(TypedDict):
    """A specialist card on the track: its prestige points, power and the coins on it."""

    name: str
    pp: int
    power: str
    coins: int


class YamataiView(TypedDict):
    """What a seat (``viewer``; None: a spectator) sees of a Yamatai game (docs/render.md)."""

    game: Literal["yamatai"]
    schema: int
    board: str
    viewer: int | None
    round: int
    current_seat: int | None
    over: bool
    turn_order: list[int]
    turn_index: int
    last_building: bool
    step_order: str
    players: list[YamataiPlayer]
    islands: list[YamataiIsland]
    spots: list[YamataiSpot]
    reserve: dict[str, int]
    sacred_left: int
    fleet_track: list[dict[str, Any]]
    building_row: list[YamataiTile]
    building_deck: int
    specialist_track: list[YamataiSpecialist | None]
    specialist_deck: int
    turn: dict[str, Any] | None
    legal_actions: list[str]
    outcome: dict[str, Any] | None


def view(ctx: Ctx, st: State, seat: int | None, legal: list[str] | None) -> YamataiView:
    """The public game plus what ``seat`` alone may see; ``legal`` is listed for the actor."""
    current = None if st.over else st.seat
    return {
        "game": "yamatai",
        "schema": VIEW_SCHEMA,
        "board": ctx.board_name,
        "viewer": seat,
        "round": st.round,
        "current_seat": current,
        "over": st.over,
        "turn_order": st.turn_order[:],
        "turn_index": min(st.turn_index, len(st.turn_order) - 1),
        "last_building": st.last_building,
        "step_order": st.step_order,
        "players": [_player(ctx, st, seat, seat_, p) for seat_, p in enumerate(st.players)],
        "islands": _islands(ctx, st, seat),
        "spots": _spots(ctx, st),
        "reserve": dict(zip(ctx.comp.boat_names, st.reserve, strict=True)),
        "sacred_left": st.sacred_left,
        "fleet_track": _fleet_track(ctx, st),
        "building_row": [_tile(ctx, t) for t in st.building_row],
        "building_deck": len(st.building_deck),
        "specialist_track": _specialists(ctx, st),
        "specialist_deck": len(st.specialist_deck),
        "turn": _turn(ctx, st, seat),
        "legal_actions": legal if (legal is not None and seat == current) else [],
        "outcome": outcome(ctx, st) if st.over else None,
    }


def yamatai_view(data: Mapping[str, object]) -> YamataiView:
    """A view handed on untyped (``engine.contract.View``: from the registry, a snapshot, a
    record) as Yamatai's, once its ``game`` says it is one (ValueError for another game's)."""
    if data.get("game") != "yamatai":
        raise ValueError(f"not a Yamatai view (game {data.get('game')!r})")
    return cast(YamataiView, data)


def tiles_shown(st: State, viewer: int | None, owner: int) -> bool:
    """Built tiles lie face down: only their builder sees them until the game is over."""
    return st.over or viewer == owner


def figure(ctx: Ctx, tile_id: str) -> str:
    """What stands on the island for a tile: a standard building, a torii or a palace."""
    tile = ctx.comp.buildings[tile_id]
    return tile.kind if tile.prestige else "standard"


def _player(ctx: Ctx, st: State, viewer: int | None, seat: int, p: Player) -> YamataiPlayer:
    shown = tiles_shown(st, viewer, seat)
    lines = score_lines(ctx, p if shown else _without_tiles(p))
    return {
        "seat": seat,
        "name": p.name,
        "colour": p.colour,
        "coins": p.coins,
        "pp_tokens": p.pp_tokens,
        "boats": boat_list(ctx, p.boats),
        "set_aside": boat_list(ctx, p.set_aside),
        "tokens": {c: n for c, n in zip(ctx.comp.culture_names, p.tokens, strict=True) if n},
        "buildings_left": p.buildings_left,
        "tiles": p.tiles[:] if shown else [],
        "hidden_tiles": 0 if shown else len(p.tiles),
        "specialists": p.specialists[:],
        "reserved": [_tile(ctx, t) for t in p.reserved],
        "fleets": p.fleets[:],
        "harbor_capacity": harbor_capacity(ctx, p),
        # Others' running score leaves out the PP of face-down tiles (``hidden_tiles`` of them).
        "score": {"total": sum(lines.values()), "lines": lines},
    }


def _without_tiles(p: Player) -> Player:
    hidden = p.clone()
    hidden.tiles = []
    return hidden


def _islands(ctx: Ctx, st: State, viewer: int | None) -> list[YamataiIsland]:
    islands: list[YamataiIsland] = []
    for i, label in enumerate(ctx.board.island_labels):
        token = st.island_tokens[i]
        building = st.buildings[i]
        islands.append(
            {
                "label": label,
                "token": ctx.comp.culture_names[token] if token >= 0 else None,
                "mountain": st.mountains[i],
                "sacred": st.sacred[i],
                "building": _building(ctx, st, viewer, building) if building else None,
            }
        )
    return islands


def _building(ctx: Ctx, st: State, viewer: int | None, building: Building) -> YamataiBuilding:
    """The building on an island: its owner and figure for all, its tile for whoever sees it."""
    if tiles_shown(st, viewer, building.owner):
        tile = ctx.comp.buildings[building.tile]
        return {"tile": tile.id, "owner": building.owner, "kind": tile.kind}
    return {"tile": None, "owner": building.owner, "kind": figure(ctx, building.tile)}


def _spots(ctx: Ctx, st: State) -> list[YamataiSpot]:
    placed = set(st.turn.placed)
    return [
        {
            "label": label,
            "boat": ctx.comp.boat_names[boat] if boat >= 0 else None,
            "placed_this_turn": s in placed,
        }
        for s, (label, boat) in enumerate(zip(ctx.board.spot_labels, st.spot_boats, strict=True))
    ]


def _fleet_track(ctx: Ctx, st: State) -> list[dict[str, Any]]:
    track = []
    for position, number in enumerate(st.fleet_track):
        face_up = position < ctx.comp.fleet_visible
        entry: dict[str, Any] = {"position": position, "face_up": face_up, "fleet": None}
        if number and face_up:
            fleet = ctx.comp.fleets[number]
            entry.update(
                fleet=number,
                boats=[ctx.comp.boat_names[b] for b in fleet.boats],
                power=fleet.power,
                text=fleet.text,
            )
        elif number:
            entry["hidden"] = True
        track.append(entry)
    return track


def _tile(ctx: Ctx, tile_id: str) -> YamataiTile:
    tile = ctx.comp.buildings[tile_id]
    return {
        "id": tile_id,
        "boats": boat_list(ctx, list(tile.needs)),
        "pp": tile.pp,
        "kind": tile.kind,
    }


def _specialists(ctx: Ctx, st: State) -> list[YamataiSpecialist | None]:
    track: list[YamataiSpecialist | None] = []
    for name, coins in zip(st.specialist_track, st.specialist_coins, strict=True):
        if name is None:
            track.append(None)
            continue
        card = ctx.comp.specialists[name]
        track.append({"name": name, "pp": card.pp, "power": card.power, "coins": coins})
    return track


def _turn(ctx: Ctx, st: State, seat: int | None) -> dict[str, Any] | None:
    if st.over:
        return None
    t = st.turn
    data: dict[str, Any] = {
        "seat": st.seat,
        "step": STEP_NAMES[t.step],
        "label": shown_step(ctx, st),  # the step to show: what is legal next (D141)
        "fleet": t.fleet or None,
        "trades": t.trades,
        "trades_allowed": trade_limit(st.players[st.seat]),
        "placed": [ctx.spot(s) for s in t.placed],
        "used_powers": t.used[:],
        "collected": t.collected,
        "recruited": t.recruited or None,
        "looking": bool(t.looked),
    }
    if seat == st.seat and t.looked:
        data["looked"] = [_tile(ctx, tile) for tile in t.looked]
    return data
