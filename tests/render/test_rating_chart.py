"""The ``/rating`` chart and the standings' numbers (issue 38 item 12): the chart says what
its axis counts and does not repeat the card's heading; numbers as the reader writes them."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

from PIL import Image

from bot.catalog import default_catalog
from bot.league_picture import standing_columns
from bot.service.league_results import StandingLine
from render.league import render_rating_chart

HISTORY = [3.2, 5.1, 4.4]


def _rows_with_ink(png: bytes, top: int, bottom: int) -> int:
    """How many rows of pixels between ``top`` and ``bottom`` hold anything but the panel."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, panel = image.width, image.getpixel((0, 0))  # the panel, as the PNG's palette has it
    return sum(
        any(image.getpixel((x, y)) != panel for x in range(width)) for y in range(top, bottom)
    )


def test_the_rating_chart_names_its_axis_and_leaves_the_title_to_the_card() -> None:
    """No title band at the top (the card's heading names the player and the game); the axis
    is labelled under the line, in the words given."""
    labelled = render_rating_chart(HISTORY, axis="parties cotées →", number=str)
    bare = render_rating_chart(HISTORY, axis="", number=str)
    height = Image.open(io.BytesIO(labelled)).height
    assert _rows_with_ink(labelled, 0, 10) == 0
    assert _rows_with_ink(labelled, height - 30, height) > 5
    assert _rows_with_ink(bare, height - 30, height) == 0


def test_the_chart_writes_its_marks_with_the_number_it_is_given() -> None:
    """The marks are the caller's (``decimal`` in the reader's language): "1,5", not "1.5"."""
    written: list[float] = []

    def number(value: float) -> str:
        written.append(value)
        return f"{value:.1f}".replace(".", ",")

    render_rating_chart(HISTORY, axis="x", number=number)
    assert written == [0.0, 2.55, 5.1]


def test_league_points_are_written_as_the_reader_writes_them() -> None:
    """A tie's half points were "1.5" on a French standings picture and page: "1,5"."""
    catalog = default_catalog()

    def say(key: str, **params: Any) -> str:
        return catalog.text(key, "fr", **params)

    line = StandingLine(
        rank=1,
        user_id=11,
        name="Ann",
        points=1.5,
        played=2,
        wins=0,
        rating=12.25,
        change=-0.5,
        withdrawn=False,
    )
    assert standing_columns(say, line, "fr")[2:] == ("1,5", "2", "12,2", "-0,5")
    assert standing_columns(say, replace(line, points=3.0), "fr")[2] == "3"
    assert standing_columns(say, line, "en")[2] == "1.5"
