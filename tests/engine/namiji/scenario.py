"""Helpers that set a Namiji table as a rulebook example shows it, then play through Match."""

from __future__ import annotations

from engine import games
from engine.games import Match
from engine.namiji.rules import boat_to_move
from engine.namiji.state import MOVE, STATION, State

GREEN, PINK, YELLOW, BLUE, VIOLET = range(5)


def new(players: int = 3, seed: int = 7) -> Match:
    """A fresh game with seats named after their colours (green, pink, yellow, ...)."""
    names = ["Green", "Pink", "Yellow", "Blue", "Violet"][:players]
    return games.new("namiji", names, seed=seed)


def state(match: Match) -> State:
    """The match's state (typed)."""
    st: State = match.state
    return st


def place(match: Match, *spots: tuple[int, int]) -> None:
    """Put boat i on (space, spot) and give the turn to the boat furthest behind."""
    st = state(match)
    for boat, (pos, spot) in zip(st.boats, spots, strict=True):
        boat.pos, boat.spot = pos, spot
    mover = boat_to_move(st)
    assert mover is not None
    st.phase, st.boat, st.tasks, st.moved = MOVE, mover, [], False


def at_station(match: Match, seat: int, tasks: list[str]) -> None:
    """The seat's boat has just stopped and has these decisions to make."""
    st = state(match)
    st.phase, st.boat, st.tasks, st.moved = STATION, seat, tasks, True


def play(match: Match, *actions: str) -> list[dict[str, object]]:
    """Play actions one by one for whoever is to act; return all their events."""
    events: list[dict[str, object]] = []
    for action in actions:
        events += match.play(action, seat=match.current_seat)
    return events


def points(events: list[dict[str, object]], why: str) -> int:
    """Points scored in these events for one reason."""
    return sum(int(str(e["points"])) for e in events if e["type"] == "score" and e["for"] == why)
