"""Namiji's pictures say places and pieces in the reader's words (issue 38 item 10): no crate
cell code (``r1c2``), no bare bonus or crustacean code, fish codes only beside their key; the
"take a fish" turn picture framed on the stop, the thread's card not on an empty centre; the last
turn told with its nets, fish and the crate line it filled (row or column)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from PIL import Image

from engine import games
from engine.namiji.components import components
from engine.namiji.view import namiji_view
from render import render_board, render_focus
from render.extras import Extras
from render.focus import WIDTH as FOCUS_WIDTH
from render.namiji import focus as namiji_focus
from render.namiji import layout, palette
from render.namiji.highlight import Highlight
from render.namiji.picture import render_image
from render.namiji.static import fish_key
from render.text import measuring
from render.theme import DEFAULT
from render.words import say, speaking
from tests.render.probes import close, pixel
from tests.render.test_phone import _clear_caches

LANGUAGES = ("en", "fr", "it", "pl")
CELL = re.compile(r"r\d+c\d+")
FISH = re.compile(r"[bgo][fst]")
CODES = {"BD", "BO", "BW", "SH", "CB"}
STEPS = ("move", "fish", "keep", "net", "draw", "pick", "rock", "panorama", "end")

Scene = tuple[dict[str, Any], list[str], list[dict[str, Any]]]


@cache
def _scenes() -> dict[str, Scene]:
    """The first view (4 players, seed 3, computer moves) of each kind of step after the
    first turns, with its legal actions and the last action's events; the final view."""
    match = games.new("namiji", ["Ann", "Bo", "Cy", "Di"], seed=3)
    computer = games.computer_player("namiji")
    found: dict[str, Scene] = {}
    events: list[dict[str, Any]] = []
    done = 0
    while (seat := match.current_seat) is not None:
        legal = match.legal_actions()
        verbs = {a.split()[0] for a in legal}
        for step in STEPS:
            if done > 20 and step in verbs and step not in found:
                found[step] = (match.view(seat), legal, events)
        if done == 200:
            found["board"] = (match.view(None), [], events)
        events = match.play(computer(match.view(seat), done), seat=seat)
        done += 1
    found["final"] = (match.view(None), [], events)
    return found


def _cases() -> Iterator[tuple[str, str]]:
    for lang in LANGUAGES:
        for scene in (*STEPS, "board", "final"):
            yield lang, scene


def _codes_left(texts: list[str], lang: str) -> list[str]:
    """The texts that are or hold a code the reader has no key for."""
    key = fish_key(lang)
    left = [t for t in texts if CELL.search(t) or t in CODES]
    if key not in texts:
        left += [t for t in texts if FISH.fullmatch(t)]
    return left


@pytest.mark.parametrize(("lang", "scene"), list(_cases()))
def test_no_raw_code_on_a_namiji_picture(lang: str, scene: str) -> None:
    """Every text of the board picture and of the turn picture (its text panels and its crop):
    no crate cell code, no bare bonus or crustacean code, and fish codes only with their key."""
    view, legal, events = _scenes()[scene]
    _clear_caches()  # sprites and static layers draw their texts again
    with measuring() as drawn:
        render_board(view, events=events, extras=Extras(language=lang))
    board = [d.text for d in drawn]
    assert len(board) > 50
    assert not _codes_left(board, lang), _codes_left(board, lang)
    if scene in ("board", "final"):
        return
    _clear_caches()
    with measuring() as drawn:
        render_focus(view, legal=legal, events=events, extras=Extras(language=lang))
    # the turn picture: its own lines, and the crop's texts (a fish code is in the crop only
    # where its board part or centre was drawn, whose key the picture must then carry)
    lines = [d.text for d in drawn if d.surface[0] == FOCUS_WIDTH]
    crop = [d.text for d in drawn if d.surface[0] != FOCUS_WIDTH]
    assert not _codes_left(lines, lang), _codes_left(lines, lang)
    if any(FISH.fullmatch(t) for t in crop) and scene != "move":
        assert fish_key(lang) in lines, (scene, lines)


