"""What the computer thinks, run in the think pool's workers (module-level, picklable results).

Each function takes plain data (a snapshot's JSON, a view, levels by seat) and returns plain
data, so a worker process can run it. The engine reads no clock: the wall-clock deadline of
each decision is given to the search here, as ``Budget.deadline`` (D79). Work of many decisions
gives a sign of life after each (``beat``): the think pool takes work from a silent worker (D150).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.workers.worker_pool import beat
from engine import games
from engine.contract import Budget
from engine.games import Match

#: Seconds a strong decision may search before it answers with what it has (its budget, the
#: game's own ``search_budget``, usually ends it first: median about 0.2 s). Issue 23 asks a
#: p95 of at most 1 s on a two-core machine: on a busy one this cap is what holds it.
DECISION_SECONDS = 1.0
#: The most computer turns saved and posted together (one message, one picture).
BATCH_TURNS = 12
#: Turning points look at the player's last decisions only, with a smaller budget each.
TURNING_POINT_DECISIONS = 12
TURNING_POINT_ITERATIONS = 24
TURNING_POINTS = 3


@dataclass(frozen=True, kw_only=True)
class TurningPoint:
    """One of a player's decisions where the strong player's estimate dropped most."""

    seq: int  # the decision's place in the game's log (1 = the first action)
    round: int
    played: str
    played_chance: float
    best: str
    best_chance: float
    view: dict[str, Any]  # the player's view then (the panel's labels read it)

    @property
    def drop(self) -> float:
        """How much the played action lost against the strong player's choice."""
        return self.best_chance - self.played_chance

    @property
    def shows(self) -> bool:
        """Whether the drop shows in the whole percentages a player reads ("about 0%" and
        "about 0%" is no turning point)."""
        return percent(self.best_chance) > percent(self.played_chance)


def percent(chance: float) -> int:
    """A chance to win (0..1) as the whole percentage a player reads ("about 62%")."""
    return round(max(0.0, min(1.0, chance)) * 100)


def deadline_in(seconds: float) -> Callable[[], bool]:
    """True once ``seconds`` of wall-clock time have passed since this call."""
    end = time.monotonic() + seconds
    return lambda: time.monotonic() >= end


def game_budget(game: str, seconds: float, iterations: int | None = None) -> Budget:
    """The strong player's budget of the game (its ``search_budget``), with a deadline."""
    budget = games.search_budget(game)
    if iterations is not None:
        budget = replace(budget, iterations=iterations)
    return replace(budget, deadline=deadline_in(seconds))


def computer_moves(
    snapshot: str,
    levels: Mapping[int, str],
    seed: int,
    turns: int = BATCH_TURNS,
    seconds: float = DECISION_SECONDS,
) -> list[tuple[int, str]]:
    """The actions the computer plays for ``levels``' seats (seat -> level) while one of them is
    due, at most ``turns`` turns: (seat, action), for ``apply_moves``."""
    match = games.from_json(snapshot)
    since = len(match.log)
    for _ in range(turns):
        seat = match.current_seat
        if seat is None or seat not in levels:
            break
        play_turn(match, seat, seed, levels[seat], seconds)
    return match.log[since:]


def play_turn(match: Match, seat: int, seed: int, level: str, seconds: float) -> None:
    """Let the computer player of ``level`` act for ``seat`` until its turn ends."""
    for _ in range(200):
        budget = game_budget(match.game_key, seconds) if level == "strong" else None
        player = games.computer_player(match.game_key, level, budget)
        events = match.play(player(match.view(seat), seed + seat), seat=seat)
        beat()
        if match.current_seat != seat or match.milestones(events).turn_ended:
            return
    raise RuntimeError(f"the computer player did not finish its turn: {match.log[-5:]}")


def apply_moves(match: Match, moves: list[tuple[int, str]]) -> None:
    """Play the computer's actions (from ``computer_moves``) on the loaded match."""
    for seat, action in moves:
        match.play(action, seat=seat)


def hint(
    game: str, view: dict[str, Any], seed: int, seconds: float = DECISION_SECONDS
) -> list[tuple[str, float]]:
    """The strong player's three best actions for the view: (action, chance to win 0..1)."""
    choices = games.hints(game, view, seed, game_budget(game, seconds), top=3)
    return [(c.action, c.win_chance) for c in choices]


def turning_points(
    snapshot: str, seat: int, skipped: frozenset[int], seed: int, seconds: float
) -> tuple[int, list[TurningPoint]]:
    """(decisions looked at, the seat's turning points, worst first): the last
    ``TURNING_POINT_DECISIONS`` actions the player chose (not ``skipped``: played for them by
    the computer), each searched with ``TURNING_POINT_ITERATIONS`` samples, all of them within
    ``seconds`` (each decision gets an equal share)."""
    share = seconds / TURNING_POINT_DECISIONS
    final = games.from_json(snapshot)
    mine = [
        seq
        for seq, (actor, _) in enumerate(final.log, start=1)
        if actor == seat and seq not in skipped
    ][-TURNING_POINT_DECISIONS:]
    wanted = set(mine)
    match = games.new(final.game_key, final.players, final.seed, final.options)
    found: list[TurningPoint] = []
    for seq, (actor, action) in enumerate(final.log, start=1):
        if seq in wanted:
            budget = game_budget(match.game_key, share, TURNING_POINT_ITERATIONS)
            view = match.view(seat)
            played, choices = games.chances_of(match.game_key, view, seed + seq, action, budget)
            beat()
            best = choices[0]
            point = TurningPoint(
                seq=seq,
                round=match.turn_info.round,
                played=action,
                played_chance=played.win_chance,
                best=best.action,
                best_chance=best.win_chance,
                view=view,
            )
            if best.action != action and point.shows:
                found.append(point)
        match.play(action, seat=actor)
    found.sort(key=lambda p: (-p.drop, p.seq))
    return len(mine), found[:TURNING_POINTS]
