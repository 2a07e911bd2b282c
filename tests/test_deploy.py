"""The systemd units in deploy/ are valid (``systemd-analyze verify``, where it is installed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
PYTHON = "/opt/himiko/.venv/bin/python"
ANALYZE = shutil.which("systemd-analyze")


def _units(tmp_path: Path) -> list[Path]:
    """The units with the installed Python replaced by this one (verify checks it exists)."""
    copies = []
    for unit in sorted(DEPLOY.glob("himiko*.*")):
        copy = tmp_path / unit.name
        copy.write_text(unit.read_text(encoding="utf-8").replace(PYTHON, sys.executable))
        copies.append(copy)
    return copies


def test_the_units_use_the_documented_commands() -> None:
    service = (DEPLOY / "himiko.service").read_text(encoding="utf-8")
    assert f"ExecStart={PYTHON} -m bot" in service and "Restart=always" in service
    backup = (DEPLOY / "himiko-backup.service").read_text(encoding="utf-8")
    assert f"{PYTHON} -m bot.store backup --db " in backup
    assert "OnCalendar=" in (DEPLOY / "himiko-backup.timer").read_text(encoding="utf-8")


def _settings(unit: str) -> dict[str, str]:
    """A unit's ``Key=value`` lines (the last of a key wins, as in systemd)."""
    lines = (DEPLOY / unit).read_text(encoding="utf-8").splitlines()
    pairs = (line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


def test_the_service_is_watched_by_systemd_and_may_open_many_files() -> None:
    """Type=notify with a watchdog (bot/ops/watchdog.py pings it every half period), and
    LimitNOFILE raised for the connections (issue 35 item 3)."""
    service = _settings("himiko.service")
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert int(service["WatchdogSec"]) >= 10  # far above a ping every half period
    assert int(service["TimeoutStartSec"]) >= 90  # READY=1 comes once connected
    assert service["LimitNOFILE"] == "65536"
    assert service["Restart"] == "always"  # a watchdog kill is restarted


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_accepts_the_units(tmp_path: Path) -> None:
    assert ANALYZE is not None
    units = _units(tmp_path)
    assert [u.name for u in units] == [
        "himiko-backup.service",
        "himiko-backup.timer",
        "himiko.service",
    ]
    done = subprocess.run(
        [ANALYZE, "verify", *map(str, units)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    # unknown keys and bad values are only warned about: none may appear
    assert not [line for line in done.stderr.splitlines() if str(tmp_path) in line], done.stderr
