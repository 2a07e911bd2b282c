"""A simple score estimate of a Yamatai position for one seat, used by the greedy player."""

from __future__ import annotations

from operator import add

from engine.yamatai.common import adjacent_boats, current, has, island_is_empty
from engine.yamatai.context import Ctx
from engine.yamatai.scoring import score_lines
from engine.yamatai.state import NONE, PLACE, TRADE, State
from engine.yamatai.turn import (
    buildable_tiles,
    collect_sets,
    first_spots,
    gen_build,
    missing,
    shortfall_allowed,
)

TOKEN = 0.7  # a culture token: half of a specialist's PP and coins
BOAT_HELD = 0.15  # a boat in hand can still be used (less than the cheapest price)
PLACED_NEAR_TOKEN = 0.35  # a placed boat that can still collect
BUILD_IN_REACH = 0.6  # share of a building's worth when the boats it lacks are in hand


def estimate(ctx: Ctx, st: State, seat: int) -> float:
    """Running score (with fractional coins and set-aside boats) plus what is in hand."""
    player = st.players[seat]
    lines = score_lines(ctx, player)
    per_pp = 3 if has(player, "Fu-Hsi") else 5
    value = float(sum(lines.values()) - lines["coins"] - lines["set_aside"])
    value += player.coins / per_pp - sum(player.set_aside) / 2
    value += TOKEN * sum(player.tokens) + BOAT_HELD * sum(player.boats)
    if not st.over and st.seat == seat and st.turn.step in (TRADE, PLACE):
        value += _turn_potential(ctx, st)
    return value


def _turn_potential(ctx: Ctx, st: State) -> float:
    """What this turn's boats can still earn by collecting or building."""
    best = 0.0
    if st.turn.placed:
        sets = collect_sets(ctx, st)
        best = PLACED_NEAR_TOKEN * len(sets[0]) if sets else 0.0
        for tile_id, _island in gen_build(ctx, st):
            best = max(best, float(ctx.comp.buildings[tile_id].pp) + 0.5)
    return max(best, _build_within_reach(ctx, st))


def _reachable_spots(ctx: Ctx, st: State) -> set[int]:
    """Spots the boats in hand could still occupy this turn, following the placing rules."""
    player = current(st)
    held = sum(player.boats)
    if not held:
        return set()
    boats = st.spot_boats
    links = ctx.board.spot_links
    if st.turn.placed:
        frontier = {t for t in links[st.turn.placed[-1]] if boats[t] == NONE}
    else:
        frontier = first_spots(ctx, st)
    reached = set(frontier)
    for _ in range(held - 1):
        frontier = {t for s in frontier for t in links[s] if boats[t] == NONE} - reached
        reached |= frontier
    return reached


def _build_within_reach(ctx: Ctx, st: State) -> float:
    """Part of the best building whose missing boats are all in hand, near where they can go."""
    player = current(st)
    spots = _reachable_spots(ctx, st) | set(st.turn.placed)
    islands = {i for s in spots for i in ctx.board.spot_islands[s]}
    tiles = [ctx.comp.buildings[t] for t in buildable_tiles(st)]
    # The most valuable first: on each island the first tile within reach is its best, and
    # none after one no better than the best found can count (the same maximum, found sooner).
    tiles = sorted(
        (t for t in tiles if t.prestige or player.buildings_left > 0),
        key=lambda t: t.pp,
        reverse=True,
    )
    allowance = shortfall_allowed(ctx, st)
    best = 0.0
    for island in islands:
        if not island_is_empty(st, island):
            continue
        reach = list(map(add, adjacent_boats(ctx, st, island), player.boats))  # near or in hand
        for tile in tiles:
            worth = BUILD_IN_REACH * tile.pp
            if worth <= best:
                break
            if missing(tile, reach) <= allowance:
                best = worth
                break
    return best
