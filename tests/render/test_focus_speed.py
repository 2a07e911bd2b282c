"""The turn picture drawn at its size (issue 25 item 4): Yamatai's map part and Namiji's route
are not cut from a drawn board and scaled, but drawn on the static layer scaled once per game,
size and zoom (Namiji's centre, drawn in place, alone scaled); the other parts of a board are
drawn only where the turn picture shows them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.namiji.view import NamijiView, namiji_view
from engine.yamatai.view import YamataiView, yamatai_view
from render import focus, render_focus
from render.focus import Frame, Marked
from render.fonts import Style
from render.namiji import focus as namiji_focus
from render.namiji import layout as namiji_layout
from render.namiji.highlight import Highlight as NamijiHighlight
from render.namiji.picture import render_image as namiji_image
from render.text import text_length
from render.theme import get_theme
from render.yamatai import focus as yamatai_focus
from render.yamatai.highlight import Highlight
from render.yamatai.layout import layout
from render.yamatai.picture import render_image as yamatai_image
from render.yamatai.static import static_layer
from tests.render.test_golden import GOLDEN
from tests.render.test_phone import _namiji


def _stored(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _yamatai_marks(name: str) -> tuple[YamataiView, list[Marked], tuple[int, int, int, int]]:
    data = _stored(name)
    view = yamatai_view(data["view"])
    lay = layout("default", len(view["players"]))
    marks, area = yamatai_focus._marks(view, lay, yamatai_focus.legal_targets(data["legal"]))
    return view, marks, area.box


def _yamatai_areas(players: int) -> Iterator[tuple[int, int, int, int]]:
    lay = layout("default", players)
    yield from (r.box for r in (lay.header, lay.map, lay.fleet, lay.buildings, lay.specialists))
    yield from (r.box for r in lay.panels)


@pytest.mark.parametrize("name", ["focus-yamatai-place", "focus-yamatai-fleet"])
def test_yamatai_region_draws_the_same_pixels_where_it_shows(name: str) -> None:
    """Drawn for a region, the board has exactly the full drawing's pixels inside it."""
    data = _stored(name)
    view = yamatai_view(data["view"])
    hl = Highlight.from_events(data["events"])
    full = yamatai_image(view, highlight=hl)
    for area in _yamatai_areas(len(view["players"])):
        part = yamatai_image(view, highlight=hl, region=area)
        assert ImageChops.difference(part.crop(area), full.crop(area)).getbbox() is None, area


def test_namiji_region_draws_the_same_pixels_where_it_shows() -> None:
    """The same for Namiji's route, centre, boat boards and header."""
    match = _namiji(4, 30)
    view = namiji_view(match.view(match.current_seat))
    full = namiji_image(view)
    areas = [namiji_layout.ROUTE_AREA, namiji_layout.CENTRE, namiji_layout.PANELS_AREA]
    for area in [*areas, namiji_layout.HEADER]:
        part = namiji_image(view, region=area)
        assert ImageChops.difference(part.crop(area), full.crop(area)).getbbox() is None, area


@pytest.mark.parametrize("name", ["focus-yamatai-place", "focus-yamatai-trade"])
def test_frame_zooms_on_a_grid_and_keeps_the_marks(name: str) -> None:
    """A frame's zoom is the level of ZOOMS just under the crop's (a multiple of 1/GRID), its
    box starts on the area's grid, holds every mark and fits the turn picture."""
    _, marks, area = _yamatai_marks(name)
    shown = focus.frame(marks, area)
    left, top, right, bottom = shown.box
    assert (shown.zoom * focus.GRID).is_integer()
    assert (left - area[0]) % focus.GRID == 0 and (top - area[1]) % focus.GRID == 0
    assert area[0] <= left < right <= area[2] and area[1] <= top < bottom <= area[3]
    assert shown.size[0] <= focus.WIDTH and shown.size[1] <= focus.MAX_CROP_HEIGHT
    assert all(left <= m.x <= right and top <= m.y <= bottom for m in marks)
    x0, y0, x1, y1 = focus._marked_box(marks, area)
    unrounded = min(focus.MAX_ZOOM, focus.WIDTH / (x1 - x0), focus.MAX_CROP_HEIGHT / (y1 - y0))
    assert shown.zoom in focus.ZOOMS and shown.zoom <= unrounded
    assert not [z for z in focus.ZOOMS if shown.zoom < z <= unrounded]


