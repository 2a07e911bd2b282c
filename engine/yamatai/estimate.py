"""A simple score estimate of a Yamatai position for one seat, used by the greedy player."""

from __future__ import annotations

from engine.yamatai.common import has
from engine.yamatai.context import Ctx
from engine.yamatai.scoring import score_lines
from engine.yamatai.state import PLACE, TRADE, State
from engine.yamatai.turn import buildable_tiles, collect_sets, gen_build

TOKEN = 0.7  # a culture token: half of a specialist's PP and coins
BOAT_HELD = 0.15  # a boat in hand can still be used (less than the cheapest price)
PLACED_NEAR_TOKEN = 0.35  # a placed boat that can still collect
BUILD_PROGRESS = 0.5  # share of a building's worth counted for boats already around an island


def estimate(ctx: Ctx, st: State, seat: int) -> float:
    """Running score (with fractional coins and set-aside boats) plus what is in hand."""
    player = st.players[seat]
    lines = score_lines(ctx, player)
    per_pp = 3 if has(player, "Fu-Hsi") else 5
    value = float(sum(lines.values()) - lines["coins"] - lines["set_aside"])
    value += player.coins / per_pp - sum(player.set_aside) / 2
    value += TOKEN * sum(player.tokens) + BOAT_HELD * sum(player.boats)
    if not st.over and st.seat == seat and st.turn.step in (TRADE, PLACE) and st.turn.placed:
        value += _turn_potential(ctx, st)
    return value


def _turn_potential(ctx: Ctx, st: State) -> float:
    """What the boats placed this turn can still earn by collecting or building."""
    sets = collect_sets(ctx, st)
    best = PLACED_NEAR_TOKEN * len(sets[0]) if sets else 0.0
    for tile_id, _island in gen_build(ctx, st):
        best = max(best, float(ctx.comp.buildings[tile_id].pp) + 0.5)
    if best == 0.0:
        best = _build_progress(ctx, st)
    return best


def _build_progress(ctx: Ctx, st: State) -> float:
    """Partial credit for islands next to the chain that already have some required boats."""
    tiles = [ctx.comp.buildings[t] for t in buildable_tiles(st)]
    best = 0.0
    islands = {i for s in st.turn.placed for i in ctx.board.spot_islands[s]}
    for island in islands:
        have = [0] * len(ctx.comp.boat_names)
        for spot in ctx.board.island_spots[island]:
            boat = st.spot_boats[spot]
            if boat >= 0:
                have[boat] += 1
        for tile in tiles:
            need = sum(tile.needs)
            got = sum(min(n, have[b]) for b, n in enumerate(tile.needs))
            best = max(best, BUILD_PROGRESS * tile.pp * got / need)
    return best
