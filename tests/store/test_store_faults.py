"""A database that cannot be used: one line on stderr and exit code 2, for the bot and the CLI.

Faults injected: a file that is not a database (binary, text), a schema newer than the code,
a read-only file system (a tmpfs remounted read-only in a private user and mount namespace, so
SQLite gets a real EROFS) and a read-only file and folder (chmod; as root the command runs
without the capabilities that let root ignore permissions). The database still verifies clean
afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path

import pytest

from bot.store.migrate import DEFAULT_MIGRATIONS_DIR
from tests.store.store_helpers import REPO_ROOT, raw
from tests.store.test_store_verify import populate, verify_cli

#: As root, run a command without the capabilities that override file permissions.
NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
STORE_COMMANDS = ("migrate", "verify", "repair", "backup")


def _command(name: str, db: Path) -> list[str]:
    """``python -m bot.store NAME --db DB`` (or ``python -m bot`` for "bot")."""
    if name == "bot":
        return [sys.executable, "-m", "bot"]
    argv = [sys.executable, "-m", "bot.store", name, "--db", str(db)]
    if name == "backup":
        argv += ["--to", str(db.with_name("copy.sqlite3"))]
    return argv


def _env(db: Path) -> dict[str, str]:
    """Environment for either command: the bot reads its database path from DATABASE_PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        DISCORD_TOKEN="fake.token.value",
        DATABASE_PATH=str(db),
        DISCORD_API_BASE="http://127.0.0.1:9/api/v10",  # never reached: the database fails first
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9",
    )
    return env


def _run(argv: Sequence[str], db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(argv), cwd=db.parent, env=_env(db), capture_output=True, text=True, timeout=120
    )


def _assert_one_line_exit_2(result: subprocess.CompletedProcess[str], *phrases: str) -> None:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    for phrase in phrases:
        assert phrase in lines[0], lines[0]


@pytest.fixture
def good_db(tmp_path: Path) -> Path:
    """A database with four games."""
    db = tmp_path / "good.sqlite3"
    populate(db)
    return db


NOT_A_DATABASE = {
    "binary": bytes(range(256)) * 16,
    "text": b"these are not the games you are looking for\n" * 40,
}


@pytest.mark.parametrize("command", ["bot", *STORE_COMMANDS])
@pytest.mark.parametrize("content", sorted(NOT_A_DATABASE))
def test_a_file_that_is_not_a_database(tmp_path: Path, command: str, content: str) -> None:
    db = tmp_path / "himiko.sqlite3"
    db.write_bytes(NOT_A_DATABASE[content])
    result = _run(_command(command, db), db)
    _assert_one_line_exit_2(result, "not an SQLite database")
    assert db.read_bytes() == NOT_A_DATABASE[content]


def _set_version(db: Path, version: int) -> None:
    conn = raw(db)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()


@pytest.mark.parametrize("command", ["bot", "migrate", "verify", "repair"])
def test_a_schema_newer_than_the_code(good_db: Path, command: str) -> None:
    newest = len(list(DEFAULT_MIGRATIONS_DIR.glob("*.sql")))
    _set_version(good_db, newest + 1)
    result = _run(_command(command, good_db), good_db)
    _assert_one_line_exit_2(result, "newer than this code")
    _set_version(good_db, newest)
    assert verify_cli(good_db).returncode == 0


def test_a_newer_schema_can_still_be_backed_up(good_db: Path) -> None:
    """A backup copies pages, whatever the schema: the safe first step before a downgrade."""
    newest = len(list(DEFAULT_MIGRATIONS_DIR.glob("*.sql")))
    _set_version(good_db, newest + 1)
    assert _run(_command("backup", good_db), good_db).returncode == 0
    conn = raw(good_db.with_name("copy.sqlite3"))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == newest + 1
    conn.close()


@cache
def _namespaces_work() -> bool:
    """Whether this machine lets us make a user and mount namespace and mount a tmpfs in it."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    probe = [unshare, "--user", "--map-root-user", "--mount", "sh", "-c"]
    probe.append("d=$(mktemp -d) && mount -t tmpfs tmpfs $d && mount -o remount,ro $d")
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


# $1: a folder to mount over, $2: the database to copy in; the rest is the command to run.
READ_ONLY_MOUNT = (
    'mount -t tmpfs tmpfs "$1" && cp "$2" "$1/" && mount -o remount,ro "$1" && shift 2 && "$@"'
)


@pytest.mark.skipif(not _namespaces_work(), reason="no user/mount namespaces to mount a tmpfs")
@pytest.mark.parametrize("command", ["bot", *STORE_COMMANDS])
def test_a_read_only_file_system(good_db: Path, tmp_path: Path, command: str) -> None:
    mount = tmp_path / "ro"
    mount.mkdir()
    db = mount / good_db.name
    wrapper = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", READ_ONLY_MOUNT]
    argv = [*wrapper, "sh", str(mount), str(good_db), *_command(command, db)]
    result = _run(argv, db)
    _assert_one_line_exit_2(result, "read-only")
    assert verify_cli(good_db).returncode == 0


@pytest.fixture
def read_only_copy(good_db: Path, tmp_path: Path) -> Iterator[Path]:
    """The database copied into a folder, then made read-only (file and folder)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / good_db.name
    shutil.copy(good_db, db)
    db.chmod(0o444)
    folder.chmod(0o555)
    yield db
    folder.chmod(0o755)
    db.chmod(0o644)


@pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("setpriv") is None, reason="root needs setpriv here"
)
@pytest.mark.parametrize("command", ["bot", *STORE_COMMANDS])
def test_a_read_only_file_and_folder(read_only_copy: Path, command: str) -> None:
    prefix = NO_OVERRIDE if os.geteuid() == 0 else []
    result = _run([*prefix, *_command(command, read_only_copy)], read_only_copy)
    _assert_one_line_exit_2(result, "read-only")
    assert verify_cli(read_only_copy).returncode == 0
