"""The strong computer players (issue 23): levels, determinism, hidden information, hints."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine import games
from engine.contract import Budget
from engine.errors import UnknownGame
from engine.games import Match
from engine.namiji.infer import state_from_view
from engine.namiji.state import State as NamijiState
from engine.namiji.view import view as namiji_view
from engine.players import LEVELS, random_player
from engine.rng import Rng, shuffle
from engine.yamatai.state import State as YamataiState
from tests.engine.test_conformance import TINY

SMALL = Budget(iterations=12, determinizations=3, candidates=4, turns=2)
SHIPPED = ("yamatai", "namiji")


def _midgame(game: str, players: int, actions: int, seed: int = 4) -> Match:
    """A game after that many greedy actions, at a decision with several legal actions."""
    match = games.new(game, [f"P{i}" for i in range(players)], seed=seed)
    greedy = games.computer_player(game)
    for step in range(actions):
        seat = match.current_seat
        assert seat is not None
        match.play(greedy(match.view(seat), step), seat=seat)
    while len(match.legal_actions()) < 2:
        seat = match.current_seat
        assert seat is not None
        match.play(greedy(match.view(seat), 0), seat=seat)
    return match


def _view(match: Match) -> dict[str, Any]:
    seat = match.current_seat
    assert seat is not None
    return match.view(seat)


# -- levels ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", SHIPPED)
def test_levels_and_stored_names_resolve(game: str) -> None:
    players = games.rules_for(game).players
    assert games.computer_player(game) is players["greedy"], "no level: today's player"
    assert games.computer_player(game, "normal") is players["greedy"]
    assert games.computer_player(game, "strong") is players["strong"]
    assert games.computer_player(game, "easy") is players["easy"]
    for stored in ("greedy", "random"):
        assert games.computer_player(game, stored) is players[stored]
    with pytest.raises(UnknownGame) as refused:
        games.computer_player(game, "grandmaster")
    assert set(LEVELS) <= set(refused.value.legal)


def test_nim_has_every_level_too() -> None:
    for level in LEVELS:
        assert callable(games.computer_player("nim", level))
    match = games.new("nim", ["A", "B"], seed=2)
    hints = games.hints("nim", match.view(0), 1)
    assert hints and all(c.action in match.legal_actions() for c in hints)


@pytest.mark.parametrize("game", SHIPPED)
def test_easy_plays_a_random_action_now_and_then(game: str) -> None:
    """Easy is normal with some random decisions: over many decisions, both kinds occur."""
    easy, normal = (games.computer_player(game, lv) for lv in ("easy", "normal"))
    match = _midgame(game, 2, 30)
    while len(match.legal_actions()) < 2 or len({normal(_view(match), s) for s in range(5)}) > 1:
        match.play(normal(_view(match), 0), seat=match.current_seat)  # to a clear best action
    view = _view(match)
    picks = [easy(view, seed) for seed in range(40)]
    assert any(p != normal(view, seed) for seed, p in enumerate(picks))
    assert any(p == normal(view, seed) for seed, p in enumerate(picks))


# -- determinism and budgets ---------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("yamatai", 2), ("yamatai", 4), ("namiji", 3)])
def test_the_search_is_deterministic_for_a_seed_and_budget(game: str, players: int) -> None:
    match = _midgame(game, players, 25)
    view = _view(match)
    frozen = json.dumps(view, sort_keys=True)
    rules = match.rules
    first = rules.analyse(view, 7, SMALL)
    assert rules.analyse(json.loads(frozen), 7, SMALL) == first
    assert json.dumps(view, sort_keys=True) == frozen, "the view is not modified"
    assert first[0].action in match.legal_actions()
    assert sum(c.samples for c in first) >= SMALL.iterations
    assert all(0.0 <= c.win_chance <= 1.0 for c in first)
    strong = games.computer_player(game, "strong", budget=SMALL)
    assert strong(view, 7) == first[0].action


@pytest.mark.parametrize("game", SHIPPED)
def test_a_deadline_stops_the_search_early(game: str) -> None:
    """The engine reads no clock: the caller's deadline is asked between samples."""
    view = _view(_midgame(game, 2, 20))
    asked = 0

    def deadline() -> bool:
        nonlocal asked
        asked += 1
        return asked > 10

    budget = Budget(iterations=500, determinizations=4, candidates=3, turns=1, deadline=deadline)
    choices = games.rules_for(game).analyse(view, 3, budget)
    total = sum(c.samples for c in choices)
    assert asked > 10 and total <= 12, "stopped soon after the deadline"
    assert all(c.samples >= 1 for c in choices), "every candidate has a sample"


# -- hidden information --------------------------------------------------------------------------


def _yamatai_hidden(st: YamataiState, seat: int, rng: Rng) -> None:
    """Change what ``seat`` cannot see: the deck order, others' face-down tiles, the seed."""
    st.rng = rng.below(1 << 62)
    st.rng = shuffle(st.rng, st.building_deck)
    st.rng = shuffle(st.rng, st.specialist_deck)
    for other, player in enumerate(st.players):
        if other != seat and player.tiles and st.building_deck:
            old = player.tiles[0]
            same = [t for t in st.building_deck if t[0] == old[0]]  # same figure letter
            if same:
                new = same[0]
                st.building_deck[st.building_deck.index(new)] = old
                player.tiles[0] = new
                for building in st.buildings:
                    if building is not None and building.tile == old:
                        building.tile = new


