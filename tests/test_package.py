"""The wheel is a working bot: built, installed into a fresh folder, run from outside the checkout.

Nothing may be found through the source tree: the installed copy runs with ``python -S -P`` (no
site hooks, so no editable-install finder; no current directory on the path) from an empty folder,
with the wheel's folder first on the path and the test environment's third-party packages after it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


UNPACKAGED = (
    ".git",
    ".venv",
    "build",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "out",
)
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built as a wheel (``pip wheel``, as a packager would), once per run: the
    xdist workers of a run share it (whichever comes first builds it, the other waits)."""
    base = tmp_path_factory.getbasetemp()
    # A worker's base is popen-gwN inside its run's own folder; without xdist, the process's.
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    wheels = shared / "himiko-wheels"
    with (shared / "himiko-wheels.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not any(wheels.glob("himiko-*.whl")):
            source = tmp_path_factory.mktemp("source") / "himiko"
            # A copy, so the build leaves nothing in the checkout and no stale build/ reaches it.
            shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*UNPACKAGED))
            subprocess.run([*PIP, "wheel", "--no-deps", "-w", str(wheels), str(source)], check=True)
    (built,) = wheels.glob("himiko-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed (``pip install --target``) into a fresh folder."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([*PIP, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)
    return target


def _run(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -S -P -m ARGS`` in cwd, seeing only the installed copy and third-party packages."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DISCORD_TOKEN", "DATABASE_URL", "PYTHONPATH"}
    }
    env["PYTHONPATH"] = os.pathsep.join([str(installed), *site.getsitepackages()])
    return subprocess.run(
        [sys.executable, "-S", "-P", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_wheel_carries_every_data_file(wheel: Path) -> None:
    """Migrations, fonts, the stored pictures, engine data and every locale file are in the
    wheel."""
    names = set(zipfile.ZipFile(wheel).namelist())
    games_texts = [*ROOT.glob("render/*/locale/*.json"), *ROOT.glob("bot/games/*/locale/*.json")]
    assert len(games_texts) >= 16  # four languages, two layers, each shipped game
    for source in [
        *ROOT.glob("migrations/*.sql"),
        *ROOT.glob("migrations/postgres/*.sql"),
        *ROOT.glob("render/assets/fonts/*"),
        *ROOT.glob("render/assets/stored/*"),
        *ROOT.glob("render/locale/*.json"),
        *ROOT.glob("bot/catalog/*.json"),
        *games_texts,
        *ROOT.glob("engine/**/data/*.json"),
    ]:
        assert source.relative_to(ROOT).as_posix() in names


def test_the_installed_bot_starts_migrates_and_draws(installed: Path, tmp_path: Path) -> None:
    """``python -m bot`` without a token, ``bot.store migrate`` and ``render demo`` all work."""
    started = _run(installed, tmp_path, "-m", "bot")
    assert started.returncode == 2, started.stderr
    assert len(started.stderr.strip().splitlines()) == 1
    assert "DISCORD_TOKEN" in started.stderr

    database = tmp_path / "himiko.sqlite3"
    migrated = _run(installed, tmp_path, "-m", "bot.store", "migrate", "--db", str(database))
    assert migrated.returncode == 0, migrated.stderr
    assert database.is_file()

    out = tmp_path / "demo"
    demo = _run(installed, tmp_path, "-m", "render", "demo", "--players", "2", "--out", str(out))
    assert demo.returncode == 0, demo.stderr
    assert (out / "final.png").is_file()

    steps = "from bot.catalog import default_catalog as c; print(c().text('yamatai.step.fleet'))"
    said = _run(installed, tmp_path, "-c", steps)
    assert said.returncode == 0 and said.stdout.strip() not in ("", "yamatai.step.fleet"), said

    where = _run(installed, tmp_path, "-c", "import bot, migrations; print(bot.__file__)")
    assert where.stdout.strip().startswith(str(installed)), where.stdout
