"""Every registered game against the engine contract (OpenSpiel's playthrough test, for us).

Seeded random playouts to the end for every player count; after every action: ``check`` accepts
exactly ``legal_actions``, near misses and junk are refused with typed errors and change nothing,
the JSON round trip is lossless, no view shows what its seat may not see; replay from seed and log
gives the same state; undo equals replay without the last action; computer players finish games.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import games
from engine.contract import Budget, Outcome
from engine.errors import EngineError
from engine.games import Match
from engine.players import LEVELS, random_player
from engine.rng import Rng

MAX_ACTIONS = 5000
#: The strong level searches with this tiny budget here: the suite checks it plays by the rules
#: to the end, not how well (benchmarks/players.py measures that).
TINY = Budget(iterations=3, determinizations=2, candidates=2, turns=1)
JUNK = ("", "   ", "zzz", "take", "fleet", "place", "0", "-1", "🐉", "a" * 300, ";", "x; y")


#: Setup options played besides the defaults (each game's default options are always played).
VARIANTS: dict[str, list[dict[str, Any]]] = {"namiji": [{"direction": "reversed"}]}


def _tables() -> list[tuple[str, int, dict[str, Any]]]:
    return [
        (key, n, options)
        for key, rules in sorted(games.GAMES.items())
        for options in [{}, *VARIANTS.get(key, [])]
        for n in range(rules.min_players, rules.max_players + 1)
    ]


def _strings(value: Any) -> set[str]:
    """Every string inside JSON-ready data, keys included (a loop: views are deep)."""
    found: set[str] = set()
    waiting = [value]
    while waiting:
        item = waiting.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(map(str, item))
            waiting.extend(item.values())
        elif isinstance(item, list | tuple):
            waiting.extend(item)
    return found


def _near_misses(action: str, rng: Rng) -> list[str]:
    """Legal-looking texts: a word dropped, a number moved, words swapped or doubled."""
    words = action.split()
    misses = [" ".join(words[:-1]), action + " " + words[-1], action.upper()]
    numbers = [i for i, w in enumerate(words) if w.isdigit()]
    for i in numbers:
        for delta in (1, 7, 99):
            misses.append(" ".join([*words[:i], str(int(words[i]) + delta), *words[i + 1 :]]))
    if len(words) > 2:
        j = 1 + rng.below(len(words) - 1)
        swapped = words[:]
        swapped[0], swapped[j] = swapped[j], swapped[0]
        misses.append(" ".join(swapped))
    return misses


def _refused_cleanly(match: Match, text: str, legal: set[str]) -> None:
    """Anything not legal raises a typed engine error and changes nothing."""
    try:
        canonical = match.canonical(text)
    except EngineError:
        canonical = None
    if canonical is not None and canonical in legal:
        return
    before, log = match.to_json(), list(match.log)
    with pytest.raises(EngineError):
        match.play(text, seat=match.current_seat)
    assert match.to_json() == before and match.log == log


def _legal_after_is_the_previews(match: Match, text: str) -> None:
    """``legal_after`` (the panel's question) answers as ``preview`` would, refusals too."""
    before = match.to_json()
    try:
        expected = match.preview(text).legal_next
    except EngineError as error:
        with pytest.raises(type(error)):
            match.legal_after(text)
    else:
        assert match.legal_after(text) == expected
    assert match.to_json() == before


def _check_position(match: Match, rng: Rng) -> None:
    rules, state = match.rules, match.state
    legal = match.legal_actions()
    assert legal, "a running game always has a legal action"
    assert len(set(legal)) == len(legal)
    for action in legal:
        assert rules.format(state, rules.parse(state, action)) == action, "notation round trip"
        rules.check(state, rules.parse(state, action))
    listed = set(legal)
    picks = [legal[rng.below(len(legal))] for _ in range(3)]
    for text in [*JUNK, *(m for a in picks for m in _near_misses(a, rng))]:
        _refused_cleanly(match, text, listed)
    _legal_after_is_the_previews(match, picks[0])
    info = match.turn_info
    assert info.seat == match.current_seat and info.step
    for seat in [None, *range(len(match.players))]:
        view = json.loads(json.dumps(match.view(seat)))
        assert view["game"] == match.game_key
        leaked = _strings(view) & rules.secrets(state, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)[:5]}"
    assert games.from_json(match.to_json()).to_json() == match.to_json()
    # the saved text is the canonical encoding of to_dict, however to_json writes it (D292)
    assert match.to_json() == json.dumps(match.to_dict(), sort_keys=True, separators=(",", ":"))


