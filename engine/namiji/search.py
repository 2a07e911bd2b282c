"""Namiji's strong computer player: the shared search (engine/search.py) on Namiji states."""

from __future__ import annotations

from collections.abc import Sequence

from engine.contract import Budget, Choice, View
from engine.namiji import rules
from engine.namiji.components import components
from engine.namiji.infer import state_from_view
from engine.namiji.notation import Action, format_action, parse
from engine.namiji.players import action_value
from engine.namiji.scoring import line_value, penalty, potential, rock_met
from engine.namiji.state import DRAFT, OVER, State
from engine.rng import Rng
from engine.search import analyse, best_action, softmax_chances

POINTS_SCALE = 4.0  # points of estimate between two seats that make one e-fold in win chance
ROCK_UNMET = 0.3  # share of an unmet sacred rock's points still counted
SPACE_VALUE = 0.7  # points a space of route still ahead is worth (the stops still to make)
BUDGET = Budget(iterations=96, determinizations=8, candidates=8, turns=2, turns_per_seat=4)


def estimate(st: State, seat: int) -> float:
    """Score, open crate lines by their promise, sacred rocks by whether they are met, offerings."""
    player = st.players[seat]
    if st.phase == OVER:
        return float(player.score)
    comp = components()
    value = float(player.score) - penalty(player.offerings)
    boat = next(b for b in st.boats if b.seat == seat)
    value += SPACE_VALUE * (components().arrival - boat.pos)
    value += potential(player.crate) - sum(line_value(line) for line in player.lines)
    for card in player.rocks:
        value += comp.rocks[card].points * (1.0 if rock_met(player, card) else ROCK_UNMET)
    return value


class NamijiSearch:
    """Namiji as the search sees it."""

    def determinize(self, view: View, seed: int) -> State:
        """A full state guessed from the view (engine/namiji/infer.py)."""
        return state_from_view(view, seed)

    def clone(self, st: State) -> State:
        """A copy to play on."""
        return st.clone()

    def parse(self, st: State, text: str) -> Action:
        """The action of a canonical text."""
        return parse(text)

    def text(self, st: State, action: Action) -> str:
        """The canonical text of an action."""
        return format_action(action)

    def seat(self, st: State) -> int | None:
        """The seat to act, None once over."""
        return rules.actor(st)

    def apply(self, st: State, action: Action) -> bool:
        """Apply in place; whether the turn ended."""
        rules.apply(st, action)
        return action.kind in ("end", "pick")

    def _values(self, st: State) -> list[tuple[Action, float]]:
        """The greedy player's values, from the few parts of a view it reads (a whole view
        costs more than the rest of a rollout)."""
        seat = rules.actor(st)
        assert seat is not None
        partial = {
            "viewer": seat,
            "boats": [{"seat": b.seat, "pos": b.pos} for b in st.boats],
            "route": components(st.direction).route,  # the stations in the game's direction
            "boat_to_act": st.boat if st.phase != DRAFT else rules.boat_to_move(st),
            "catch": st.catch,
            "drawn": st.drawn,
        }
        me = st.players[seat]
        return [(a, action_value(partial, me, a)) for a in rules.legal(st)]

    def greedy(self, st: State, rng: Rng) -> Action:
        """The greedy player's choice for the seat to act (ties broken at random)."""
        values = self._values(st)
        if len(values) == 1:
            return values[0][0]
        top = max(v for _, v in values)
        best = [a for a, v in values if v > top - 1e-9]
        return best[rng.below(len(best))]

    def ranked(self, st: State, rng: Rng) -> list[tuple[Action, float]]:
        """Legal actions by the greedy player's value, the best first."""
        return sorted(self._values(st), key=lambda av: -av[1])

    def win_chances(self, st: State) -> list[float]:
        """A softmax of each seat's estimate (the final scores once over: a margin counts, so
        that few samples tell close choices apart better than wins and losses would)."""
        values = [estimate(st, s) for s in range(len(st.players))]
        return softmax_chances(values, POINTS_SCALE)


GAME = NamijiSearch()


def strong_player(view: View, seed: int) -> str:
    """The search's best action with the budget of ``BUDGET`` (read at each call)."""
    return best_action(GAME, view, seed, BUDGET)


def analyse_view(
    view: View, seed: int, budget: Budget | None = None, also: Sequence[str] = ()
) -> list[Choice]:
    """The strong player's choices for this view, the best first, with chances to win."""
    return analyse(GAME, view, seed, budget or BUDGET, also)
