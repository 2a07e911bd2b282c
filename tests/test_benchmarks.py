"""The benchmark scripts still start: their imports and options (they are not run here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("script", BENCHMARKS, ids=[p.name for p in BENCHMARKS])
def test_a_benchmark_script_starts(script: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_the_players_benchmark_runs_a_tiny_match() -> None:
    """benchmarks/players.py with one game and a two-sample search: it prints its table."""
    script = next(p for p in BENCHMARKS if p.name == "players.py")
    args = ["--games", "1", "--iterations", "2", "--game", "namiji", "--players", "2"]
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| namiji |")]
    assert len(rows) == 2 and "strong-normal" in rows[0] and "easy-normal" in rows[1]
    assert "reference unit" in done.stdout
