"""Check every stored game: replaying its seed and log must give exactly its snapshot."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .connection import Target
from .databases import database_errors
from .models import Action, Game, GameStatus, MatchLike
from .repository import GameRepository


@dataclass(frozen=True, slots=True)
class GameProblem:
    """One game whose stored data does not agree with a replay."""

    game_id: int
    message: str


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """How many games were checked and which ones differ."""

    checked: int
    problems: tuple[GameProblem, ...]

    @property
    def ok(self) -> bool:
        """True when every game matched its replay."""
        return not self.problems


def first_difference(a: Any, b: Any, path: str = "$") -> str | None:
    """The JSON path of the first place two parsed JSON values differ, or None if equal."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: only in {'snapshot' if key in a else 'replay'}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


class ReplayFailed(Exception):
    """The game's log does not replay (holes in it, or an action the engine refuses)."""


def replay(game: Game, actions: Sequence[Action]) -> MatchLike:
    """The match rebuilt from the game's seed and log; ReplayFailed says why it cannot be."""
    from engine import games  # the store reads the engine only to check replays

    seqs = [a.seq for a in actions]
    if seqs != list(range(1, len(actions) + 1)):
        raise ReplayFailed(f"action sequence numbers are not 1..{len(actions)}: {seqs[:10]}")
    if len(actions) != game.action_count:
        raise ReplayFailed(
            f"action_count is {game.action_count} but the log has {len(actions)} actions"
        )
    try:
        match = games.new(game.game_key, players=game.players, seed=game.seed, options=game.options)
    except Exception as exc:  # any engine error means the game cannot be set up again
        raise ReplayFailed(f"replay failed at setup: {type(exc).__name__}: {exc}") from exc
    for action in actions:
        try:
            match.play(action.notation, seat=action.seat)
        except Exception as exc:  # any engine error means the log does not replay
            raise ReplayFailed(
                f"replay failed at action {action.seq} ({action.seat}: {action.notation!r}): "
                f"{type(exc).__name__}: {exc}"
            ) from exc
    return match


def compare(game: Game, match: MatchLike) -> str | None:
    """How the stored snapshot and current seat disagree with a replay, or None."""
    try:
        stored = json.loads(game.snapshot)
    except ValueError as exc:
        return f"snapshot is not JSON: {exc}"
    replayed = json.loads(match.to_json())
    if isinstance(stored, dict) and stored.get("turn_start") is None:
        replayed.pop("turn_start", None)  # written before the snapshot kept it: not a fault
    difference = first_difference(stored, replayed)
    if difference is not None:
        return f"snapshot differs from replay at {difference}"
    if game.status == GameStatus.ACTIVE and game.current_seat != match.current_seat:
        return f"current_seat is {game.current_seat} but the replay says {match.current_seat}"
    return None


def check_game(game: Game, actions: Sequence[Action]) -> str | None:
    """Replay one game from seed and log; describe the first disagreement, or None."""
    try:
        match = replay(game, actions)
    except ReplayFailed as exc:
        return str(exc)
    return compare(game, match)


async def verify_database(target: Target) -> VerifyReport:
    """Replay every stored game (any status) and collect the ones that disagree."""
    problems: list[GameProblem] = []
    with database_errors(target):
        repo = await GameRepository.connect(target)
        try:
            ids = await repo.game_ids()
            for game_id in ids:
                game, actions = await repo.load_game_with_actions(game_id)
                problem = check_game(game, actions)
                if problem is not None:
                    problems.append(GameProblem(game_id, problem))
        finally:
            await repo.close()
    return VerifyReport(checked=len(ids), problems=tuple(problems))
