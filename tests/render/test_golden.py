"""Golden images: fixed views rendered and compared with stored pictures, with a small tolerance.

The views are stored next to the pictures (golden/*.json), so an engine change does not move
them; regenerate both with UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.yamatai.view import yamatai_view
from render.yamatai.highlight import Highlight
from render.yamatai.picture import render_board
from tests.render.games import (
    highlight_from_json,
    highlight_to_json,
    play_actions,
    play_turns,
)
from tests.render.probes import decode

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
CHANNEL_TOLERANCE = 48  # a pixel counts as different past this on any channel
MAX_DIFFERENT = 0.0005  # share of pixels allowed to differ (font rasterizer drift)
MAX_MEAN = 3.0  # mean absolute difference per channel (the stored pictures are 256-colour)


def _scenario(name: str) -> tuple[dict[str, Any], Highlight]:
    """The view and highlight of a golden scenario, made by playing the engine."""
    if name == "4p-seed7-turn20":
        match, hl = play_turns(4, 7, 20)
        return match.view(None), hl
    if name == "3p-seed5-final":
        match, hl = play_turns(3, 5, None)
        return match.view(None), hl
    if name == "2p-seed3-midturn":
        match = play_actions(2, 3, 33)
        seat = match.current_seat
        return match.view(seat), Highlight.from_view(yamatai_view(match.view(seat)))
    raise KeyError(name)


SCENARIOS = ("4p-seed7-turn20", "3p-seed5-final", "2p-seed3-midturn")


def _half(image: Image.Image) -> Image.Image:
    """Golden pictures are kept at half size to stay small."""
    return image.reduce(2)


@pytest.mark.parametrize("name", SCENARIOS)
def test_golden(name: str) -> None:
    view_path = GOLDEN / f"{name}.json"
    image_path = GOLDEN / f"{name}.png"
    if UPDATE:
        view, hl = _scenario(name)
        data = {"view": view, "highlight": highlight_to_json(hl)}
        view_path.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    data = json.loads(view_path.read_text(encoding="utf-8"))
    view, hl = data["view"], highlight_from_json(data["highlight"])
    actual = _half(decode(render_board(view, highlight=hl)))
    if UPDATE:
        actual.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            image_path, optimize=True
        )
    assert_matches(image_path, actual)


def assert_matches(image_path: Path, actual: Image.Image) -> None:
    """Compare a half-size picture with a stored golden one; keep the failure pictures."""
    name = image_path.stem
    with Image.open(image_path) as stored:
        expected = stored.convert("RGB")
    assert expected.size == actual.size
    diff = ImageChops.difference(actual, expected)
    channels = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    histogram = worst.histogram()
    total = actual.width * actual.height
    different = sum(histogram[CHANNEL_TOLERANCE + 1 :]) / total
    mean = sum(i * n for i, n in enumerate(histogram)) / total
    if different > MAX_DIFFERENT or mean > MAX_MEAN:
        out = GOLDEN.parent / "golden-failures"
        out.mkdir(exist_ok=True)
        actual.save(out / f"{name}-actual.png")
        diff.point(lambda v: min(255, v * 4)).save(out / f"{name}-diff.png")
    assert different <= MAX_DIFFERENT, f"{different:.4%} of pixels differ (see golden-failures/)"
    assert mean <= MAX_MEAN, f"mean difference {mean:.2f}"
