"""The README holds: its Python examples run as written, and the demo comes first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(language: str) -> list[str]:
    """The README's fenced code blocks in ``language`` (``python``, ``sh``), in order."""
    return [body for kind, body in BLOCK.findall(README.read_text("utf-8")) if kind == language]


@pytest.mark.parametrize("number", range(len(blocks("python"))))
def test_each_python_example_runs_as_written(number: int) -> None:
    """Issue 38 item 14: the engine example raised IllegalAction ("place clay 12" is not where
    a first clay boat may go with seed 7) and named ``seat`` and ``events`` it never set."""
    code = blocks("python")[number]
    exec(compile(code, f"README.md python block {number + 1}", "exec"), {})


def test_the_readme_has_its_engine_example() -> None:
    assert any("games.new(" in code for code in blocks("python"))


def test_the_demo_comes_first_in_its_own_block() -> None:
    """Issue 38 item 14: the first command a reader meets is the demo, alone in its block; the
    two commands (tests, run) follow as they were."""
    commands = blocks("sh")
    assert commands[0].strip() == "./scripts/run --demo"
    assert [c.strip() for c in commands[1:3]] == ["./scripts/test", "./scripts/run"]


def test_the_readme_says_global_command_sync_can_take_an_hour() -> None:
    """Issue 38 item 14: without DEV_GUILD_ID the commands are synced globally, which Discord
    can take up to an hour to show."""
    text = " ".join(README.read_text("utf-8").split())
    assert re.search(r"`DEV_GUILD_ID`[^.]*up to an hour|up to an hour[^.]*`DEV_GUILD_ID`", text)