def _check_outcome(match: Match, outcome: Outcome | None) -> None:
    assert outcome is not None and match.current_seat is None
    assert match.legal_actions() == [] and match.turn_info.seat is None
    rules, state = match.rules, match.state
    for seat in [None, *range(len(match.players))]:  # what stays hidden once the game is over
        leaked = _strings(match.view(seat)) & rules.secrets(state, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)[:5]} at the end"
    seats = sorted(r.seat for r in outcome.results)
    assert seats == list(range(len(match.players)))
    assert outcome.winners and all(w in seats for w in outcome.winners)
    best = min(r.rank for r in outcome.results)
    assert {r.seat for r in outcome.results if r.rank == best} >= set(outcome.winners)
    for result in outcome.results:
        assert result.name == match.players[result.seat]
        assert sum(line.points for line in result.lines) == result.score
    assert sorted(outcome.ranking) == seats
    assert match.standing == outcome


def _check_standing(match: Match) -> None:
    """A running game's standing: every seat once, a score made of its lines, ranks from 1."""
    standing = match.standing
    seats = sorted(r.seat for r in standing.results)
    assert seats == list(range(len(match.players)))
    assert min(r.rank for r in standing.results) == 1
    assert all(1 <= r.rank <= len(seats) for r in standing.results)
    for result in standing.results:
        assert sum(line.points for line in result.lines) == result.score
        better = [r for r in standing.results if r.score > result.score]
        assert all(r.rank <= result.rank for r in better)


def _undo_equals_replay(match: Match) -> None:
    if not match.can_undo():
        return
    expected = games.replay(
        match.game_key, match.players, match.seed, match.options, match.log[:-1]
    )
    copy = games.from_json(match.to_json())
    copy.undo()
    assert copy.to_json() == expected.to_json()


@pytest.mark.parametrize("seed", [1000, 2000])
@pytest.mark.parametrize(("game", "players", "options"), _tables())
def test_random_playout_keeps_the_contract(
    game: str, players: int, options: dict[str, Any], seed: int
) -> None:
    seed += players
    match = games.new(game, [f"Player {i}" for i in range(players)], seed=seed, options=options)
    assert all(match.options[k] == v for k, v in options.items())
    rng = Rng(seed)
    step = 0
    ended = False
    while (seat := match.current_seat) is not None:
        assert step < MAX_ACTIONS, "the game never ended"
        if step % 2 == 0:
            _check_position(match, rng)
            _undo_equals_replay(match)
            _check_standing(match)
        events = match.play(random_player(match.view(seat), seed + step), seat=seat)
        milestones = match.milestones(events)
        ended = milestones.game_ended
        assert milestones.game_ended == (match.current_seat is None)
        step += 1
    assert ended
    _check_outcome(match, match.outcome)
    replayed = games.replay(game, match.players, seed, match.options, match.log)
    assert replayed.to_json() == match.to_json()


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_every_computer_player_finishes_a_game(game: str) -> None:
    rules = games.rules_for(game)
    assert rules.players, "a game brings at least one computer player"
    for name in rules.players:
        player = games.computer_player(game, name, budget=TINY)
        match = games.new(game, [f"Player {i}" for i in range(rules.min_players)], seed=3)
        for step in range(MAX_ACTIONS):
            seat = match.current_seat
            if seat is None:
                break
            match.play(player(match.view(seat), step), seat=seat)
        _check_outcome(match, match.outcome)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("game", "players", "options"), _tables())
def test_every_level_finishes_a_game(
    game: str, players: int, options: dict[str, Any], level: str
) -> None:
    player = games.computer_player(game, level, budget=TINY)
    names = [f"Player {i}" for i in range(players)]
    match = games.new(game, names, seed=5 + players, options=options)
    for step in range(MAX_ACTIONS):
        seat = match.current_seat
        if seat is None:
            break
        match.play(player(match.view(seat), step), seat=seat)
    _check_outcome(match, match.outcome)


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_setup_is_validated(game: str) -> None:
    rules = games.rules_for(game)
    assert rules.display_name and rules.key == game
    for count in (rules.min_players - 1, rules.max_players + 1):
        with pytest.raises(EngineError):
            games.new(game, [f"Player {i}" for i in range(count)], seed=1)
    with pytest.raises(EngineError):
        games.new(game, ["Player 0", "Player 1"], seed=1, options={"no such option": 1})
    match = games.new(game, [f"Player {i}" for i in range(rules.min_players)], seed=1)
    assert len(match.colours) == rules.min_players
    assert len(set(match.colours)) == rules.min_players


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_every_game_says_its_search_budget(game: str) -> None:
    budget = games.search_budget(game)
    assert isinstance(budget, Budget)
    assert budget.iterations > 0 and budget.deadline is None
