"""The coach's hints come highest chance first (issue 38 item 2, D210): ``games.hints`` keeps
the search's best choices and orders them by the chance each shows, ties in a stable order."""

from __future__ import annotations

from typing import Any

import pytest

from engine import games
from engine.contract import Budget, Choice
from engine.games import Match


def _after(game: str, players: int, actions: int, seed: int = 4) -> Match:
    """A game after that many greedy actions, at a decision with several legal actions."""
    match = games.new(game, [f"P{i}" for i in range(players)], seed=seed)
    greedy = games.computer_player(game)
    for step in range(actions):
        seat = match.current_seat
        assert seat is not None
        match.play(greedy(match.view(seat), step), seat=seat)
    while len(match.legal_actions()) < 3:
        seat = match.current_seat
        assert seat is not None
        match.play(greedy(match.view(seat), 0), seat=seat)
    return match


# Positions where the search's own order (its pick first: the most samples) shows a lower
# chance above a higher one: ("place bamboo 15", 77.6%) above ("place bamboo 76", 77.9%) in
# Yamatai; ("move 22", 71.4%) above ("move 26 slot 1", 73.7%) in Namiji.
UNSORTED = [("yamatai", 2, 35, 0), ("namiji", 2, 55, 1)]


@pytest.mark.parametrize(("game", "players", "actions", "seed"), UNSORTED)
def test_hints_are_the_search_s_best_three_highest_chance_first(
    game: str, players: int, actions: int, seed: int
) -> None:
    match = _after(game, players, actions)
    seat = match.current_seat
    assert seat is not None
    view = match.view(seat)
    searched = games.rules_for(game).analyse(view, seed, None)[:3]
    assert [c.win_chance for c in searched] != sorted(
        (c.win_chance for c in searched), reverse=True
    ), "the position no longer shows the search's order unsorted"
    hints = games.hints(game, view, seed)
    assert [c.win_chance for c in hints] == sorted((c.win_chance for c in hints), reverse=True)
    assert sorted(hints, key=lambda c: c.action) == sorted(searched, key=lambda c: c.action)
    assert games.hints(game, view, seed) == hints  # a pure function of view and seed


def test_ties_in_chance_go_by_samples_then_by_the_search_s_rank(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Equal chances: the choice with more samples first, then the search's own order."""
    searched = [
        Choice("take 1", 0.39, 20),
        Choice("take 2", 0.41, 8),
        Choice("take 3", 0.39, 8),
        Choice("take 4", 0.39, 20),
        Choice("take 5", 0.95, 1),  # fifth of the search: not among its best four
    ]

    def analyse(view: Any, seed: int, budget: Budget | None = None, also: Any = ()) -> list[Choice]:
        return list(searched)

    monkeypatch.setattr(games.rules_for("nim"), "analyse", analyse)
    view = games.new("nim", ["A", "B"], seed=2).view(0)
    hints = games.hints("nim", view, 1, top=4)
    assert [c.action for c in hints] == ["take 2", "take 1", "take 4", "take 3"]
