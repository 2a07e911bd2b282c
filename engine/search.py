"""The strong computer players' search, shared by the games: determinized rollouts from a view.

From a seat's view the search guesses the hidden parts many times (each guess a
*determinization*: a full state consistent with the view), tries each candidate action in each
guess, lets every seat play on with the game's greedy policy for a few turns, and scores where
that leads as a chance to win. Candidates share the guesses (the k-th sample of every candidate
uses the k-th guess and the k-th rollout seed), so they are compared on the same futures.
Samples are spread by sequential halving: every candidate gets an equal share, then the worse
half is dropped, until one is left or the budget is spent.

Everything is a function of the view, the seed and the budget: the search never reads a clock
(a ``deadline`` callable passed in by the caller may stop it early).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from engine.contract import Budget, Choice, ComputerPlayer, View
from engine.players import legal_of, seeded
from engine.rng import Rng

S = TypeVar("S")
A = TypeVar("A")


class Game(Protocol[S, A]):
    """What the search needs from a game: guesses, actions, a greedy policy and a value."""

    def determinize(self, view: View, seed: int) -> S:
        """A full state consistent with the view, its hidden parts guessed from the seed."""
        ...

    def clone(self, st: S) -> S:
        """A copy to play on."""
        ...

    def parse(self, st: S, text: str) -> A:
        """The action of a canonical text."""
        ...

    def text(self, st: S, action: A) -> str:
        """The canonical text of an action."""
        ...

    def seat(self, st: S) -> int | None:
        """The seat to act, None once the game is over."""
        ...

    def apply(self, st: S, action: A) -> bool:
        """Apply an action in place; whether it ended a turn."""
        ...

    def greedy(self, st: S, rng: Rng) -> A:
        """The greedy policy's action in the state."""
        ...

    def ranked(self, st: S, rng: Rng) -> list[tuple[A, float]]:
        """Every legal action with its one-step greedy value, the best first."""
        ...

    def win_chances(self, st: S) -> list[float]:
        """Each seat's estimated chance to win from the state (from the result once over)."""
        ...


@dataclass
class _Arm:
    """A candidate action and the chances its samples gave."""

    text: str
    prior: float
    total: float = 0.0
    samples: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.samples if self.samples else 0.0


class Search(Generic[S, A]):
    """One decision's search: the guesses, the candidates and their samples."""

    def __init__(
        self,
        game: Game[S, A],
        view: View,
        seed: int,
        budget: Budget,
        also: Sequence[str] = (),
    ) -> None:
        self.game = game
        self.view = view
        self.budget = budget
        self.seat: int = view["viewer"]
        self.horizon = budget.turns + budget.turns_per_seat * len(view["players"])
        rng = seeded(view, seed)
        self.base_seed = rng.below(1 << 62)
        self.guesses: list[S] = [game.determinize(view, self._seed(0, 0))]
        self.arms = self._candidates(legal_of(view), rng, also)

    def _seed(self, kind: int, k: int) -> int:
        return self.base_seed * 31 + kind * 1_000_033 + k

    def _guess(self, k: int) -> S:
        index = k % max(1, self.budget.determinizations)
        while len(self.guesses) <= index:
            self.guesses.append(self.game.determinize(self.view, self._seed(0, len(self.guesses))))
        return self.guesses[index]

    def _candidates(self, legal: list[str], rng: Rng, also: Sequence[str]) -> list[_Arm]:
        """The legal actions worth searching: the best few by the greedy estimate of a guess,
        and the legal ones of ``also``."""
        st = self.guesses[0]
        valued = {self.game.text(st, a): v for a, v in self.game.ranked(st, rng)}
        allowed = [t for t in legal if t in valued]
        allowed.sort(key=lambda t: -valued[t])  # stable: ties keep the legal order
        chosen = allowed[: max(1, self.budget.candidates)]
        # an action the greedy ranking left unvalued (a power beyond its sample) is still legal
        chosen += [t for t in also if t in legal and t not in chosen]
        lowest = min(valued.values(), default=0.0)
        return [_Arm(t, valued.get(t, lowest)) for t in chosen] or [_Arm(legal[0], 0.0)]

    def _sample(self, arm: _Arm) -> None:
        """Play the arm in its next guess, roll out, and add the seat's chance to win."""
        k = arm.samples
        st = self.game.clone(self._guess(k))
        action = self.game.parse(st, arm.text)
        rollout = Rng(self._seed(1, k))
        turns = int(self.game.apply(st, action))
        while turns < self.horizon and self.game.seat(st) is not None:
            turns += int(self.game.apply(st, self.game.greedy(st, rollout)))
        arm.total += self.game.win_chances(st)[self.seat]
        arm.samples += 1

    def _out_of_time(self) -> bool:
        return self.budget.deadline is not None and self.budget.deadline()

    def run(self) -> list[Choice]:
        """Spend the budget by sequential halving; the choices, the best first."""
        alive = list(self.arms)
        if len(alive) == 1:  # only its chance is wanted: a sample per guess
            for _ in range(min(self.budget.iterations, self.budget.determinizations)):
                if self._out_of_time() and alive[0].samples:
                    break
                self._sample(alive[0])
        else:
            rounds = max(1, math.ceil(math.log2(len(alive))))
            left = max(self.budget.iterations, len(alive))
            for r in range(rounds):
                share = max(1, left // ((rounds - r) * len(alive)))
                for _ in range(share):
                    for arm in alive:
                        if self._out_of_time() and all(a.samples for a in alive):
                            return self._choices()
                        self._sample(arm)
                        left -= 1
                alive.sort(key=lambda a: (-a.mean, -a.prior))
                alive = alive[: max(1, (len(alive) + 1) // 2)]
                if len(alive) == 1:
                    break
        return self._choices()

    def _choices(self) -> list[Choice]:
        ranked = sorted(self.arms, key=lambda a: (-a.samples, -a.mean, -a.prior))
        return [Choice(a.text, round(a.mean, 4), a.samples) for a in ranked]


def analyse(
    game: Game[S, A], view: View, seed: int, budget: Budget, also: Sequence[str] = ()
) -> list[Choice]:
    """The searched actions of the seat whose view this is, the best first (``also``: actions
    to search even if the greedy estimate would leave them out, such as the one played)."""
    return Search(game, view, seed, budget, also).run()


def best_action(game: Game[S, A], view: View, seed: int, budget: Budget) -> str:
    """The search's best action for the view (a lone legal action at once)."""
    legal = legal_of(view)
    if len(legal) == 1:
        return legal[0]
    return Search(game, view, seed, budget).run()[0].action


def search_player(game: Game[S, A], budget: Budget) -> ComputerPlayer:
    """A computer player that plays the search's best action with this budget."""

    def player(view: View, seed: int) -> str:
        return best_action(game, view, seed, budget)

    return player


def softmax_chances(values: Sequence[float], scale: float) -> list[float]:
    """Chances to win from estimated points: a softmax with ``scale`` points per factor e."""
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
