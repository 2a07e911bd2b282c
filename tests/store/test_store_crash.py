"""Killed mid-write (SIGKILL): the file opens, is intact, verifies, keeps acknowledged appends."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Target, is_url, open_store
from tests.backends import database
from tests.store.store_helpers import REPO_ROOT, WRITER, raw, run, store_cli

pytestmark = pytest.mark.usefixtures("backend")


def run_and_kill(db: Target, seed: int, appends: int) -> list[tuple[int, int, int, str]]:
    """Start the writer, read ``appends`` acknowledged appends, SIGKILL it; return them."""
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), str(db), str(seed)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    acked: list[tuple[int, int, int, str]] = []
    try:
        assert proc.stdout is not None
        while len(acked) < appends:
            line = proc.stdout.readline()
            if not line:
                raise AssertionError(f"writer stopped early: {proc.stderr.read()}")  # type: ignore[union-attr]
            game_id, seq, seat, notation = line.rstrip("\n").split(" ", 3)
            acked.append((int(game_id), int(seq), int(seat), notation))
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        # Whatever it printed after the last line we read was acknowledged too.
        if proc.stdout is not None:
            for line in proc.stdout.read().splitlines():
                if line.count(" ") >= 3:
                    game_id, seq, seat, notation = line.split(" ", 3)
                    acked.append((int(game_id), int(seq), int(seat), notation))
            proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    return acked


def test_sigkill_during_appends_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = database(tmp_path, "crash.sqlite3")
    rng = random.Random(2024)
    acked: list[tuple[int, int, int, str]] = []
    for iteration in range(4):
        acked += run_and_kill(db, seed=iteration + 1, appends=rng.randint(30, 150))
        conn = raw(db)
        if not is_url(db):  # PostgreSQL checks its constraints at every statement
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        stored = {
            (g, s): (seat, n)
            for g, s, seat, n in conn.execute("SELECT game_id, seq, seat, notation FROM actions")
        }
        conn.close()
        missing = [a for a in acked if stored.get((a[0], a[1])) != (a[2], a[3])]
        assert missing == [], f"iteration {iteration}: acknowledged appends lost: {missing[:5]}"
        result = store_cli("verify", "--db", str(db))
        assert result.returncode == 0, result.stdout + result.stderr
    assert len({a[0] for a in acked}) >= 4  # each run starts games of its own

    async def reopen() -> int:
        repo = await open_store(db)
        try:
            return len(await repo.game_ids())
        finally:
            await repo.close()

    assert run(reopen()) >= 2