def test_zooms_snap_to_a_few_levels() -> None:
    """D136: the levels are multiples of 1/GRID about 16% apart, from MAX_ZOOM down; any zoom
    between two levels snaps down to the lower one."""
    levels = [z for z in focus.ZOOMS if z >= 0.5]
    assert levels == [0.5, 0.5625, 0.6875, 0.8125, 1.0, 1.1875, 1.375, 1.625, 2.0]
    assert all((z * focus.GRID).is_integer() for z in focus.ZOOMS)
    assert {focus.snapped_zoom(1.375 + k / 64) for k in range(16)} == {1.375}
    assert focus.snapped_zoom(2.0) == 2.0 and focus.snapped_zoom(1.99) == 1.625
    assert focus.snapped_zoom(0.1) == 0.0625  # under every level: a multiple of 1/GRID


def test_frames_of_nearby_zooms_share_their_tiles() -> None:
    """D136: marks a little further apart (the ideal zoom 1.455, then 1.43 and 1.40: three
    multiples of 1/GRID) give frames of one zoom, each holding every mark; once the widest is
    drawn, the others scale no static tile again."""
    view, marks, area = _yamatai_marks("focus-yamatai-trade")
    static = static_layer("default", get_theme("default"), len(view["players"]), "en")
    middle = (sum(m.x for m in marks) / len(marks), sum(m.y for m in marks) / len(marks))
    frames = []
    for spread in (1.0, 1.02, 1.04):
        apart = [
            replace(
                m,
                x=middle[0] + (m.x - middle[0]) * spread,
                y=middle[1] + (m.y - middle[1]) * spread,
            )
            for m in marks
        ]
        frames.append((focus.frame(apart, area), apart))
    assert {shown.zoom for shown, _ in frames} == {1.375}
    focus.scaled_static(("test-nearby",), lambda: static, area, frames[-1][0])
    tiles = len(focus._TILES)
    for shown, apart in frames:
        left, top, right, bottom = shown.box
        assert all(left <= m.x <= right and top <= m.y <= bottom for m in apart)
        focus.scaled_static(("test-nearby",), lambda: static, area, shown)
    assert len(focus._TILES) == tiles


@pytest.mark.parametrize("zoom", [0.8125, 1.4375, 2.0])
def test_scaled_static_is_the_scaled_area_and_is_kept(zoom: float) -> None:
    """The tiles give the frame's box scaled at once (within Pillow's rounding: 2 levels); a
    second frame of the same zoom scales no tile again."""
    look = get_theme("default")
    lay = layout("default", 3)
    area = lay.map.box
    static = static_layer("default", look, 3, "en")
    key = ("test", zoom)
    boxes = [(area[0] + 32, area[1] + 16, area[0] + 432, area[1] + 316), area]
    for box in boxes:
        shown = Frame(box, zoom)
        part = focus.scaled_static(key, lambda: static, area, shown)
        exact = (box[0], box[1], box[0] + part.width / zoom, box[1] + part.height / zoom)
        expected = static.resize(part.size, Image.Resampling.BILINEAR, box=exact)
        worst = ImageChops.difference(part, expected).convert("L").getextrema()[1]
        assert isinstance(worst, int) and worst <= 2, box
    tiles = len(focus._TILES)
    again = focus.scaled_static(key, lambda: static, area, Frame(boxes[0], zoom))
    assert len(focus._TILES) == tiles
    assert again.size == Frame(boxes[0], zoom).size


def test_tiles_stay_within_their_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the budget the least recently used tiles go."""
    monkeypatch.setattr(focus, "TILE_BUDGET", 3 * focus.TILE * focus.TILE)
    look = get_theme("default")
    area = layout("default", 2).map.box
    static = static_layer("default", look, 2, "en")
    focus.scaled_static(("budget",), lambda: static, area, Frame(area, 1.0625))
    kept = [tile for name, tile in focus._TILES.items() if "budget" in str(name)]
    assert kept
    assert focus._TILE_PIXELS[0] == sum(t.width * t.height for t in focus._TILES.values())
    assert focus._TILE_PIXELS[0] <= 3 * focus.TILE * focus.TILE


def test_map_at_zoom_one_is_the_board_cut_out() -> None:
    """At zoom 1 the map drawn at size is the board picture's part with the rings."""
    view, marks, area = _yamatai_marks("focus-yamatai-place")
    data = _stored("focus-yamatai-place")
    look = get_theme("default")
    hl = Highlight.from_events(data["events"])
    lay = layout("default", len(view["players"]))
    box = (area[0], area[1] + 224, area[0] + 896, area[1] + 524)
    drawn = yamatai_focus.map_at_size(yamatai_view(view), lay, look, hl, marks, Frame(box, 1.0))
    board = yamatai_image(view, highlight=hl)
    for marked in marks:
        focus.mark_target(board, marked, look, "ring")
    cut = focus.centred(board.crop(box), look.background)
    diff = ImageChops.difference(drawn, cut).convert("L").point(lambda v: 255 if v > 48 else 0)
    assert (diff.histogram()[255]) / (cut.width * cut.height) < 0.0005


