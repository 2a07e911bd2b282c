"""The turn picture's CPU (issue 25 item 4, D120): its text panels are laid straight into the
palette picture from each line's kept palette image, so only the crop and the lines not yet kept
are mapped to the palette; the picture is exactly the RGB turn picture mapped to the palette."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import render.focus
import render.png
from render import render_focus
from render.extras import Extras
from render.focus import SMALL, Panel, stack, stack_mapped
from render.namiji import focus as namiji_focus
from render.namiji.picture import picture_palette as namiji_palette
from render.png import to_palette
from render.text import draw_text, ink_box
from render.theme import Theme, get_theme
from render.yamatai import focus as yamatai_focus
from render.yamatai.picture import picture_palette as yamatai_palette
from tests.render.test_golden import GOLDEN
from tests.render.test_phone import _clear_caches

SCENES = ["focus-yamatai-place", "focus-yamatai-fleet", "focus-namiji-move", "focus-namiji-keep"]


def _scene(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _palette(name: str) -> Callable[[Theme], Image.Image]:
    return yamatai_palette if "yamatai" in name else namiji_palette


def _indices(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as picture:
        picture.load()
        return picture.copy()


def _same(a: Image.Image, b: Image.Image) -> bool:
    return (
        a.mode == b.mode
        and a.size == b.size
        and a.getpalette() == b.getpalette()
        and ImageChops.difference(a, b).getbbox() is None
    )


@pytest.mark.parametrize("name", SCENES)
@pytest.mark.parametrize("language", ["en", "pl"])
def test_turn_picture_is_its_rgb_picture_mapped_to_the_palette(name: str, language: str) -> None:
    """Laid from kept lines or drawn afresh, the PNG holds exactly the RGB turn picture mapped to
    the game's palette, index for index (first and second drawing alike)."""
    data = _scene(name)
    game = yamatai_focus if "yamatai" in name else namiji_focus
    args: dict[str, Any] = {
        "legal": data["legal"],
        "events": data["events"],
        "extras": Extras(language=language),
    }
    image, _ = game.focus_image(data["view"], **args)
    expected = to_palette(image, _palette(name)(get_theme("default")))
    _clear_caches()
    for _ in range(2):
        assert _same(_indices(render_focus(data["view"], **args)), expected)


def _mapped_pixels(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the pixels every palette mapping takes, wherever it is called from."""
    counted: list[int] = []

    def counting(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
        counted.append(image.width * image.height)
        return to_palette(image, palette)

    monkeypatch.setattr(render.png, "to_palette", counting)
    monkeypatch.setattr(render.focus, "to_palette", counting, raising=False)
    return counted


@pytest.mark.parametrize("name", SCENES)
def test_a_second_turn_picture_maps_only_its_crop(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawn again (its lines kept), a turn picture maps its crop to the palette and none of its
    text panels: under two thirds of the picture's pixels (its panels are about half)."""
    data = _scene(name)
    args: dict[str, Any] = {"legal": data["legal"], "events": data["events"]}
    render_focus(data["view"], **args)
    counted = _mapped_pixels(monkeypatch)
    picture = _indices(render_focus(data["view"], **args))
    assert sum(counted) < 2 * picture.width * picture.height / 3, (sum(counted), picture.size)


def test_lines_whose_ink_meets_are_mapped_as_one_panel() -> None:
    """A line whose ink reaches into the line above (stacked accents) or out of its panel is not
    laid from its own cut: the panel is mapped whole, with the same pixels."""
    look = get_theme("default")
    tall = "E" + "\u0302" * 12
    panel = Panel(
        ((tall, SMALL, look.ink, True), ("gjpq " * 8, SMALL, look.ink, False)), look.panel
    )
    palette = yamatai_palette(look)
    expected = to_palette(stack([panel], look), palette)
    assert _same(stack_mapped([panel], look, palette), expected)
    second = Panel((("gjpq", SMALL, look.ink, False), (tall, SMALL, look.accent, True)), look.panel)
    expected = to_palette(stack([second], look), palette)
    assert _same(stack_mapped([second], look, palette), expected)


def _strip_drawn(
    text: str,
    size: int,
    colour: tuple[int, int, int],
    bold: bool,
    fill: tuple[int, int, int],
    below: float,
    palette: Image.Image,
) -> tuple[bytes, tuple[int, int]] | None:
    """A line drawn on its ink's strip and mapped (the way before the ramps)."""
    box = ink_box((render.focus.MARGIN, below), text, size, "bold" if bold else "regular", "lm")
    if box is None:
        return None
    strip = Image.new("RGB", (box[2] - box[0], box[3] - box[1]), fill)
    at = (render.focus.MARGIN - box[0], below - box[1])
    draw_text(ImageDraw.Draw(strip), at, text, colour, size, "bold" if bold else "regular", "lm")
    return to_palette(strip, palette).tobytes(), (box[0], box[1])


@pytest.mark.parametrize("bold", [True, False])
def test_a_line_mapped_by_its_ramp_is_the_line_drawn_and_mapped(bold: bool) -> None:
    """A new line of one font is mapped by looking each coverage level up in its colour's
    mapped ramp: the same palette indexes as the line drawn on its strip and mapped."""
    look = get_theme("default")
    palette = yamatai_palette(look)
    texts = ["Scores", "▶ Ann: 34+? points, 12 coins", "Fleet 4: BBW · Ébisu", "g, j; q|y", "東京"]
    colours = [(look.ink, look.panel), (look.accent, look.background), (look.ink_soft, look.panel)]
    for text in texts:
        for colour, fill in colours:
            for size, below in (
                (render.focus.SMALL, 0.0),
                (render.focus.BODY, 0.5),
                (render.focus.TITLE, 0.25),
            ):
                render.focus._LINES.forget()
                line = render.focus._mapped_line(text, size, colour, bold, fill, below, palette)
                assert line is not None
                drawn = _strip_drawn(text, size, colour, bold, fill, below, palette)
                assert drawn is not None
                assert (line[0].mode, line[0].tobytes(), line[1]) == ("P", *drawn), text


def test_a_new_line_of_known_colours_is_mapped_without_quantizing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Per-game texts (names, scores) miss the lines kept under load: once its colours' ramp is
    mapped, such a line is mapped without drawing a strip and quantizing it."""
    look = get_theme("default")
    palette = yamatai_palette(look)
    render.focus._mapped_line(
        "Scores ramp", render.focus.SMALL, look.ink, False, look.panel, 0.0, palette
    )
    quantized: list[tuple[int, int]] = []
    keep = to_palette

    def counted(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
        quantized.append(image.size)
        return keep(image, palette)

    monkeypatch.setattr(render.focus, "to_palette", counted)
    line = render.focus._mapped_line(
        "Ramp 17 points", render.focus.SMALL, look.ink, False, look.panel, 0.0, palette
    )
    assert line is not None
    assert not quantized
