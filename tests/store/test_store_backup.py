"""Online backup: a consistent, verifiable copy taken while another process keeps writing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import GameRepository, StoreError, open_store
from bot.store.sqlite import backup_file
from tests.store.store_helpers import (
    REPO_ROOT,
    WRITER,
    create_plain,
    raw,
    run,
    store_cli,
    with_repo,
)


def backup_cli(db: Path, dest: Path) -> subprocess.CompletedProcess[str]:
    """Run the backup command."""
    return store_cli("backup", "--db", str(db), "--to", str(dest))


def test_backup_while_another_process_writes(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), str(db), "7"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        before: list[str] = [proc.stdout.readline() for _ in range(40)]
        results = [backup_cli(db, tmp_path / f"copy{i}.sqlite3") for i in range(3)]
        proc.stdout.readline()  # still writing after the backups
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()
    for i, result in enumerate(results):
        assert result.returncode == 0, result.stderr
        assert "backed up to" in result.stdout
        copy = tmp_path / f"copy{i}.sqlite3"
        assert not Path(f"{copy}-wal").exists()  # a self-contained file
        conn = raw(copy)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = {
            f"{g} {s} {seat} {n}\n"
            for g, s, seat, n in conn.execute("SELECT game_id, seq, seat, notation FROM actions")
        }
        conn.close()
        assert set(before) <= stored  # everything acknowledged before the backup is in it
        assert store_cli("verify", "--db", str(copy)).returncode == 0


def test_backup_from_the_repository_and_restore(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    dest = tmp_path / "backups" / "b.sqlite3"

    async def body(repo: GameRepository) -> int:
        game = await create_plain(repo)
        await repo.append_actions(game.id, 1, [(0, "x")], '{"n":1}', current_seat=1)
        return await repo.backup(dest)

    assert with_repo(db, body) > 0

    async def restored() -> tuple[int, str]:
        repo = await open_store(dest)
        try:
            game = await repo.load_game_by_thread(30)
            return game.version, game.snapshot
        finally:
            await repo.close()

    assert run(restored()) == (2, '{"n":1}')


def test_backup_refuses_to_overwrite_the_database(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    with_repo(db, create_plain)
    with pytest.raises(StoreError, match="must not overwrite"):
        backup_file(db, db)
    result = backup_cli(tmp_path / "missing.sqlite3", tmp_path / "x.sqlite3")
    assert result.returncode == 2 and "does not exist" in result.stderr
