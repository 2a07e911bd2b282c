"""Rebuild a playable state from a seat's view, filling hidden parts with a seeded guess."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine import rng
from engine.contract import View
from engine.yamatai.context import Ctx, context
from engine.yamatai.state import NONE, STEP_NAMES, Building, Player, State, Turn
from engine.yamatai.view import figure


def state_from_view(view: View, seed: int) -> State:
    """A state consistent with everything in the view; decks and hidden fleets are shuffled."""
    ctx = context(view["board"])
    comp = ctx.comp
    boat = {name: i for i, name in enumerate(comp.boat_names)}
    culture = {name: i for i, name in enumerate(comp.culture_names)}
    spot = ctx.board.spot_index
    state = rng.seed_state(seed)

    def counts(names: list[str], index: dict[str, int], size: int) -> list[int]:
        out = [0] * size
        for name in names:
            out[index[name]] += 1
        return out

    players = []
    for p in view["players"]:
        tokens = [0] * len(comp.culture_names)
        for name, n in p["tokens"].items():
            tokens[culture[name]] = n
        players.append(
            Player(
                name=p["name"],
                colour=p["colour"],
                coins=p["coins"],
                buildings_left=p["buildings_left"],
                pp_tokens=p["pp_tokens"],
                boats=counts(p["boats"], boat, len(boat)),
                set_aside=counts(p["set_aside"], boat, len(boat)),
                tokens=tokens,
                tiles=list(p["tiles"]),
                specialists=list(p["specialists"]),
                reserved=[t["id"] for t in p["reserved"]],
                fleets=list(p["fleets"]),
            )
        )

    turn_view = view["turn"] or {}
    looked = [t["id"] for t in turn_view.get("looked", [])]
    known_tiles = {t["id"] for t in view["building_row"]} | set(looked)
    for p in players:
        known_tiles |= set(p.tiles) | set(p.reserved)
    unseen_tiles = sorted(set(comp.buildings) - known_tiles)
    state = rng.shuffle(state, unseen_tiles)
    buildings = _buildings(ctx, view["islands"], players, unseen_tiles)

    track = [s["name"] if s else None for s in view["specialist_track"]]
    owned = {name for p in players for name in p.specialists}
    unseen_specialists = sorted(set(comp.specialists) - owned - {t for t in track if t})
    state = rng.shuffle(state, unseen_specialists)

    played = _played_fleets(view, players)
    visible = [f["fleet"] or 0 for f in view["fleet_track"] if f["face_up"]]
    hidden_count = sum(1 for f in view["fleet_track"] if f.get("hidden"))
    unseen_fleets = sorted(set(comp.fleets) - set(visible) - set(played))
    state = rng.shuffle(state, unseen_fleets)
    fleet_track = visible + unseen_fleets[:hidden_count]
    fleet_track += [0] * (len(view["fleet_track"]) - len(fleet_track))

    turn = Turn()
    if view["turn"]:
        turn = Turn(
            step=STEP_NAMES.index(turn_view["step"]),
            fleet=turn_view["fleet"] or 0,
            trades=turn_view["trades"],
            placed=[spot[s] for s in turn_view["placed"]],
            used=list(turn_view["used_powers"]),
            collected=turn_view["collected"],
            recruited=turn_view["recruited"] or "",
            looked=looked,
        )

    return State(
        board=view["board"],
        rng=state,
        players=players,
        island_tokens=[culture[i["token"]] if i["token"] else NONE for i in view["islands"]],
        mountains=[i["mountain"] for i in view["islands"]],
        sacred=[i["sacred"] for i in view["islands"]],
        buildings=buildings,
        spot_boats=[boat[s["boat"]] if s["boat"] else NONE for s in view["spots"]],
        reserve=[view["reserve"][name] for name in comp.boat_names],
        sacred_left=view["sacred_left"],
        specialist_deck=unseen_specialists[: view["specialist_deck"]],
        specialist_track=track,
        specialist_coins=[s["coins"] if s else 0 for s in view["specialist_track"]],
        building_deck=unseen_tiles[: view["building_deck"]],
        building_row=[t["id"] for t in view["building_row"]],
        fleet_track=fleet_track,
        turn_order=list(view["turn_order"]),
        turn_index=view["turn_index"],
        round=view["round"],
        played=played,
        turn=turn,
        last_building=view["last_building"],
        over=view["over"],
        end_reasons=list(view["outcome"]["end_reasons"]) if view["outcome"] else [],
    )


def _played_fleets(view: View, players: list[Player]) -> list[int]:
    """Fleets played this round, in meeple order, from each player's fleets in play order."""
    seen: Counter[int] = Counter()
    played = []
    order = view["turn_order"]
    for seat in order[: view["turn_index"] + 1]:
        fleets = players[seat].fleets
        if seen[seat] < len(fleets):
            played.append(fleets[seen[seat]])
        seen[seat] += 1
    return played


def _buildings(
    ctx: Ctx, islands: list[dict[str, Any]], players: list[Player], unseen: list[str]
) -> list[Building | None]:
    """Buildings on the islands; a face-down tile is guessed from the unseen tiles of its figure.

    A guessed tile goes to its owner's built tiles and leaves ``unseen`` (the rest is the deck).
    """
    result: list[Building | None] = []
    for island in islands:
        building = island["building"]
        if building is None:
            result.append(None)
            continue
        tile = building["tile"]
        if tile is None:
            tile = next(t for t in unseen if figure(ctx, t) == building["kind"])
            unseen.remove(tile)
            players[building["owner"]].tiles.append(tile)
        result.append(Building(building["owner"], tile))
    return result
