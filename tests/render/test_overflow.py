"""No text leaves its box, in any language: both games' board and turn pictures, 2 to 5 players,
32-character names, mid-game and final, every text measured where it is drawn."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

import pytest

from engine import games
from engine.games import Match
from render import render_board, render_focus
from render.extras import Extras
from render.focus import MARGIN, SMALL
from render.focus import WIDTH as FOCUS_WIDTH
from render.namiji import layout as namiji_layout
from render.text import Drawn, measuring
from render.yamatai.layout import HEIGHT, WIDTH, layout
from render.yamatai.tracks import card_slots, fleet_slots, order_column
from tests.render.games import play_turns
from tests.render.test_phone import _clear_caches

LANGUAGES = ("en", "fr", "it", "pl")
LONG = (  # 32 characters each, the longest name a seat takes; initials differ
    "Aleksandra Wiśniewska-Żółkowska1",
    "Bartholomew Fitzgerald-Worthing2",
    "Clémentine de La Rochefoucauld 3",
    "Domenico Giovanni Bartolomucci 4",
    "Eleonora Santangelo-Maraschini 5",
)
MIN_TEXT = 14  # pixels, on the 1600 px board picture
SLACK = 1.0  # pixels: rounding of a measured box

Box = tuple[float, float, float, float]


@cache
def _yamatai(players: int, turns: int | None) -> Match:
    match, _ = play_turns(players, 5, turns, LONG)
    return match


@cache
def _namiji(players: int, actions: int | None) -> Match:
    match = games.new("namiji", list(LONG[:players]), seed=3)
    computer = games.computer_player("namiji")
    done = 0
    while (seat := match.current_seat) is not None and (actions is None or done < actions):
        match.play(computer(match.view(seat), done), seat=seat)
        done += 1
    return match


GAMES = {
    "yamatai-2p-turn8": lambda: _yamatai(2, 8),
    "yamatai-3p-final": lambda: _yamatai(3, None),
    "yamatai-4p-turn20": lambda: _yamatai(4, 20),
    "yamatai-4p-final": lambda: _yamatai(4, None),
    "namiji-2p-final": lambda: _namiji(2, None),
    "namiji-3p-action80": lambda: _namiji(3, 80),
    "namiji-5p-action60": lambda: _namiji(5, 60),
}


def _area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _inside(inner: Box, outer: Box, slack: float = SLACK) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _yamatai_boxes(view: dict[str, Any]) -> list[Box]:
    """The picture's areas, panels, fleet tiles, and the text part of each card."""
    lay = layout(str(view.get("board", "default")), len(view["players"]))
    rects = [lay.header, lay.map, lay.fleet, lay.buildings, lay.specialists, *lay.panels]
    rects += [lay.legend] if lay.legend else []
    if not (view.get("over") and view.get("outcome")):  # else the final table fills the area
        rects += fleet_slots(lay.fleet, len(view.get("fleet_track", [])))
        rects.append(order_column(lay.fleet))  # the turn order and its title
    boxes: list[Box] = [r.box for r in rects]
    for area, count in (
        (lay.buildings, len(view.get("building_row", []))),
        (lay.specialists, len(view.get("specialist_track", []))),
    ):
        for slot in card_slots(area, count):
            boxes += [slot.box, (slot.x0, slot.y0, slot.x1, slot.y1 - 32)]  # above the PP disc
    return boxes


def _namiji_boxes(view: dict[str, Any]) -> list[Box]:
    """The picture's areas, the centre, the ports and the boat boards."""
    boxes: list[Box] = [
        namiji_layout.HEADER,
        namiji_layout.ROUTE_AREA,
        namiji_layout.PANELS_AREA,
        namiji_layout.CENTRE,
    ]
    boxes += [namiji_layout.port_box(corner) for corner in range(4)]
    boxes += [panel.box for panel in namiji_layout.panels(len(view["players"]))]
    return boxes


def _escapes(drawn: Sequence[Drawn], boxes: Sequence[Box]) -> list[str]:
    """Texts drawn on the whole picture that leave the smallest area holding their middle, and
    texts drawn on their own surface (sprites, text panels) that leave that surface."""
    found = []
    for d in drawn:
        if d.surface != (WIDTH, HEIGHT):
            if not _inside(d.box, (0, 0, *d.surface)):
                found.append(f"{d.text!r} {d.box} off its {d.surface} surface")
            continue
        middle = ((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2)
        holding = [b for b in boxes if _inside((*middle, *middle), b, 0)]
        if not holding:
            found.append(f"{d.text!r} {d.box} in no area")
            continue
        area = min(holding, key=_area)
        if not _inside(d.box, area):
            found.append(f"{d.text!r} {tuple(round(v) for v in d.box)} leaves {area}")
    return found


def _cases() -> Iterator[tuple[str, str]]:
    for lang in LANGUAGES:
        for name in GAMES:
            yield lang, name


@pytest.mark.parametrize(("lang", "name"), list(_cases()))
def test_board_texts_stay_in_their_boxes(lang: str, name: str) -> None:
    """Every text of the board picture lies inside its area and is at least 14 px."""
    view = GAMES[name]().view(None)
    yamatai = name.startswith("yamatai")
    stand_ins = {1: "vacation"} if yamatai else {}
    boxes = _yamatai_boxes(view) if yamatai else _namiji_boxes(view)
    _clear_caches()  # static layers and sprites are drawn (and measured) again
    with measuring() as drawn:
        render_board(view, extras=Extras(language=lang, stand_ins=tuple(stand_ins.items())))
    assert len(drawn) > 50, name
    assert not _escapes(drawn, boxes), _escapes(drawn, boxes)[:10]
    small = sorted({(d.size, d.text) for d in drawn if d.size < MIN_TEXT})
    assert not small, small[:8]


@pytest.mark.parametrize(("lang", "name"), list(_cases()))
def test_turn_picture_texts_stay_in_their_boxes(lang: str, name: str) -> None:
    """The turn picture's lines stay within its margins at its own least size."""
    match = GAMES[name]()
    seat = match.current_seat
    view = match.view(seat)
    legal = match.legal_actions() if seat is not None else []
    _clear_caches()
    with measuring() as drawn:
        render_focus(view, legal=legal, extras=Extras(language=lang))
    lines = [d for d in drawn if d.surface[0] == FOCUS_WIDTH]
    assert lines, name
    wide = [d.text for d in lines if d.box[2] > FOCUS_WIDTH - MARGIN / 2 or d.box[0] < MARGIN / 2]
    assert not wide, wide
    assert min(d.size for d in lines) >= SMALL
    assert not _escapes([d for d in drawn if d.surface != (WIDTH, HEIGHT)], [])
