"""``./scripts/run --demo`` (``python -m bot.web.demo``): games without Discord, served pages."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

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
        assert re.search(r"Playing \d+ games between computer players", text)
        assert "finished" in text and "actions" in text  # some over, some under way
        links = re.findall(r"http://127\.0\.0\.1:\d+/g/\d+/\S+", text)
        with urllib.request.urlopen(links[-1], timeout=30) as answer:
            html = answer.read().decode()
        assert answer.status == 200 and '<html lang="pl">' in html  # 4th game: Polish
        with urllib.request.urlopen(links[0] + "/v/1.png", timeout=60) as answer:
            assert answer.read().startswith(b"\x89PNG")
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert db.exists()
