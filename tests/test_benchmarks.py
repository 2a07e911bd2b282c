"""The benchmark scripts still start (their imports and options); the load benchmark's counting
of refusals, its verify and its messages posted twice, also on a tiny run."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from tests.discord_double import MessageRecord

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


def test_the_render_benchmark_draws_many_games_each_picture_once() -> None:
    """benchmarks/render.py --many: the turn pictures of a few games played in turn, each drawn
    once, with their CPU each and in reference units."""
    script = next(p for p in BENCHMARKS if p.name == "render.py")
    args = ["--many", "3", "--steps", "2"]
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "many games: 3 two-player yamatai games, 2 actions each" in done.stdout
    turns = next(line for line in done.stdout.splitlines() if line.startswith("turn pictures:"))
    assert turns.startswith("turn pictures: 6,") and "references each" in turns


def load_benchmark() -> ModuleType:
    """benchmarks/load.py as a module (its functions, not its run)."""
    script = next(p for p in BENCHMARKS if p.name == "load.py")
    spec = importlib.util.spec_from_file_location("himiko_bench_load", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_load_benchmark_counts_refusals_apart_and_saturation_refuses_at_most_1pc() -> None:
    """A refused command has its own line and is no /play answer; a rate whose answers are
    fast but refuses more than 1% of its commands is not a saturation rate."""
    load = load_benchmark()
    assert load.refusals([]) == "refused (busy): 0"
    assert load.refusals([0.002, 0.004, 0.010]) == "refused (busy): 3, answer p50 4 ms, p95 10 ms"
    fast = load.Results(play=[0.05] * 100, commands=100)
    assert load.under_a_second(fast)
    fast.refused = [0.003]  # 1 of 101
    assert load.under_a_second(fast)
    fast.refused = [0.003, 0.003]  # 2 of 102: over 1%
    assert not load.under_a_second(fast)


class Thread:
    """A thread id as the double lists it."""

    def __init__(self, thread_id: int) -> None:
        self.id = thread_id


def test_the_load_benchmark_counts_a_thread_message_posted_twice() -> None:
    """The bot's public messages in a thread repeating an earlier one's text and buttons, or
    its nonce, count; another author's, another thread's, other texts or buttons do not."""
    load = load_benchmark()
    bot, player = 1, 2

    def message(
        text: str, author: int = bot, nonce: str | None = None, button: str = ""
    ) -> MessageRecord:
        row = [{"type": 1, "components": [{"type": 2, "custom_id": button}]}] if button else []
        return MessageRecord(
            id=0,
            channel_id=0,
            guild_id=None,
            author_id=author,
            content=text,
            nonce=nonce,
            components=row,
        )

    said = {
        10: [
            message("Turn 1"),
            message("Turn 2"),
            message("Turn 2"),  # twice
            message("Turn 1", author=player),
            message("Pass", button="turn:7:5:2"),
            message("Pass", button="turn:7:6:3"),  # the same words, another turn
            message("Pass", button="turn:7:6:3"),  # twice
        ],
        11: [message("Turn 1", nonce="7:3"), message("Turn 3", nonce="7:3")],  # one turn
    }

    class Double:
        state = SimpleNamespace(app_id=bot)

        def threads(self) -> list[Thread]:
            return [Thread(10), Thread(11)]

        def messages(self, thread_id: int, *, include_ephemeral: bool) -> list[MessageRecord]:
            assert not include_ephemeral
            return said[thread_id]

    assert load.posted_twice(Double()) == 3


def test_the_load_benchmark_runs_verify_on_the_runs_database(tmp_path: Path) -> None:
    """``verify: clean`` with the count of games on a sound database; its findings (and the
    exit code) when it cannot check one."""
    load = load_benchmark()
    database = tmp_path / "himiko.sqlite3"
    migrate = [sys.executable, "-m", "bot.store", "migrate", "--db", str(database)]
    subprocess.run(migrate, check=True, capture_output=True, timeout=120)
    said = load.verify(str(database))
    assert said[0].startswith("verify: clean (") and "checked 0 games" in said[0]
    missing = load.verify(str(tmp_path / "missing.sqlite3"))
    assert missing[0] == "verify: exit 2, findings:" and "does not exist" in missing[1]


def test_the_load_benchmark_prints_its_refusals_verify_and_messages_posted_twice() -> None:
    """A tiny run (3 games, 4 commands/s for 1 s: four commands, each game free for the next
    one; most of the run is the bot starting and stopping): every existing line, then the new
    ones."""
    script = next(p for p in BENCHMARKS if p.name == "load.py")
    args = ["--games", "3", "--rate", "4", "--duration", "1"]
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for name in ("/play (its reply): p50", "turn message: ", "throughput: ", "cpu per command: "):
        assert any(line.startswith(name) for line in lines), (name, done.stdout)
    assert "refused (busy): 0" in lines
    assert any(line.startswith("verify: clean (") for line in lines), done.stdout
    assert "messages posted twice: 0" in lines
