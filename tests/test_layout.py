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


def test_the_bot_top_level_is_the_documented_one() -> None:
    """Every module and package at the top of bot/ is named in the left column of
    docs/architecture.md's drawing, and that column names none that is gone."""
    doc = (BOT.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawing = doc.split("```")[1]
    left_column = {w for line in drawing.splitlines() for w in line[:26].replace(",", " ").split()}
    here = {p.name for p in BOT.glob("*.py")} | {
        p.name + "/" for p in BOT.iterdir() if (p / "__init__.py").is_file()
    }
    named = {
        w.split("/")[0] + "/" if "/" in w else w for w in left_column if w.endswith((".py", "/"))
    }
    assert here - {"__init__.py"} - named == set()  # each one in the drawing...
    assert named - here - {"bot/", "render/", "engine/"} == set()  # ...and nothing that is gone
