"""Games for the render tests: seeded computer-player games and the views along the way."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import asdict
from functools import cache
from typing import Any

from engine import games
from engine.games import Match
from engine.yamatai.players import greedy_player, random_player
from render.yamatai.highlight import Highlight

NAMES = ("Ann", "Bo", "Cy", "Di")


def new_match(players: int, seed: int, names: Sequence[str] = NAMES) -> Match:
    """A fresh game between the first names of ``names``."""
    return games.new("yamatai", list(names[:players]), seed=seed)


def play_turns(
    players: int, seed: int, turns: int | None, names: Sequence[str] = NAMES
) -> tuple[Match, Highlight]:
    """A greedy game after that many completed turns (None: to the end) and its last turn."""
    match = new_match(players, seed, names)
    done = 0
    turn_events: list[dict[str, Any]] = []
    last = Highlight()
    while (seat := match.current_seat) is not None and (turns is None or done < turns):
        events = match.play(greedy_player(match.view(seat), seed * 31 + seat), seat=seat)
        turn_events += events
        if any(e["type"] == "end_turn" for e in events):
            done += 1
            last = Highlight.from_events(turn_events)
            turn_events = []
    return match, last


def play_actions(players: int, seed: int, actions: int) -> Match:
    """A greedy game after that many actions (possibly in the middle of a turn)."""
    match = new_match(players, seed)
    for _ in range(actions):
        seat = match.current_seat
        if seat is None:
            break
        match.play(greedy_player(match.view(seat), seed * 31 + seat), seat=seat)
    return match


def random_views(players: int, seed: int) -> Iterator[dict[str, Any]]:
    """Every view of a random game: the spectator's after each action, a player's sometimes."""
    match = new_match(players, seed)
    yield match.view(None)
    step = 0
    while (seat := match.current_seat) is not None:
        view = match.view(seat)
        match.play(random_player(view, seed + step), seat=seat)
        step += 1
        yield match.view(None)
        if step % 17 == 0 and match.current_seat is not None:
            yield match.view(match.current_seat)


@cache
def late_game_4p() -> tuple[dict[str, Any], Highlight]:
    """A late 4-player board (seed 7): the first turn from the 36th on that placed boats."""
    for turns in range(36, 60):
        match, last = play_turns(4, 7, turns)
        if last.placed:
            return match.view(None), last
    raise AssertionError("no turn placing boats after the 36th")


def highlight_to_json(highlight: Highlight) -> dict[str, Any]:
    """A Highlight as JSON-ready data (sets as sorted lists)."""
    data = asdict(highlight)
    return {k: sorted(v) if isinstance(v, frozenset) else v for k, v in data.items()}


def highlight_from_json(data: dict[str, Any]) -> Highlight:
    """The Highlight that highlight_to_json wrote."""
    sets = {"placed", "moved", "removed", "sacred", "unsacred", "swapped"}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in sets:
            values[key] = frozenset(value)
        elif key in ("collected", "traded"):
            values[key] = tuple((a, b) for a, b in value)
        elif key in ("kept", "exchanged"):
            values[key] = tuple(value)
        else:
            values[key] = value
    return Highlight(**values)
