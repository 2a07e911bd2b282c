"""python -m render demo: one PNG per turn plus the final board."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from render.__main__ import main


def test_demo_writes_one_png_per_turn_and_the_final_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--seed", "7", "--players", "2", "--out", str(tmp_path)]) == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert "final.png" in files
    turns = [f for f in files if f.startswith("turn-")]
    assert turns[0] == "turn-001.png" and len(turns) == len(files) - 1
    with Image.open(tmp_path / "final.png") as image:
        assert image.size == (1600, 1100)
    assert "wrote" in capsys.readouterr().out
