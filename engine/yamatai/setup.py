"""Setting up a new game of Yamatai, exactly as the rulebook's set-up section says."""

from __future__ import annotations

from engine import rng
from engine.yamatai.context import Ctx
from engine.yamatai.state import NONE, RULEBOOK_ORDER, Player, State


def culture_tokens(ctx: Ctx) -> list[tuple[int, bool]]:
    """The 34 culture tokens as (culture or NONE for blank, is a mountain token)."""
    comp = ctx.comp
    tokens: list[tuple[int, bool]] = []
    for culture in range(len(comp.culture_names)):
        tokens.append((culture, True))
        tokens += [(culture, False)] * (comp.culture_per_type - 1)
    tokens.append((NONE, True))
    tokens += [(NONE, False)] * (comp.culture_blank - 1)
    return tokens


def new_state(ctx: Ctx, names: list[str], seed: int, step_order: str = RULEBOOK_ORDER) -> State:
    """A fresh game for 2 to 4 named players from a seed."""
    comp = ctx.comp
    state = rng.seed_state(seed)

    specialists = list(comp.specialists)
    state = rng.shuffle(state, specialists)
    track_size = comp.specialist_track_size

    buildings = list(comp.buildings)
    state = rng.shuffle(state, buildings)
    row_size = comp.building_row_size

    fleets = sorted(comp.fleets)
    state = rng.shuffle(state, fleets)

    tokens = culture_tokens(ctx)
    if len(tokens) != len(ctx.board.island_labels):
        raise ValueError("one culture token per island: token and island counts differ")
    state = rng.shuffle(state, tokens)

    seats = list(range(len(names)))
    state = rng.shuffle(state, seats)
    turn_order = seats * 2 if len(names) == 2 else seats

    per_player = comp.standard_buildings[len(names)]
    players = [
        Player(name, comp.player_colours[i], comp.starting_coins, per_player)
        for i, name in enumerate(names)
    ]
    return State(
        board=ctx.board_name,
        rng=state,
        players=players,
        island_tokens=[culture for culture, _ in tokens],
        mountains=[mountain for _, mountain in tokens],
        sacred=[False] * len(tokens),
        buildings=[None] * len(tokens),
        spot_boats=[NONE] * len(ctx.board.spot_labels),
        reserve=list(comp.boat_counts),
        sacred_left=comp.sacred_grounds,
        specialist_deck=specialists[track_size:],
        specialist_track=list(specialists[:track_size]),
        specialist_coins=[0] * track_size,
        building_deck=buildings[row_size:],
        building_row=buildings[:row_size],
        fleet_track=fleets,
        turn_order=turn_order,
        step_order=step_order,
    )
