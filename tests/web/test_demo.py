"""``./scripts/run --demo`` (``python -m bot.web.demo``): games without Discord, served pages."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import queue
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

from PIL import Image

from tests.waiting import eventually

ROOT = Path(__file__).resolve().parents[2]


def test_demo_plays_games_and_serves_their_pages(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    db = tmp_path / "demo.sqlite3"
    command = [sys.executable, "-m", "bot.web.demo", "--port", "0", "--db", str(db)]
    process = subprocess.Popen(
        [*command, "--render-processes", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines: list[str] = []
        while len(re.findall(r"http://127\.0\.0\.1:\d+/g/\d+/\S+", "".join(lines))) < 4:
            line = process.stdout.readline()
            assert line, f"the demo stopped: {''.join(lines)} {process.stderr.read()}"  # type: ignore[union-attr]
            lines.append(line)
        text = "".join(lines)
        assert re.search(r"Playing \d+ games and a league between computer players", text)
        assert "finished" in text and "actions" in text  # some over, some under way
        links = re.findall(r"http://127\.0\.0\.1:\d+/g/\d+/\S+", text)
        with urllib.request.urlopen(links[-1], timeout=30) as answer:
            html = answer.read().decode()
        assert answer.status == 200 and '<html lang="pl">' in html  # 4th game: Polish
        with urllib.request.urlopen(links[0] + "/v/1.png", timeout=60) as answer:
            png = answer.read()
        # the board after the step, as the page shows it (not the bot's 900-px turn picture)
        assert Image.open(io.BytesIO(png)).size == (1600, 1100)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert db.exists()


LINK = r"http://127\.0\.0\.1:\d+/[gl]/\d+/[A-Za-z0-9_-]+"


def _demo(db: Path, port: int) -> subprocess.Popen[str]:
    """``python -m bot.web.demo`` on ``db`` and ``port``, pictures drawn in a thread (with
    faulthandler: ``_stack`` gets every thread's stack from a demo that hangs)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    command = [
        *(sys.executable, "-X", "faulthandler", "-m", "bot.web.demo"),
        *("--port", str(port), "--db", str(db)),
    ]
    return subprocess.Popen(
        [*command, "--render-processes", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _told(process: subprocess.Popen[str]) -> str:
    """What the demo printed up to its last line ("Ctrl+C stops the demo."); a failure, not a
    hang, if it never comes (read in a thread, with a bound far above the demo's minute)."""
    out, err = process.stdout, process.stderr
    assert out is not None and err is not None
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in out:
            lines.put(line)
        lines.put("")  # the end: the demo stopped

    threading.Thread(target=read, daemon=True).start()
    told: list[str] = []
    while not told or not told[-1].startswith("Ctrl+C stops"):
        try:
            line = lines.get(timeout=600)
        except queue.Empty:
            hung = f"the demo never said it was ready: {''.join(told)}{_stack(process)}"
            raise AssertionError(hung) from None
        assert line, f"the demo stopped: {''.join(told)} {err.read()}"
        told.append(line)
    return "".join(told)


def _stop(process: subprocess.Popen[str]) -> None:
    """Ctrl+C, and the demo ends well."""
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(timeout=60) == 0
    except subprocess.TimeoutExpired:
        raise AssertionError(f"not ended 60 s after Ctrl+C:\n{_stack(process)}") from None


def _stack(process: subprocess.Popen[str]) -> str:
    """What a hung demo was doing: SIGABRT makes faulthandler print every thread's stack."""
    process.send_signal(signal.SIGABRT)
    process.wait(timeout=30)
    assert process.stderr is not None
    return process.stderr.read()


def _status(link: str) -> int:
    with urllib.request.urlopen(link, timeout=60) as answer:
        answer.read()
        return int(answer.status)


def test_a_second_start_keeps_the_links_and_shows_a_league(tmp_path: Path) -> None:
    """Issue 38 item 13: the links (signed with the demo's secret) are the same on every start
    with the same file, so an old link still opens its page; each game says its language; a
    league and its page; what to do next."""
    db = tmp_path / "demo.sqlite3"
    first = _demo(db, 0)
    try:
        told = _told(first)
        links = re.findall(LINK, told)
        port = int(re.findall(r"127\.0\.0\.1:(\d+)", told)[0])
        for language in ("English", "French", "Italian", "Polish"):
            assert f"in {language}" in told
        (league,) = [link for link in links if "/l/" in link]
        assert re.search(r"League .* \(Yamatai, in French; round 2 of 2", told)
        assert _status(league) == 200
        assert "What next" in told and "docs/bot.md" in told and "--fresh" in told
        _stop(first)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    second = _demo(db, port)
    try:
        again = _told(second)
        assert "Playing" not in again  # nothing played again
        assert re.findall(LINK, again) == links
        assert [_status(link) for link in (links[0], league)] == [200, 200]
        _stop(second)
    finally:
        if second.poll() is None:
            second.kill()
            second.wait()


def _half_played(db: Path) -> bool:
    """The demo's first game (thread 1001) is stored with a few actions and under way."""
    with (
        contextlib.suppress(sqlite3.Error),
        contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as connection,
    ):
        row = connection.execute(
            "SELECT action_count, status FROM games WHERE thread_id = 1001"
        ).fetchone()
        return row is not None and row[0] >= 10 and row[1] == "active"
    return False


def test_a_start_killed_while_playing_is_gone_on_with_by_the_next(tmp_path: Path) -> None:
    """Killed while it plays, the demo's next start on the file plays what is missing: every
    game and the league, the games meant to end ended."""
    db = tmp_path / "demo.sqlite3"
    first = _demo(db, 0)
    try:
        asyncio.run(eventually(lambda: _half_played(db), "the first game half played", 300))
    finally:
        first.kill()
        first.wait()
    second = _demo(db, 0)
    try:
        told = _told(second)
        assert told.count("/g/") == 4 and told.count("/l/") == 1
        assert told.count("finished") == 2 and "round 2 of 2 under way" in told
        _stop(second)
    finally:
        if second.poll() is None:
            second.kill()
            second.wait()


def test_a_busy_port_says_to_choose_another_with_port(tmp_path: Path) -> None:
    """Issue 38 item 13: a port already taken is one line naming it with the ``--port`` hint,
    a non-zero exit and no traceback, before any game is played."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = _demo(tmp_path / "demo.sqlite3", port)
        out, err = process.communicate(timeout=120)
    assert process.returncode != 0
    assert "Traceback" not in err and "Playing" not in out
    (line,) = err.strip().splitlines()
    assert f"127.0.0.1:{port}" in line and "--port" in line
