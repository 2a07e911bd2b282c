"""Yamatai's strong computer player: the shared search (engine/search.py) on Yamatai states."""

from __future__ import annotations

from collections.abc import Sequence

from engine.contract import Budget, Choice, View
from engine.rng import Rng
from engine.search import analyse, best_action, softmax_chances
from engine.yamatai import rules
from engine.yamatai.context import context
from engine.yamatai.estimate import estimate
from engine.yamatai.infer import state_from_view
from engine.yamatai.notation import Action
from engine.yamatai.players import greedy_action, ranked_actions
from engine.yamatai.scoring import outcome
from engine.yamatai.state import State

ROLLOUT_POWERS = 12  # power actions the rollouts' greedy policy weighs (a seeded sample)
POINTS_SCALE = 3.0  # points of estimate between two seats that make one e-fold in win chance
BUDGET = Budget(iterations=48, determinizations=8, candidates=8, turns=2)


class YamataiSearch:
    """Yamatai as the search sees it."""

    def determinize(self, view: View, seed: int) -> State:
        """A full state guessed from the view (engine/yamatai/infer.py)."""
        return state_from_view(view, seed)

    def clone(self, st: State) -> State:
        """A copy to play on."""
        return st.clone()

    def parse(self, st: State, text: str) -> Action:
        """The action of a canonical text."""
        return context(st.board).notation.parse(text)

    def text(self, st: State, action: Action) -> str:
        """The canonical text of an action."""
        return context(st.board).notation.format(action)

    def seat(self, st: State) -> int | None:
        """The seat to act, None once over."""
        return None if st.over else st.seat

    def apply(self, st: State, action: Action) -> bool:
        """Apply in place; whether the turn ended."""
        rules.apply(context(st.board), st, action)
        return action.kind == "end"

    def greedy(self, st: State, rng: Rng) -> Action:
        """The greedy player's choice for the seat to act (fewer powers weighed)."""
        return greedy_action(context(st.board), st, st.seat, rng, ROLLOUT_POWERS)

    def ranked(self, st: State, rng: Rng) -> list[tuple[Action, float]]:
        """Legal actions by their one-ply estimate, the best first."""
        valued = ranked_actions(context(st.board), st, st.seat, rng)
        return sorted(valued, key=lambda av: -av[1])

    def win_chances(self, st: State) -> list[float]:
        """The winner's once over; else a softmax of each seat's score estimate."""
        ctx = context(st.board)
        if st.over:
            winner = int(outcome(ctx, st)["winner"])
            return [float(s == winner) for s in range(len(st.players))]
        values = [estimate(ctx, st, s) for s in range(len(st.players))]
        return softmax_chances(values, POINTS_SCALE)


GAME = YamataiSearch()


def strong_player(view: View, seed: int) -> str:
    """The search's best action with the budget of ``BUDGET`` (read at each call)."""
    return best_action(GAME, view, seed, BUDGET)


def analyse_view(
    view: View, seed: int, budget: Budget | None = None, also: Sequence[str] = ()
) -> list[Choice]:
    """The strong player's choices for this view, the best first, with chances to win."""
    return analyse(GAME, view, seed, budget or BUDGET, also)
