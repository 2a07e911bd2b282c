"""Computer players: pure, seeded functions of a view that always choose a legal action."""

from __future__ import annotations

import copy

import pytest

from engine import games
from engine.contract import View
from engine.simulate import play_game, summarize
from engine.yamatai.players import PLAYERS, greedy_player, random_player
from tests.engine.yamatai.scenario import to_act


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_player_is_a_pure_seeded_function_of_the_view(name: str) -> None:
    player = PLAYERS[name]
    m = games.new("yamatai", ["Ann", "Bo", "Cy"], seed=11)
    for _ in range(40):
        seat = to_act(m)
        assert seat is not None
        view = m.view(seat)
        frozen = copy.deepcopy(view)
        action = player(view, 5)
        assert view == frozen, "the view is not modified"
        assert action == player(copy.deepcopy(view), 5), "same view and seed, same action"
        assert action in view["legal_actions"]
        m.play(action, seat=seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_players_finish_games(players: int) -> None:
    for seed in range(3):
        result = play_game("yamatai", players, seed, greedy_player)
        assert result["rounds"] >= 1 and len(result["scores"]) == players


def test_a_view_without_legal_actions_is_refused() -> None:
    m = games.new("yamatai", ["Ann", "Bo"], seed=1)
    spectator = m.view(None)
    with pytest.raises(ValueError):
        random_player(spectator, 1)


def test_greedy_outscores_random_play() -> None:
    """Seat 0 greedy against random opponents wins most games."""

    def mixed(view: View, seed: int) -> str:
        chooser = greedy_player if view["viewer"] == 0 else random_player
        return chooser(view, seed)

    results = [play_game("yamatai", 3, seed, mixed) for seed in range(12)]
    wins = sum(1 for r in results if r["winner"] == 0)
    assert wins >= 9, summarize(results, 3)
