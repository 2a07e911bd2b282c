"""Rebuild damaged snapshots from the action log (the log is the truth, the snapshot a cache)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .connection import Target
from .databases import database_errors
from .models import GameStatus
from .repository import GameRepository
from .verify import ReplayFailed, compare, replay


class Repair(StrEnum):
    """What repair did to one game."""

    CLEAN = "clean"  # snapshot and replay already agreed
    FIXED = "fixed"  # the snapshot was rewritten from the replay
    BROKEN_LOG = "broken_log"  # the log does not replay: left untouched


@dataclass(frozen=True, slots=True)
class RepairResult:
    """One game's repair: what happened and why."""

    game_id: int
    outcome: Repair
    detail: str = ""


async def repair_game(repo: GameRepository, game_id: int) -> RepairResult:
    """Replay one game and, if its snapshot disagrees, store the replay's (one transaction)."""
    game, actions = await repo.load_game_with_actions(game_id)
    try:
        match = replay(game, actions)
    except ReplayFailed as exc:
        return RepairResult(game_id, Repair.BROKEN_LOG, str(exc))
    problem = compare(game, match)
    if problem is None:
        return RepairResult(game_id, Repair.CLEAN)
    active = game.status == GameStatus.ACTIVE
    await repo.repair_snapshot(
        game_id,
        game.version,
        match.to_json(),
        current_seat=match.current_seat if active else game.current_seat,
    )
    return RepairResult(game_id, Repair.FIXED, problem)


async def repair_database(target: Target, game_id: int | None = None) -> list[RepairResult]:
    """Repair one game (``game_id``) or every game of the database at ``target``."""
    with database_errors(target):
        repo = await GameRepository.connect(target)
        try:
            ids = [game_id] if game_id is not None else await repo.game_ids()
            return [await repair_game(repo, i) for i in ids]
        finally:
            await repo.close()
