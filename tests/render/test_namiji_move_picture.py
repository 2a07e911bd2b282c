"""Namiji's move picture reads on a phone (issue 38, play-through 46 #2): the target tags stand
beside the spaces, clear of the board's own space numbers and section name (they covered "12",
"27" and "section 2"); a pontoon slot's mark leaves its name and digit readable; the picture
lists the reachable spaces with their stations in words ("14 nasse · 16 pêche"), since the
station letters in the circles cannot be read at 360 px; where the board's numbers are drawn
as large as the picture's least text, no tag repeats them. Item 2: one word for a stop."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from engine import games
from engine.namiji.view import NamijiView, namiji_view
from render import render_focus
from render.extras import Extras
from render.focus import SMALL, Box, Frame, Marked, overlaps
from render.namiji import focus as namiji_focus
from render.namiji import layout
from render.namiji.highlight import Highlight
from render.namiji.static import NUMBER_SIZE, SECTION_LABEL_INSET
from render.text import Drawn, measuring
from render.theme import get_theme
from render.words import say, speaking
from tests.render.test_phone import _clear_caches

LANGUAGES = ("en", "fr", "it", "pl")
#: A stretch down the right side (13 -> 26, the play-through's) and along the top (1 -> 13).
STRETCHES = {
    "side": [*(f"move {i}" for i in range(14, 26)), "move 26 slot 1", "move 26 slot 2"],
    "top": [*(f"move {i}" for i in range(2, 13)), "move 13 slot 1", "move 13 slot 2"],
}


def _view() -> NamijiView:
    match = games.new("namiji", ["Hana", "Kenji", "Ren"], seed=3)
    seat = match.current_seat
    assert seat is not None
    return namiji_view(match.view(seat))


def _crop(
    view: NamijiView, marks: Sequence[Marked], shown: Frame, lang: str
) -> tuple[Image.Image, list[Drawn]]:
    """The route crop as the turn picture draws it, and every text drawn for it."""
    _clear_caches()
    with speaking(lang), measuring() as drawn:
        image = namiji_focus.route_at_size(
            view, get_theme("default"), Highlight.from_events(None), marks, shown
        )
    return image, list(drawn)


def _on_crop(box: tuple[float, float, float, float], shown: Frame, left: int) -> Box:
    """A board box on the crop (the crop centred ``left`` pixels in)."""
    x0, y0 = shown.point((box[0], box[1]))
    x1, y1 = shown.point((box[2], box[3]))
    return (round(x0) + left, round(y0), round(x1) + left, round(y1))


def _covered(diff: Image.Image, box: Box) -> int:
    """How many pixels of ``box`` a difference mask has."""
    part = diff.crop(box).convert("L").point(lambda v: 255 if v > 24 else 0)
    return part.histogram()[255]


def _near(box: tuple[float, float, float, float], mark: Marked) -> bool:
    """Whether a text is on the pontoon of a slot mark (its name, its slots' digits)."""
    return abs((box[0] + box[2]) / 2 - mark.x) < 60 and abs(box[1] - mark.y) < 40


def _section_box(side: int, drawn: Sequence[Drawn], text: str) -> tuple[float, float, float, float]:
    """Where the static layer pasted a section's name (board pixels), turned on a vertical
    side as it is drawn."""
    label = next(d for d in drawn if d.text == text and d.surface[0] < layout.WIDTH)
    (ax, ay), (bx, by) = layout.CORNERS[side], layout.CORNERS[(side + 1) % 4]
    mx, my = (ax + bx) / 2, (ay + by) / 2
    cx = (layout.CORNERS[0][0] + layout.CORNERS[1][0]) / 2
    cy = (layout.CORNERS[0][1] + layout.CORNERS[2][1]) / 2
    dx, dy = cx - mx, cy - my
    norm = (dx * dx + dy * dy) ** 0.5
    at = (mx + dx / norm * SECTION_LABEL_INSET, my + dy / norm * SECTION_LABEL_INSET)
    w, h = label.surface
    x0, y0, x1, y1 = label.box
    if side % 2:  # turned a quarter anticlockwise: (u, v) -> (v, w - u)
        x0, y0, x1, y1, w, h = y0, w - x1, y1, w - x0, h, w
    return (at[0] - w / 2 + x0, at[1] - h / 2 + y0, at[0] - w / 2 + x1, at[1] - h / 2 + y1)


@pytest.mark.parametrize("lang", ["fr", "pl"])
@pytest.mark.parametrize("stretch", STRETCHES)
def test_move_tags_leave_the_board_numbers_and_section_name_readable(
    stretch: str, lang: str
) -> None:
    """The pixels the tags change (the crop with tags against the same crop without them) fall
    on no space number the board draws in the crop, nor on the section's name, nor on a
    pontoon's name; each space ringed has its tag."""
    view = _view()
    legal = STRETCHES[stretch]
    _, marks = namiji_focus.focus_image(view, legal=legal)
    shown = namiji_focus.move_frame(marks)
    tagged, drawn = _crop(view, marks, shown, lang)
    plain, _ = _crop(view, [replace(m, tag="") for m in marks], shown, lang)
    diff = ImageChops.difference(tagged, plain)
    left = (tagged.width - shown.size[0]) // 2
    board = [d for d in drawn if d.surface == (layout.WIDTH, layout.HEIGHT)]
    numbers = [d for d in board if d.text.isdigit() and d.size < 16]
    with speaking(lang):
        side = 1 if stretch == "side" else 0
        section = say("n.static.section", number=side + 1)
        names = [say("n.static.pontoon", number=c) for c in (1, 2)]
    keep = [(d.text, d.box) for d in numbers]
    keep += [(section, _section_box(side, drawn, section))]
    keep += [(d.text, d.box) for d in board if d.text in names]
    inside = [(t, b) for t, b in keep if overlaps(_on_crop(b, shown, 0), (0, 0, *shown.size))]
    assert len(inside) > 10, inside  # the stretch's numbers, its section's name, a pontoon
    hit = {t: n for t, b in inside if (n := _covered(diff, _on_crop(b, shown, left)))}
    assert not hit, hit
    tags = {d.text for d in drawn if d.surface[0] == tagged.width and d.text.isdigit()}
    assert tags == {m.tag for m in marks if m.tag}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_a_pontoon_slot_mark_leaves_its_digit_and_name(lang: str) -> None:
    """The slots to move to are marked around their square, not over the slot's digit nor the
    pontoon's name ("pontor P2" and a half-hidden "1" before)."""
    view = _view()
    legal = STRETCHES["side"]
    _, marks = namiji_focus.focus_image(view, legal=legal)
    shown = namiji_focus.move_frame(marks)
    slots = [m for m in marks if " slot " in m.label]
    ringed, drawn = _crop(view, marks, shown, lang)
    plain, _ = _crop(view, [m for m in marks if m not in slots], shown, lang)
    diff = ImageChops.difference(ringed, plain)
    left = (ringed.width - shown.size[0]) // 2
    with speaking(lang):
        name = say("n.static.pontoon", number=2)
    board = [d for d in drawn if d.surface == (layout.WIDTH, layout.HEIGHT)]
    near = [
        d
        for d in board
        if (d.text == name or d.text in ("1", "2"))
        and any(
            abs((d.box[0] + d.box[2]) / 2 - m.x) < 60 and abs(d.box[1] - m.y) < 40 for m in slots
        )
    ]
    assert {d.text for d in near} >= {name, "1", "2"}, near
    hit = {d.text: n for d in near if (n := _covered(diff, _on_crop(d.box, shown, left)))}
    assert not hit, hit


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_move_picture_names_each_space_s_station(lang: str) -> None:
    """The line of spaces to move to says each one's station ("14 trap"), in the picture's
    language; a pontoon's slots by number."""
    view = _view()
    _clear_caches()
    with measuring() as drawn:
        render_focus(view, legal=STRETCHES["side"], extras=Extras(language=lang))
    text = " ".join(d.text for d in drawn)
    with speaking(lang):
        expected = [
            f"14 {say('n.station.C')}",
            f"17 {say('n.station.R')}",
            f"25 {say('n.station.W')}",
            say("n.focus.slot", space=26, slot=2),
        ]
    missing = [words for words in expected if words not in text]
    assert not missing, (missing, text)


@pytest.mark.parametrize("lang", ["fr", "it", "pl"])
def test_a_stop_has_one_word_when_watched(lang: str) -> None:
    """The stop watched ("À cette station : Ann …") is named as the player's own stop ("À cette
    station : …"): the rulebook's one word, not "arrêt", "sosta", "postój"."""
    with speaking(lang):
        own = say("n.centre.at_stop", task="{task}").split("{task}")[0]
        watched = say("n.centre.at_stop_watch", name="{name}", task="{task}").split("{name}")[0]
    assert watched == own


def test_the_italian_draft_is_said_in_italian() -> None:
    """The draft's phase in Italian words ("scelta delle carte Pontile", as its strip says)."""
    with speaking("it"):
        said = say("n.phase.draft")
    assert "draft" not in said.lower() and "Pontile" in said


def test_a_stretch_drawn_large_keeps_the_board_s_own_numbers_untagged() -> None:
    """Where the crop draws the board's numbers at least as large as the picture's least text
    (a short stretch, zoom 2), no tag repeats them far from their spaces; at zoom 1, tags."""
    view = _view()
    legal = ["move 11", "move 12", "move 13 slot 1", "move 13 slot 2"]
    _, marks = namiji_focus.focus_image(view, legal=legal)
    shown = namiji_focus.move_frame(marks)
    assert shown.zoom * NUMBER_SIZE >= SMALL
    image, drawn = _crop(view, marks, shown, "pl")
    tags = [d.text for d in drawn if d.surface[0] == image.width and d.text.isdigit()]
    assert not tags, tags
    numbers = [d.text for d in drawn if d.surface == (layout.WIDTH, layout.HEIGHT)]
    assert {"11", "12", "13"} <= set(numbers)
    at_one = Frame(shown.box, 1.0)
    image, drawn = _crop(view, marks, at_one, "pl")
    tags = [d.text for d in drawn if d.surface[0] == image.width and d.text.isdigit()]
    assert sorted(tags) == ["11", "12", "13"], tags
