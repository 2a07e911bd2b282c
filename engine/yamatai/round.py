"""Passing the turn, preparing the next round, and the four end conditions."""

from __future__ import annotations

from engine import rng
from engine.contract import Event
from engine.yamatai.context import Ctx
from engine.yamatai.scoring import outcome
from engine.yamatai.state import State, Turn


def next_turn(ctx: Ctx, st: State) -> list[Event]:
    """Pass to the next turn-order meeple; after the last, end the round."""
    st.turn = Turn()
    st.turn_index += 1
    if st.turn_index < len(st.turn_order):
        return [{"type": "turn", "seat": st.seat, "round": st.round}]
    return end_round(ctx, st)


def end_round(ctx: Ctx, st: State) -> list[Event]:
    """The rulebook's end-of-round steps 1-5, checking the end conditions as they come."""
    events: list[Event] = [{"type": "round_end", "round": st.round}]
    if st.last_building:
        return events + finish(ctx, st, ["last_building"])
    reasons = _refill_specialists(ctx, st) + _refill_buildings(ctx, st)
    if any(n == 0 for n in st.reserve):
        reasons.append("boats")
    if reasons:
        return events + finish(ctx, st, reasons)
    _next_turn_order(st)
    _renew_fleet_track(ctx, st)
    st.round += 1
    st.turn_index = 0
    for player in st.players:
        player.fleets = []
    events.append({"type": "round_start", "round": st.round, "turn_order": st.turn_order[:]})
    events.append({"type": "turn", "seat": st.seat, "round": st.round})
    return events


def _refill_specialists(ctx: Ctx, st: State) -> list[str]:
    """Step 1: two coins on each face-up specialist, then refill the track."""
    for slot, name in enumerate(st.specialist_track):
        if name is not None:
            st.specialist_coins[slot] += ctx.comp.specialist_coins_per_round
    for slot, name in enumerate(st.specialist_track):
        if name is None:
            if not st.specialist_deck:
                return ["specialists"]
            st.specialist_track[slot] = st.specialist_deck.pop(0)
            st.specialist_coins[slot] = 0
    return []


def _refill_buildings(ctx: Ctx, st: State) -> list[str]:
    """Step 2: draw building tiles until five are face up."""
    while len(st.building_row) < ctx.comp.building_row_size:
        if not st.building_deck:
            return ["buildings"]
        st.building_row.append(st.building_deck.pop(0))
    return []


def _next_turn_order(st: State) -> None:
    """Step 3: each meeple goes to the number of the fleet played with it."""
    meeples = sorted(range(len(st.played)), key=lambda i: st.played[i])
    st.turn_order = [st.turn_order[i] for i in meeples]


def _renew_fleet_track(ctx: Ctx, st: State) -> None:
    """Steps 4-5: slide the remaining tiles left, shuffle the played ones onto the right."""
    remaining = [f for f in st.fleet_track if f]
    played = st.played[:]
    st.rng = rng.shuffle(st.rng, played)
    st.fleet_track = remaining + played
    st.played = []


def finish(ctx: Ctx, st: State, reasons: list[str]) -> list[Event]:
    """End the game; the outcome follows from the state."""
    st.over = True
    st.end_reasons = reasons
    return [{"type": "game_end", "reasons": reasons, "outcome": outcome(ctx, st)}]