def test_crate_cells_are_said_as_the_log_says_them() -> None:
    """``keep r2c3`` is ringed as "row 2, column 3" (pl: "rząd 2, kolumna 3")."""
    view, legal, events = _scenes()["keep"]
    for lang, words in (("en", "row {}, column {}"), ("pl", "rząd {}, kolumna {}")):
        with measuring() as drawn:
            render_focus(view, legal=legal, events=events, extras=Extras(language=lang))
        text = " ".join(d.text for d in drawn)
        for action in legal:
            if action.startswith("keep "):
                cell = action.split()[1]
                assert words.format(cell[1], cell[3]) in text, (lang, cell, text)


def _blank_band(image: Image.Image) -> float:
    """The tallest run of rows of one colour (across the middle 90 %), as a share of the height."""
    rgb = image.convert("RGB")
    width = rgb.width
    tallest = run = 0
    for y in range(rgb.height):
        row = rgb.crop((width // 20, y, width - width // 20, y + 1))
        colours = row.getcolors(4)
        run = run + 1 if colours is not None and len(colours) == 1 else 0
        tallest = max(tallest, run)
    return tallest / rgb.height


def test_the_take_a_fish_picture_is_framed_on_the_stop() -> None:
    """The fish step shows the centre down to its stop, not the empty panel under it: no blank
    band over a tenth of the picture (it was a third)."""
    view, legal, events = _scenes()["fish"]
    image, _ = namiji_focus.focus_image(namiji_view(view), legal=legal, events=events)
    assert _blank_band(image) < 0.1


def test_the_turn_card_shows_no_empty_centre() -> None:
    """The thread's turn card (everyone's view, nothing to choose) frames the boats that moved
    without a strip of the centre's empty panel (the centre is drawn only where mostly shown)."""
    match = games.new("namiji", ["Ann", "Bo", "Cy"], 3)
    computer = games.computer_player("namiji")
    events: list[dict[str, Any]] = []
    turns = 0
    checked = 0
    for step in range(600):
        seat = match.current_seat
        assert seat is not None
        events += match.play(computer(match.view(seat), step), seat=seat)
        if match.current_seat == seat:
            continue
        turns += 1
        if turns % 3 == 0:
            image, _ = namiji_focus.focus_image(
                namiji_view(match.view(None)), legal=[], events=events
            )
            rows = [
                y
                for y in range(image.height)
                if any(close(pixel(image, (x, y)), palette.SEA, 6) for x in range(0, 900, 30))
            ]
            crop = image.crop((0, rows[0], image.width, rows[-1] + 1)).convert("RGB")
            cream = sum(n for n, c in crop.getcolors(1 << 20) or [] if c == DEFAULT.panel)
            assert cream / (crop.width * crop.height) < 0.05, (turns, cream)
            checked += 1
        events = []
        if checked == 6:
            break
    assert checked == 6


def _turn(seat: int, *events: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "move", "seat": seat, "boat": 0, "to": 9}, *events]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_last_turn_says_the_net_and_the_line_filled(lang: str) -> None:
    """A net placed and a column filled are told as such, a row as a row."""
    net = {"type": "net_placed", "seat": 1, "net": "bt", "cell": "r1c1", "orientation": "v"}
    column = {"type": "crate_line", "seat": 1, "line": "c1"}
    row = {"type": "crate_line", "seat": 1, "line": "r3"}
    with speaking(lang):
        said = namiji_focus.turn_words("Bo", 1, _turn(1, net, column, row))
        assert say("n.focus.net_placed") in said
        assert say("n.focus.crate_column", n=1) in said
        assert say("n.focus.crate_row", n=3) in said
    if lang == "pl":
        assert "kolumnę 1" in said and "rząd 3" in said


def test_a_net_and_a_fish_put_in_the_last_turn_are_framed_in_pink() -> None:
    """The crate shows where the last turn put its net and its fish, as it shows lines scored."""
    view, _, _ = _scenes()["board"]
    seat = next(s for s, p in enumerate(view["players"]) if p["nets"])
    net = str(view["players"][seat]["nets"][0])
    fish, cell, orientation = net.split()
    kept = next(
        f"r{i // 4 + 1}c{i % 4 + 1}"
        for i, kind in enumerate(view["players"][seat]["crate"])
        if kind and f"r{i // 4 + 1}c{i % 4 + 1}" != cell
    )
    events = [
        {"type": "net_placed", "seat": seat, "net": fish, "cell": cell, "orientation": orientation},
        {"type": "kept", "seat": seat, "fish": "bt", "cell": kept},
    ]
    hl = Highlight.from_events(events)
    assert hl.nets == {seat: {net}} and hl.kept == {seat: {kept}}
    image = render_image(namiji_view(view), highlight=hl)
    plain = render_image(namiji_view(view), highlight=Highlight())
    left, top, _, _ = layout.panels(len(view["players"]))[seat].box
    x0, y0 = left + layout.CRATE_ORIGIN[0], top + layout.CRATE_ORIGIN[1]
    for label in (cell, kept):
        r, c = int(label[1]) - 1, int(label[3]) - 1
        edge = (x0 + c * layout.CELL - 1, y0 + r * layout.CELL + layout.CELL / 2)
        assert close(pixel(image, edge), DEFAULT.last_turn), label
        assert not close(pixel(plain, edge), DEFAULT.last_turn), label


def test_bonus_cards_left_show_their_panorama_and_points() -> None:
    """The bonus cards left read "D +3" (the station key names D), never "BD"."""
    view = _scenes()["fish"][0]
    assert view.get("bonuses")
    with measuring() as drawn:
        _clear_caches()
        render_board(view, extras=Extras(language="pl"))
    texts = {d.text for d in drawn}
    bonus = components().panorama_bonus
    assert {f"{k} +{bonus}" for k in "DOW"} <= texts
    assert not texts & {"BD", "BO", "BW"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_route_crop_names_the_stations_it_shows(lang: str) -> None:
    """The move step's crop shows the route without the board's key: a line under it names
    each station letter it shows (pl "przystanki: T wir, W wieloryb, ...")."""
    view, legal, events = _scenes()["move"]
    _, marks = namiji_focus.focus_image(
        namiji_view(view), legal=legal, events=events, extras=Extras(language=lang)
    )
    with measuring() as drawn:
        render_focus(view, legal=legal, events=events, extras=Extras(language=lang))
    lines = [d.text for d in drawn if d.surface[0] == FOCUS_WIDTH]
    route = components().route
    ringed = {route[int(m.label.split()[0])] for m in marks if m.kind == "space"} - {"S"}
    ringed = {letter for letter in ringed if not letter.startswith("P")}
    with speaking(lang):
        prefix = say("n.key.stations", stations="")
        text = " ".join(lines)  # a key wraps over lines
        assert prefix in text, lines
        for letter in ringed:
            assert f"{letter} {say(f'n.station.{letter}')}" in text, (letter, lines)


def test_a_fish_caught_is_not_told_as_no_change() -> None:
    """A turn's fishing is told: caught (then kept: "kept a fish", said once), never "no change"."""
    fished = {"type": "fished", "seat": 1, "fish": "bt"}
    kept = {"type": "kept", "seat": 1, "fish": "bt", "cell": "r1c2"}
    with speaking("pl"):
        caught = namiji_focus.turn_words("Bo", 1, [fished])
        assert say("n.focus.fished") in caught and say("n.focus.no_change") not in caught
        both = namiji_focus.turn_words("Bo", 1, [fished, kept])
        assert say("n.focus.kept") in both and say("n.focus.fished") not in both
