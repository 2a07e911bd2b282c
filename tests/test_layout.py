"""The layout docs/architecture.md promises: no file of bot/ over 600 lines."""

from __future__ import annotations

from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"
MOST_LINES = 600


def test_no_bot_file_is_over_600_lines() -> None:
    """Every Python file of bot/ stays within 600 lines (one job per module)."""
    too_long = {
        str(path.relative_to(BOT)): lines
        for path in sorted(BOT.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert too_long == {}
