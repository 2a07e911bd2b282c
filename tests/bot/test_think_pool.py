"""The think pool (issue 23): computer decisions in worker processes, a deadline per decision
enforced in the worker, a dead worker costing one retry in a thread, THINK_PROCESSES."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import pytest

from bot.service import thinking
from bot.service.thinking import DECISION_SECONDS, apply_moves, computer_moves, game_budget
from bot.settings import SettingsError, load_settings
from bot.workers.think_pool import DEFAULT_PROCESSES, ThinkPool, default_patience
from engine import games
from tests.stopped import let_go, worker_process_id

from .pool_work import dies_in_a_worker


def test_decisions_are_made_in_a_worker_process_and_replayed_here() -> None:
    match = games.new("yamatai", ["Ann", "Bo"], seed=4)
    seat = match.current_seat
    assert seat is not None

    async def body() -> tuple[int, list[tuple[int, str]]]:
        pool = ThinkPool(1)
        await pool.start()
        try:
            pid = await pool.think(os.getpid)
            moves = await pool.think(computer_moves, match.to_json(), {seat: "normal"}, 7)
            return pid, moves
        finally:
            await pool.close()

    pid, moves = asyncio.run(body())
    assert pid != os.getpid()
    assert moves and {s for s, _ in moves} == {seat}
    apply_moves(match, moves)  # legal here too
    assert match.current_seat != seat


def test_the_deadline_stops_a_strong_decision_in_the_worker() -> None:
    """A deadline already past: the search answers with what it has (a legal action)."""
    assert game_budget("namiji", 0.0).deadline is not None
    assert game_budget("namiji", 0.0).deadline()  # type: ignore[misc]
    assert not game_budget("namiji", 60.0).deadline()  # type: ignore[misc]
    assert game_budget("yamatai", 1.0, iterations=5).iterations == 5
    match = games.new("namiji", ["Ann", "Bo"], seed=2)
    seat = match.current_seat
    assert seat is not None
    moves = computer_moves(match.to_json(), {seat: "strong"}, 3, seconds=0.0)
    apply_moves(match, moves)
    assert match.current_seat != seat


def test_a_dead_worker_costs_one_retry_in_a_thread(caplog: pytest.LogCaptureFixture) -> None:
    async def body() -> tuple[int, int, int]:
        pool = ThinkPool(1)
        await pool.start()
        try:
            first = await pool.think(dies_in_a_worker, 1)
            second = await pool.think(dies_in_a_worker, 2)
            return first, second, pool.crashes
        finally:
            await pool.close()

    with caplog.at_level(logging.WARNING, logger="bot.workers.think_pool"):
        first, second, crashes = asyncio.run(body())
    assert (first, second, crashes) == (1, 2, 2)
    assert "a worker died" in caplog.text


def test_think_processes_setting() -> None:
    """THINK_PROCESSES: a count (0: a thread); by default one worker."""
    env = {"DISCORD_TOKEN": "x"}
    assert load_settings({**env, "THINK_PROCESSES": "0"}, None).think_processes == 0
    assert load_settings({**env, "THINK_PROCESSES": "2"}, None).think_processes == 2
    assert load_settings(env, None).think_processes == DEFAULT_PROCESSES == 1
    for bad in ("-1", "two", "65"):
        with pytest.raises(SettingsError, match="THINK_PROCESSES"):
            load_settings({**env, "THINK_PROCESSES": bad}, None)


def test_think_patience_setting_and_default() -> None:
    """THINK_PATIENCE_S: the seconds a think worker may be silent (D150); by default a
    decision's deadline five times over plus ten seconds."""
    env = {"DISCORD_TOKEN": "x"}
    assert load_settings(env, None).think_patience is None
    assert load_settings({**env, "THINK_PATIENCE_S": "2.5"}, None).think_patience == 2.5
    for bad in ("0", "-1", "soon", "3601"):
        with pytest.raises(SettingsError, match="THINK_PATIENCE_S"):
            load_settings({**env, "THINK_PATIENCE_S": bad}, None)
    assert default_patience() == DECISION_SECONDS * 5 + 10 == ThinkPool(1).patience
    assert ThinkPool(1, 2.5).patience == 2.5


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGSTOP")
def test_a_stopped_think_worker_costs_one_decision_in_a_thread_and_the_same_moves(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """SIGSTOP the think worker while a computer's turn waits on it (issue 35 item 2): the turn
    is decided once more in a thread (the same moves: the seed decides them) and the next turn
    by a new worker."""
    match = games.new("yamatai", ["Ann", "Bo"], seed=4)
    seat = match.current_seat
    assert seat is not None

    async def body() -> tuple[int, list[tuple[int, str]], int, int]:
        pool = ThinkPool(1, patience=1.0)
        await pool.start()
        stopped = await worker_process_id(lambda: pool.think(os.getpid))
        before = pool.hangs  # a call done here while finding a worker (a loaded machine)
        try:
            os.kill(stopped, signal.SIGSTOP)
            moves = await pool.think(computer_moves, match.to_json(), {seat: "normal"}, 7)
            fresh = await pool.think(os.getpid)
            return stopped, moves, fresh, pool.hangs - before
        finally:
            let_go(stopped)
            await pool.close()

    with caplog.at_level(logging.WARNING, logger="bot.workers.think_pool"):
        stopped, moves, fresh, hangs = asyncio.run(asyncio.wait_for(body(), 60))
    assert moves == computer_moves(match.to_json(), {seat: "normal"}, 7)
    assert hangs == 1 and fresh not in (stopped, os.getpid())
    assert "think pool: a worker gave no sign of life" in caplog.text


def test_computer_turns_give_a_sign_of_life_after_each_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch of many decisions keeps its worker counted alive: one sign per decision, so the
    patience is a decision's, never a whole batch's (D150)."""
    signs: list[int] = []
    monkeypatch.setattr(thinking, "beat", lambda: signs.append(1))
    match = games.new("namiji", ["Ann", "Bo", "Cy"], seed=5)
    moves = computer_moves(match.to_json(), dict.fromkeys(range(3), "normal"), 2, turns=6)
    assert len(moves) >= 6 and len(signs) == len(moves)
