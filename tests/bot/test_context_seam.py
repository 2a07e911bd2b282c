"""The views get the bot's context handed to them: only the composition root reads it from
``interaction.client`` (``bot/app.py``, ``bot/__main__.py``)."""

from __future__ import annotations

from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
ROOT_FILES = {"app.py", "__main__.py"}


def test_no_module_of_bot_but_the_composition_root_reads_interaction_client() -> None:
    readers = [
        str(path.relative_to(BOT))
        for path in sorted(BOT.rglob("*.py"))
        if "interaction.client" in path.read_text(encoding="utf-8")
        and str(path.relative_to(BOT)) not in ROOT_FILES
    ]
    assert readers == []
