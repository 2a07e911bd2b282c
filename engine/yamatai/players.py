"""Yamatai's computer players: the greedy one-ply player, and the random one."""

from __future__ import annotations

from engine.contract import ComputerPlayer, View
from engine.players import legal_of, random_player, seeded
from engine.rng import Rng
from engine.yamatai import rules
from engine.yamatai.context import Ctx, context
from engine.yamatai.estimate import estimate
from engine.yamatai.infer import state_from_view
from engine.yamatai.notation import Action
from engine.yamatai.powers import FLEET_POWERS, SPECIALIST_POWERS
from engine.yamatai.state import State

__all__ = ["PLAYERS", "greedy_player", "random_player"]

MAX_POWER_CANDIDATES = 60  # greedy samples this many power actions when there are more
_POWER_KINDS = set(FLEET_POWERS) | set(SPECIALIST_POWERS)


def greedy_player(view: View, seed: int) -> str:
    """The legal action with the best score estimate after one ply (ties broken by the seed)."""
    legal = legal_of(view)
    if len(legal) == 1:
        return legal[0]
    generator = seeded(view, seed)
    ctx = context(view["board"])
    base = state_from_view(view, generator.below(1 << 62))
    return ctx.notation.format(greedy_action(ctx, base, view["viewer"], generator))


def ranked_actions(
    ctx: Ctx, st: State, seat: int, generator: Rng, powers_kept: int = MAX_POWER_CANDIDATES
) -> list[tuple[Action, float]]:
    """Legal actions with their one-ply estimate for ``seat``, in the legal order.

    Power actions beyond ``powers_kept`` are left out, a seeded sample kept."""
    actions = rules.legal_actions(ctx, st)
    powers = [a for a in actions if a.kind in _POWER_KINDS]
    if len(powers) > powers_kept:
        keep = {id(powers[generator.below(len(powers))]) for _ in range(powers_kept)}
        actions = [a for a in actions if a.kind not in _POWER_KINDS or id(a) in keep]
    valued = []
    for action in actions:
        after = st.clone()
        rules.apply(ctx, after, action)
        value = estimate(ctx, after, seat)
        if action.kind in _POWER_KINDS:
            value -= 0.01  # a power that gains nothing is not worth a step
        valued.append((action, value))
    return valued


def greedy_action(
    ctx: Ctx, st: State, seat: int, generator: Rng, powers_kept: int = MAX_POWER_CANDIDATES
) -> Action:
    """The greedy choice in a full state: the best one-ply estimate, ties broken at random."""
    best: list[Action] = []
    best_value = float("-inf")
    for action, value in ranked_actions(ctx, st, seat, generator, powers_kept):
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[generator.below(len(best))]


PLAYERS: dict[str, ComputerPlayer] = {"greedy": greedy_player, "random": random_player}