def _namiji_hidden(st: NamijiState, seat: int, rng: Rng) -> None:
    """Change what ``seat`` cannot see: bank, nets, cards, others' rocks, the seed."""
    st.rng = rng.below(1 << 62)
    for pile in (st.bank_down, st.net_pile, st.pontoon_deck, st.rock_deck):
        st.rng = shuffle(st.rng, pile)
    for other, player in enumerate(st.players):
        if other != seat and player.rocks and st.rock_deck:
            player.rocks[0], st.rock_deck[0] = st.rock_deck[0], player.rocks[0]


HIDERS: dict[str, Callable[[Any, int, Rng], None]] = {
    "yamatai": _yamatai_hidden,
    "namiji": _namiji_hidden,
}


@pytest.mark.parametrize(("game", "players", "actions"), [("yamatai", 3, 40), ("namiji", 4, 70)])
def test_decisions_do_not_depend_on_hidden_information(
    game: str, players: int, actions: int
) -> None:
    """Two states that differ only in what the seat cannot see give the same decisions."""
    match = _midgame(game, players, actions)
    seat = match.current_seat
    assert seat is not None
    other = games.from_json(match.to_json())
    HIDERS[game](other.state, seat, Rng(99))
    assert match.rules.to_dict(other.state) != match.rules.to_dict(match.state)
    assert other.view(seat) == match.view(seat)
    strong = games.computer_player(game, "strong", budget=SMALL)
    for seed in range(3):
        assert strong(other.view(seat), seed) == strong(match.view(seat), seed)
        assert match.rules.analyse(other.view(seat), seed, SMALL) == match.rules.analyse(
            match.view(seat), seed, SMALL
        )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_namiji_state_from_view_shows_the_same_view(players: int) -> None:
    """The guess is consistent with everything the seat sees, at every step of a game."""
    match = games.new("namiji", [f"P{i}" for i in range(players)], seed=players)
    step = 0
    while (current := match.current_seat) is not None:
        for seat in range(players):
            view = match.view(seat)
            guess = state_from_view(view, step)
            again = namiji_view(guess, seat, view["legal_actions"])
            assert {**again, "version": view["version"]} == view
            if seat == current:
                assert match.rules.legal_actions(guess) == view["legal_actions"]
        match.play(random_player(match.view(current), step), seat=current)
        step += 1


# -- the coach's engine half ---------------------------------------------------------------------


@pytest.mark.parametrize("game", SHIPPED)
def test_hints_are_the_top_three_choices_with_chances(game: str) -> None:
    match = _midgame(game, 2, 30)
    greedy = games.computer_player(game)
    while len(match.legal_actions()) < 3:
        match.play(greedy(_view(match), 0), seat=match.current_seat)
    view = _view(match)
    hints = games.hints(game, view, 5, SMALL)
    assert 1 <= len(hints) <= 3
    assert [c.win_chance for c in hints] == sorted((c.win_chance for c in hints), reverse=True)
    legal = match.legal_actions()
    assert all(c.action in legal for c in hints)
    worst = games.rules_for(game).analyse(view, 5, SMALL)[-1].action
    played, choices = games.chances_of(game, view, 5, worst, SMALL)
    assert played.action == worst and played.samples >= 1
    assert choices[0].win_chance >= played.win_chance
    searched = {c.action for c in games.rules_for(game).analyse(view, 5, TINY)}
    unlisted = next(a for a in reversed(legal) if a not in searched)
    played, _ = games.chances_of(game, view, 5, unlisted, TINY)
    assert played.action == unlisted, "an action the search would skip is weighed when asked"
    with pytest.raises(ValueError):
        games.chances_of(game, view, 5, "no such action", TINY)


# -- balance statistics at any level -------------------------------------------------------------


def test_simulate_plays_any_level(capsys: pytest.CaptureFixture[str]) -> None:
    from engine import simulate

    assert (
        simulate.main(["--game", "namiji", "--players", "2", "--games", "2", "--level", "easy"])
        == 0
    )
    assert "games 2, players 2" in capsys.readouterr().out
    assert (
        simulate.main(["--game", "nim", "--players", "2", "--games", "3", "--level", "strong"]) == 0
    )
    assert "games 3, players 2" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        simulate.main(
            ["--game", "nim", "--players", "2", "--level", "strong", "--player", "random"]
        )
    with pytest.raises(SystemExit):
        simulate.main(["--game", "nim", "--players", "2", "--level", "grandmaster"])


def test_a_played_power_beyond_the_greedy_sample_is_weighed() -> None:
    """Yamatai's greedy ranking values a sample of 60 power actions; a played one outside the
    sample is still searched when asked (turning points need every played action's chance)."""
    from engine.search import Search
    from engine.yamatai.players import MAX_POWER_CANDIDATES
    from engine.yamatai.search import GAME as YAMATAI

    match = games.new("yamatai", ["A", "B"], seed=1)
    greedy = games.computer_player("yamatai")
    for step in range(3000):
        view = _view(match)
        legal = view["legal_actions"]
        if len(legal) > MAX_POWER_CANDIDATES + 20:
            break
        match.play(greedy(view, step), seat=match.current_seat)
    else:
        pytest.fail("no position with that many actions in this game")
    search = Search(YAMATAI, view, 5, TINY, also=legal)
    assert {arm.text for arm in search.arms} == set(legal), "every asked action is searched"
