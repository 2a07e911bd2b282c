"""Yamatai's computer players: the greedy one-ply player, and the random one."""

from __future__ import annotations

from typing import Any

from engine.contract import ComputerPlayer
from engine.players import legal_of, random_player, seeded
from engine.yamatai import rules
from engine.yamatai.context import context
from engine.yamatai.estimate import estimate
from engine.yamatai.infer import state_from_view
from engine.yamatai.powers import FLEET_POWERS, SPECIALIST_POWERS

__all__ = ["PLAYERS", "greedy_player", "random_player"]

MAX_POWER_CANDIDATES = 60  # greedy samples this many power actions when there are more
_POWER_KINDS = set(FLEET_POWERS) | set(SPECIALIST_POWERS)


def greedy_player(view: dict[str, Any], seed: int) -> str:
    """The legal action with the best score estimate after one ply (ties broken by the seed)."""
    legal = legal_of(view)
    if len(legal) == 1:
        return legal[0]
    generator = seeded(view, seed)
    seat = view["viewer"]
    ctx = context(view["board"])
    base = state_from_view(view, generator.below(1 << 62))
    actions = rules.legal_actions(ctx, base)
    powers = [a for a in actions if a.kind in _POWER_KINDS]
    if len(powers) > MAX_POWER_CANDIDATES:
        keep = {id(powers[generator.below(len(powers))]) for _ in range(MAX_POWER_CANDIDATES)}
        actions = [a for a in actions if a.kind not in _POWER_KINDS or id(a) in keep]
    best: list[str] = []
    best_value = float("-inf")
    for action in actions:
        st = base.clone()
        rules.apply(ctx, st, action)
        value = estimate(ctx, st, seat)
        if action.kind in _POWER_KINDS:
            value -= 0.01  # a power that gains nothing is not worth a step
        if value > best_value + 1e-9:
            best, best_value = [ctx.notation.format(action)], value
        elif value > best_value - 1e-9:
            best.append(ctx.notation.format(action))
    return best[generator.below(len(best))]


PLAYERS: dict[str, ComputerPlayer] = {"greedy": greedy_player, "random": random_player}