def test_a_second_turn_picture_scales_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn again (another viewer, the same board), Yamatai's turn picture scales no picture
    bigger than a piece: the map's static tiles and the pieces at that size are kept."""
    data = _stored("focus-yamatai-place")
    render_focus(data["view"], legal=data["legal"], events=data["events"])
    scaled: list[tuple[int, int]] = []
    resize = Image.Image.resize

    def counted(self: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        scaled.append(self.size)
        return resize(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "resize", counted)
    render_focus(data["view"], legal=data["legal"], events=data["events"])
    assert not [size for size in scaled if size[0] * size[1] > 100 * 100], scaled


def _namiji_marks() -> tuple[NamijiView, list[Marked], list[dict[str, Any]]]:
    data = _stored("focus-namiji-move")
    marks, area = namiji_focus._marks(data["view"], namiji_focus.legal_targets(data["legal"]))
    assert area == namiji_layout.ROUTE_AREA
    return namiji_view(data["view"]), marks, data["events"]


def test_namiji_route_at_zoom_one_is_the_board_cut_out() -> None:
    """At zoom 1 Namiji's route drawn at size (with the centre's part) is the board's part."""
    view, marks, events = _namiji_marks()
    look = get_theme("default")
    hl = NamijiHighlight.from_events(events)
    box = (0, 64 + 96, 896, 64 + 656)  # most of the centre: its text drawn
    drawn = namiji_focus.route_at_size(namiji_view(view), look, hl, marks, Frame(box, 1.0))
    board = namiji_image(view, highlight=hl)
    for marked in marks:
        namiji_focus.mark_route_target(board, marked, look)
    corner = board.getpixel((0, 0))
    assert isinstance(corner, tuple)
    cut = focus.centred(board.crop(box), (int(corner[0]), int(corner[1]), int(corner[2])))
    focus.draw_tags(cut, marks, Frame(box, 1.0), look, (cut.width - 896) // 2)
    assert ImageChops.difference(drawn, cut).getbbox() is None


def test_a_namiji_route_crop_showing_a_sliver_of_the_centre_draws_none_of_its_text() -> None:
    """QA: a crop on the route's side showed cut lines of the centre ("reti 12 · sacchetto
    crostacei 5…"): a sliver of the centre keeps the plain panel."""
    from render.namiji.centre import draw_centre
    from render.text import recording

    view, marks, events = _namiji_marks()
    look = get_theme("default")
    hl = NamijiHighlight.from_events(events)
    with recording() as centre:
        draw_centre(namiji_image(view, highlight=hl), view, look)
    words = {text for text, _ in centre if any(c.isalpha() for c in text)}
    assert words
    sliver = (0, 64 + 96, 896, 64 + 400)  # the centre's top 196 of its 636 px
    with recording() as drawn:
        namiji_focus.route_at_size(namiji_view(view), look, hl, marks, Frame(sliver, 1.0))
    assert not words & {text for text, _ in drawn}


def test_namiji_route_scales_only_the_centres_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn again, Namiji's route crop scales only the centre's part in it (drawn in place),
    never a picture as big as the crop."""
    view, marks, events = _namiji_marks()
    data = _stored("focus-namiji-move")
    render_focus(view, legal=data["legal"], events=events)
    shown = focus.frame(marks, namiji_layout.ROUTE_AREA)
    scaled: list[tuple[int, int]] = []
    resize = Image.Image.resize

    def counted(self: Image.Image, size: tuple[int, int], *args: Any, **kwargs: Any) -> Image.Image:
        scaled.append(size)
        return resize(self, size, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "resize", counted)
    render_focus(view, legal=data["legal"], events=events)
    crop = shown.size[0] * shown.size[1]
    big = [size for size in scaled if size[0] * size[1] > 100 * 100]
    assert len(big) <= 1 and all(w * h < 0.6 * crop for w, h in big), (big, shown.size)


def test_the_static_tiles_kept_hold_the_map_at_a_two_player_games_usual_zooms() -> None:
    """D122: a 2-player Yamatai game's turn pictures zoom between 0.8125 and 2; the tiles kept
    hold its whole map at its six most used zooms, so a second picture at any of them scales
    no tile again (6 M pixels re-scaled 1.7 tiles a picture in such games)."""
    area = layout("default", 2).map.box
    layer = Image.new("RGB", (1600, 1100), (30, 90, 140))
    scaled: list[int] = []

    def static() -> Image.Image:  # called for each tile scaled (not kept)
        scaled.append(1)
        return layer

    frames = [Frame(area, zoom) for zoom in (0.8125, 1.0625, 1.25, 1.375, 1.4375, 2.0)]
    focus._TILES.clear()
    focus._TILE_PIXELS[0] = 0
    for shown in frames:
        focus.scaled_static(("test-budget",), static, area, shown)
    assert scaled
    scaled.clear()
    for shown in frames:
        focus.scaled_static(("test-budget",), static, area, shown)
    assert not scaled, f"{len(scaled)} tiles scaled again"
    focus._TILES.clear()
    focus._TILE_PIXELS[0] = 0


def test_a_piece_outside_the_crop_is_neither_scaled_nor_pasted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """About half a map's pieces lie outside a turn picture's crop: the stage skips them before
    scaling them (Pillow would clip them whole), and still pastes a piece the crop's edge cuts."""
    scaled: list[tuple[int, int]] = []
    keep = focus._scaled_sprite

    def counted(sprite: Image.Image, size: tuple[int, int]) -> Image.Image:
        scaled.append(size)
        return keep(sprite, size)

    monkeypatch.setattr(focus, "_scaled_sprite", counted)
    stage = focus.Stage(Frame((100, 100, 500, 400), 1.5))
    canvas = Image.new("RGB", Frame((100, 100, 500, 400), 1.5).size, (0, 0, 0))
    piece = Image.new("RGBA", (20, 20), (255, 0, 0, 255))
    for centre in [(80.0, 200.0), (300.0, 60.0), (520.0, 200.0), (300.0, 420.0)]:
        stage.paste(canvas, piece, centre)
    assert not scaled
    assert canvas.getbbox() is None
    stage.paste(canvas, piece, (95.0, 200.0))  # half in: its right half shows
    assert scaled == [(30, 30)]
    assert canvas.getbbox() == (0, 135, 8, 165)


def test_a_text_is_measured_once_when_it_fits_and_kept_wrapped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A text that fits the width is measured once (not a candidate line per word), and a text
    wrapped again (the same words, size, width and weight) is not measured again."""
    measured: list[str] = []
    length = text_length

    def counted(text: str, size: int, style: Any = "bold") -> float:
        measured.append(text)
        return length(text, size, style)

    monkeypatch.setattr(focus, "text_length", counted)
    fits = "Annwrap 12 points, 7 coins, 3 boats"  # wrapped by no other test
    assert focus.wrap_text(fits, 24, 852) == [fits]
    assert measured == [fits]
    long = " ".join(["Fleet 4: bamboo, wood, stonewrap"] * 6)
    wrapped = focus.wrap_text(long, 24, 852)
    measured.clear()
    assert focus.wrap_text(long, 24, 852) == wrapped
    assert focus.wrap_text(fits, 24, 852) == [fits]
    assert not measured
    assert focus.wrap_text(fits, 24, 852, bold=False) == [fits]
    assert measured == [fits]  # kept per weight


@pytest.mark.parametrize("bold", [True, False])
def test_wrapped_lines_are_the_words_added_while_they_fit(bold: bool) -> None:
    """The one-line shortcut and the memo break lines where adding words one by one does."""
    words = "Ann Bo Cy took fleet 12; placed 3, 14, 27 · sacred ground on K · Ébisu 東京 ok"
    for width in (120, 300, 500, 852, 2000):
        for n in range(1, len(words.split(" ")) + 1):
            text = " ".join(words.split(" ")[:n])
            lines: list[str] = []
            for word in text.split(" "):
                candidate = f"{lines[-1]} {word}" if lines else word
                style: Style = "bold" if bold else "regular"
                if lines and text_length(candidate, 28, style) <= width:
                    lines[-1] = candidate
                else:
                    lines.append(word)
            assert focus.wrap_text(text, 28, width, bold) == lines


def test_a_scaled_piece_is_kept_premultiplied_and_pasted_as_before() -> None:
    """D137: a sprite scaled for a stage is kept "RGBa" (Pillow blends it in half the time of
    "RGBA"); pasted, it gives the pixels of the RGBA sprite scaled and pasted, within Pillow's
    rounding (2 levels a channel)."""
    piece = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    ImageDraw.Draw(piece).ellipse((3, 3, 36, 36), fill=(200, 60, 40, 255), outline=(0, 0, 0, 160))
    shown = Frame((0, 0, 400, 300), 1.375)
    canvas = Image.new("RGB", shown.size, (30, 90, 140))
    expected = canvas.copy()
    focus.Stage(shown).paste(canvas, piece, (100.0, 100.0))
    size = (round(40 * 1.375), round(40 * 1.375))
    assert focus._scaled_sprite(piece, size).mode == "RGBa"
    scaled = piece.resize(size, Image.Resampling.BILINEAR)
    at = (round(100 * 1.375 - size[0] / 2), round(100 * 1.375 - size[1] / 2))
    expected.paste(scaled, at, scaled)
    worst = ImageChops.difference(canvas, expected).convert("L").getextrema()[1]
    assert isinstance(worst, int) and worst <= 2
    assert canvas.getpixel((at[0] + size[0] // 2, at[1] + size[1] // 2)) == (200, 60, 40)
