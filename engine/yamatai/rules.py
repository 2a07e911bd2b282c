"""The checked entry point of Yamatai: legal actions, checking and applying one action."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.contract import Event
from engine.yamatai import powers, turn
from engine.yamatai.context import Ctx
from engine.yamatai.notation import Action
from engine.yamatai.refusals import illegal
from engine.yamatai.round import next_turn
from engine.yamatai.state import FLEET, PLACE, TRADE, State

Args = tuple[Any, ...]
Check = Callable[[Ctx, State, Args], None]
Apply = Callable[[Ctx, State, Args], list[Event]]
Generate = Callable[[Ctx, State], Iterable[Args]]

_TURN_ACTIONS: dict[str, tuple[Check, Apply, Generate]] = {
    "fleet": (turn.check_fleet, turn.apply_fleet, turn.gen_fleet),
    "buy": (turn.check_buy, turn.apply_buy, turn.gen_buy),
    "sell": (turn.check_sell, turn.apply_sell, turn.gen_sell),
    "place": (turn.check_place, turn.apply_place, turn.gen_place),
    "collect": (turn.check_collect, turn.apply_collect, turn.gen_collect),
    "build": (turn.check_build, turn.apply_build, turn.gen_build),
    "keep": (turn.check_keep, turn.apply_keep, turn.gen_keep),
    "recruit": (turn.check_recruit, turn.apply_recruit, turn.gen_recruit),
    "end": (turn.check_end, turn.apply_end, turn.gen_end),
}
POWER_KINDS = tuple(powers.FLEET_POWERS) + tuple(powers.SPECIALIST_POWERS)
# The order in which legal actions are listed: the turn's own order, powers, then the end.
ORDER = (
    "fleet",
    "buy",
    "sell",
    "place",
    "collect",
    "build",
    "keep",
    "recruit",
    *POWER_KINDS,
    "end",
)


def check(ctx: Ctx, st: State, action: Action) -> None:
    """Raise IllegalAction unless the action is legal now (the state is not changed)."""
    kind = action.kind
    if st.turn.looked and kind != "arrange":
        raise illegal("arrange_first", tiles=" ".join(st.turn.looked))
    if st.turn.step == FLEET and kind != "fleet":
        raise illegal("choose_fleet_first")
    if kind in _TURN_ACTIONS:
        _TURN_ACTIONS[kind][0](ctx, st, action.args)
    else:
        powers.check_power(ctx, st, kind, action.args)


def apply(ctx: Ctx, st: State, action: Action, pass_turn: bool = True) -> list[Event]:
    """Apply a checked action; after 'end', pass the turn (and maybe end the round)."""
    kind = action.kind
    if kind in _TURN_ACTIONS:
        events = _TURN_ACTIONS[kind][1](ctx, st, action.args)
    else:
        events = powers.apply_power(ctx, st, kind, action.args)
    if kind == "end" and pass_turn:
        events += next_turn(ctx, st)
    return events


def legal_actions(ctx: Ctx, st: State) -> list[Action]:
    """Every legal action now, in a fixed order (``ORDER``)."""
    if st.over:
        return []
    if st.turn.looked:
        return _actions("arrange", powers.gen_power(ctx, st, "arrange"))
    if st.turn.step == FLEET:
        return _actions("fleet", turn.gen_fleet(ctx, st))
    actions: list[Action] = []
    extend = actions.extend
    before = -1  # how many actions come before collect and build (-1: neither asked in this step)
    for kind in _STEP_KINDS.get(st.turn.step, ()):
        if kind == "collect":
            before = len(actions)
            actions += _actions("collect", turn.gen_collect(ctx, st))
        else:
            extend(map(_INTERNED[kind].__getitem__, _TURN_ACTIONS[kind][2](ctx, st)))
    can_act = 0 <= before < len(actions)  # turn.can_collect_or_build: collect or build listed
    # Boats waiting for the harbor step may be kept, and nothing else ends the turn or recruits
    # yet; with none waiting, the reverse (each generator still checks its own conditions).
    pending = turn.harbor_pending(st)
    if pending:
        extend(map(_KEEP, turn.gen_keep(ctx, st, can_act)))
    else:
        extend(map(_RECRUIT, turn.gen_recruit(ctx, st, can_act)))
    for kind in powers.ready_powers(ctx, st):
        extend(map(_INTERNED[kind].__getitem__, powers.gen_ready_power(ctx, st, kind)))
    if not pending:
        extend(map(_END, turn.gen_end(ctx, st, can_act)))
    return actions


# What the player may do next, when the engine's trade or place step allows none of its own
# actions (nothing to trade or place): the step shown instead, by the first kind legal.
_NEXT_SHOWN = (
    (frozenset({"place"}), "place"),
    (frozenset({"collect", "build"}), "act"),
    (frozenset({"keep"}), "acted"),
    (frozenset({"recruit"}), "stored"),
)


def shown_step(ctx: Ctx, st: State) -> str:
    """The step to show the player (the view's ``turn.label``, ``turn_info``'s step): the
    engine's, except while trading or placing when none of that step's own actions is legal
    any more: placing boats when it is (``place``: the turn's one trade made), collecting or
    building (rulebook step 3) when one of them is (``act``), else the harbor (``acted``),
    recruiting (``stored``) or ending the turn (``recruited``) by what is legal; tiles looked
    at wait to be arranged (``look``)."""
    if st.over:
        return ""
    if st.turn.looked:
        return "look"
    shown = turn.step_name(st)
    if st.turn.step not in (TRADE, PLACE):
        return shown
    kinds = {action.kind for action in legal_actions(ctx, st)}
    if kinds & _OWN_KINDS[st.turn.step]:
        return shown
    return next((name for wanted, name in _NEXT_SHOWN if kinds & wanted), "recruited")


# The actions before the harbor step that each step may allow, in the legal order (the others'
# generators would find nothing: no boat is placed in the trade step, none traded after it).
_STEP_KINDS = {TRADE: ("buy", "sell", "place"), PLACE: ("place", "collect", "build")}
# The actions the trade and place steps are named for ("trade or place boats": a trade).
_OWN_KINDS = {TRADE: frozenset({"buy", "sell"}), PLACE: frozenset({"place"})}


_new = tuple.__new__


class _Interned(dict[Args, Action]):
    """One kind's actions by their arguments, each made once, when first asked for."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, args: Args) -> Action:
        action = self[args] = _new(Action, (self.kind, args))
        return action


# The kinds whose arguments are few on any board (boat types, spots, islands, tiles, their pairs:
# a few thousand at most), so that their actions can be kept: looking each up by its arguments
# (dict.__getitem__ mapped, no Python loop) is about three times cheaper than making it. Not
# 'arrange' (orders of any tiles looked at) nor 'collect' (sets of islands): made each time.
_INTERNED = {kind: _Interned(kind) for kind in ORDER if kind not in ("arrange", "collect")}


def _actions(kind: str, args: Iterable[Args]) -> list[Action]:
    """The actions of one kind with these arguments, in their order."""
    table = _INTERNED.get(kind)
    if table is None:
        # each tuple made directly: NamedTuple's own constructor costs about twice as much
        return [_new(Action, (kind, a)) for a in args]
    return list(map(table.__getitem__, args))


_KEEP = _INTERNED["keep"].__getitem__
_RECRUIT = _INTERNED["recruit"].__getitem__
_END = _INTERNED["end"].__getitem__
