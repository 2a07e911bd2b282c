"""Namiji's board picture: every view renders, pixel probes, hidden cards, golden pictures.

Regenerate the golden pictures with UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_namiji.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from bot.games import presentation
from engine import games
from engine.games import Match
from engine.namiji.components import COLUMNS
from engine.namiji.view import namiji_view
from render.extras import Extras
from render.namiji import boards, layout, palette, static
from render.namiji.highlight import Highlight
from render.namiji.picture import render_board, render_image, turn_number
from render.namiji.route import acting_boat, boat_centre
from render.text import measuring
from render.theme import DEFAULT
from tests.render.probes import close, decode, pixel
from tests.render.test_golden import assert_matches
from tests.render.test_phone import _clear_caches

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
NAMES = ("Ann", "Bo", "Cy", "Di", "Eve")
MAX_BYTES = 600_000


def _match(players: int, seed: int, direction: str = "clockwise") -> Match:
    return games.new("namiji", list(NAMES[:players]), seed=seed, options={"direction": direction})


def _play(
    players: int,
    seed: int,
    actions: int | None,
    player: str = "greedy",
    direction: str = "clockwise",
) -> tuple[Match, list[dict[str, Any]]]:
    """A game after that many actions (None: to the end) and the events of its last turn."""
    match = _match(players, seed, direction)
    choose = games.computer_player("namiji", player)
    turn: list[dict[str, Any]] = []
    last: list[dict[str, Any]] = []
    done = 0
    while (seat := match.current_seat) is not None and (actions is None or done < actions):
        events = match.play(choose(match.view(seat), seed * 31 + done), seat=seat)
        done += 1
        turn += events
        if match.milestones(events).turn_ended:
            last, turn = turn, []
    return match, turn or last


def _panel(seat: int, players: int) -> tuple[int, int, int, int]:
    return layout.panels(players)[seat].box


def _info_row(box: tuple[int, int, int, int], row: int) -> tuple[int, int]:
    """Where a boat board's information row starts (0 offerings ... 4 sacred rock)."""
    x = box[0] + boards.INFO_LEFT + boards.LABEL_WIDTH
    y = box[1] + layout.CRATE_ORIGIN[1] + 12 + row * boards.INFO_PITCH
    return x, y


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 22), (4, 33), (5, 44)])
def test_every_view_of_a_random_game_renders(players: int, seed: int) -> None:
    match = _match(players, seed)
    choose = games.computer_player("namiji", "random")
    count = 0
    step = 0
    while (seat := match.current_seat) is not None:
        for view in (match.view(None), match.view(seat)) if step % 5 == 0 else (match.view(seat),):
            assert render_image(namiji_view(view)).size == (layout.WIDTH, layout.HEIGHT)
            count += 1
        match.play(choose(match.view(seat), seed + step), seat=seat)
        step += 1
    final = match.view(None)
    assert final["phase"] == "over"
    png = render_board(namiji_view(final))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < MAX_BYTES
    with Image.open(__import__("io").BytesIO(png)) as image:
        assert image.mode == "P" and image.size == (layout.WIDTH, layout.HEIGHT)
    assert count > 50


def test_the_picture_is_pure_and_small() -> None:
    match, events = _play(4, 7, 120)
    view = match.view(match.current_seat)
    first = render_board(namiji_view(view), events=events)
    assert first == render_board(namiji_view(view), events=events)
    assert len(first) < MAX_BYTES
    assert (
        render_board(namiji_view(view), events=events, extras=Extras(theme="contrast"))[:4]
        == b"\x89PNG"
    )


def test_through_the_dispatch() -> None:
    match, _ = _play(3, 5, 10)
    assert render.render_board(match.view(None)) == render_board(namiji_view(match.view(None)))


def test_the_boat_to_act_is_framed_and_its_board_too() -> None:
    match, events = _play(4, 7, 60)
    view = match.view(None)
    image = decode(render_board(namiji_view(view), events=events))
    acting = acting_boat(namiji_view(view))
    assert acting is not None
    boat = view["boats"][acting]
    (x, y), slot = boat_centre(boat["pos"], boat["spot"])
    radius = (layout.SLOT_BOAT_RADIUS if slot else layout.BOAT_RADIUS) + 3
    assert close(pixel(image, (x - radius - 2, y)), DEFAULT.current, 60)
    left, top, _, _ = _panel(view["current_seat"], 4)
    assert close(pixel(image, (left + 60, top + 1)), DEFAULT.current, 40)


def test_the_last_move_is_ringed() -> None:
    match, events = _play(4, 7, 60)
    moved = [e["boat"] for e in events if e["type"] == "move"]
    assert moved
    view = match.view(None)
    image = decode(render_board(namiji_view(view), events=events))
    boat = view["boats"][moved[-1]]
    (x, y), slot = boat_centre(boat["pos"], boat["spot"])
    radius = (layout.SLOT_BOAT_RADIUS if slot else layout.BOAT_RADIUS) + 7
    ring = [pixel(image, (x + dx, y + dy)) for dx, dy in ((0, -radius - 2), (radius + 2, 0))]
    assert any(close(p, DEFAULT.last_turn, 60) for p in ring)
    assert Highlight.from_events(events).boats == set(moved)


def test_a_fish_in_a_crate_cell_shows_its_colour() -> None:
    match, _ = _play(4, 7, 200)
    view = match.view(None)
    image = decode(render_board(namiji_view(view)))
    found = 0
    for seat, player in enumerate(view["players"]):
        left, top, _, _ = _panel(seat, 4)
        for index, kind in enumerate(player["crate"]):
            r, c = divmod(index, COLUMNS)
            x = left + layout.CRATE_ORIGIN[0] + c * layout.CELL + 6  # the token's corner, off
            y = top + layout.CRATE_ORIGIN[1] + r * layout.CELL + 7  # its shape and code
            colour = pixel(image, (x, y))
            if kind:
                assert close(colour, palette.FISH[kind[0]], 30), (seat, index, kind)
                found += 1
            elif not any(n.split()[1] == f"r{r + 1}c{c + 1}" for n in player["nets"]):
                assert close(colour, palette.CELL_EMPTY, 30)
    assert found


def _rock_holder() -> tuple[Match, int]:
    """A game in progress where some seat holds a sacred rock card."""
    match = _match(4, 7)
    choose = games.computer_player("namiji")
    step = 0
    while (seat := match.current_seat) is not None:
        for s, player in enumerate(match.view(None)["players"]):
            if player["rock_count"]:
                return match, s
        match.play(choose(match.view(seat), step), seat=seat)
        step += 1
    raise AssertionError("no sacred rock card was kept")


def test_sacred_rock_cards_are_backs_except_for_their_owner() -> None:
    match, owner = _rock_holder()
    x, y = _info_row(_panel(owner, 4), 4)
    probe = (x + 4, y)  # inside the first card, off its label
    other = (owner + 1) % 4
    for seat in (None, other):
        view = match.view(seat)
        assert view["players"][owner]["rocks"] == []
        image = decode(render_board(namiji_view(view)))
        assert close(pixel(image, probe), palette.CARD_BACK, 30)
    image = decode(render_board(namiji_view(match.view(owner))))
    assert close(pixel(image, probe), palette.CARD_FACE, 30)


def _count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels of an RGB image are close to a colour."""
    total = 0
    for n, c in image.getcolors(1 << 16) or []:
        assert isinstance(c, tuple)
        if close((int(c[0]), int(c[1]), int(c[2])), colour, 8):
            total += n
    return total


def test_the_draft_hand_is_shown_only_to_the_seat_that_picks() -> None:
    match = _match(4, 7)
    choose = games.computer_player("namiji")
    step = 0
    while (seat := match.current_seat) is not None and match.view(None)["phase"] != "draft":
        match.play(choose(match.view(seat), step), seat=seat)
        step += 1
    picker = match.current_seat
    assert picker is not None
    spectator = match.view(None)
    assert spectator["hand"] == [] and spectator["hand_count"] > 0
    own = match.view(picker)
    assert own["hand"]
    # the hand's cards are in the centre: faces for the picker, backs for the others
    faces = decode(render_board(namiji_view(own)))
    backs = decode(render_board(namiji_view(spectator)))
    left, top, _, _ = layout.CENTRE
    region = (left, top + 200, left + 600, top + 330)
    assert faces.crop(region).getcolors(1 << 16) != backs.crop(region).getcolors(1 << 16)
    back_pixels = _count(backs.crop(region), palette.CARD_BACK)
    face_back_pixels = _count(faces.crop(region), palette.CARD_BACK)
    assert back_pixels > 500 and face_back_pixels < back_pixels // 10


def test_the_final_picture_names_the_winner_column() -> None:
    match, events = _play(3, 5, None)
    view = match.view(None)
    image = decode(render_board(namiji_view(view), events=events))
    totals = [p["score"] for p in view["players"]]
    winner = totals.index(max(totals))
    left, top, right, _ = layout.CENTRE
    col = (right - left - 32 - 170) / 3
    x = left + 16 + 170 + col * winner + 8
    assert close(pixel(image, (x, top + 200)), DEFAULT.current, 30)


def test_drawing_a_board_again_reuses_its_static_layer() -> None:
    """What keeps a board cheap: its pieceless layer is drawn once and kept, not per picture.
    (How fast is measured by benchmarks/render.py --game namiji, not asserted here: tests do not
    time themselves.)"""
    match, events = _play(4, 7, 200)
    view = match.view(None)
    first = render_board(namiji_view(view), events=events)
    before = static.static_layer.cache_info()
    for _ in range(3):
        assert render_board(namiji_view(view), events=events) == first
    after = static.static_layer.cache_info()
    assert (after.misses, after.hits) == (before.misses, before.hits + 3)


def _scenario(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The view and last-turn events of a golden scenario, made by playing the engine."""
    if name == "namiji-4p-seed7-seat":
        match, events = _play(4, 7, 150)
        return match.view(match.current_seat), events
    if name == "namiji-5p-seed3-draft":
        match = _match(5, 3)
        choose = games.computer_player("namiji")
        step, events = 0, []
        while (seat := match.current_seat) is not None and (
            match.view(None)["phase"] != "draft" or step < 60
        ):
            events = match.play(choose(match.view(seat), step), seat=seat)
            step += 1
        return match.view(match.current_seat), events
    if name == "namiji-2p-seed3-final":
        match, events = _play(2, 3, None)
        return match.view(None), events
    if name == "namiji-3p-seed5-reversed":
        match, events = _play(3, 5, 90, direction="reversed")
        return match.view(None), events
    raise KeyError(name)


SCENARIOS = (
    "namiji-4p-seed7-seat",
    "namiji-5p-seed3-draft",
    "namiji-2p-seed3-final",
    "namiji-3p-seed5-reversed",
)


@pytest.mark.parametrize("name", SCENARIOS)
def test_golden(name: str) -> None:
    view_path = GOLDEN / f"{name}.json"
    image_path = GOLDEN / f"{name}.png"
    if UPDATE:
        view, events = _scenario(name)
        data = {"view": view, "events": events}
        view_path.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    data = json.loads(view_path.read_text(encoding="utf-8"))
    actual = decode(render_board(data["view"], events=data["events"])).reduce(2)
    if UPDATE:
        actual.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            image_path, optimize=True
        )
    assert_matches(image_path, actual)


def _number_places(view: dict[str, Any]) -> dict[str, list[tuple[float, float]]]:
    """Where numbers are drawn at the route numbers' size on the board picture, by text."""
    _clear_caches()
    with measuring() as drawn:
        render_board(namiji_view(view))
    numbers: dict[str, list[tuple[float, float]]] = {}
    for d in drawn:
        if d.text.isdigit() and d.size == static.NUMBER_SIZE:
            centre = ((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2)
            numbers.setdefault(d.text, []).append(centre)
    return numbers


def _near(places: list[tuple[float, float]], x: float, y: float, reach: float) -> bool:
    return any(abs(px - x) + abs(py - y) < reach for px, py in places)


@pytest.mark.parametrize("direction", ["clockwise", "reversed"])
def test_the_route_is_numbered_as_the_notation_counts(direction: str) -> None:
    """Issue 21, item 3: every space shows the number `move N` uses, in the game's direction,
    beside the space a boat there stands on; reversed, space 1 is the house sheet's space 51."""
    match, _ = _play(3, 5, 30, direction=direction)
    view = match.view(None)
    numbers = _number_places(view)
    assert {str(i) for i in range(1, 53)} <= set(numbers)
    spaces = layout.route_spaces(53)
    for index in range(1, 52):
        if index in (13, 26, 39):
            continue
        sheet = index if direction == "clockwise" else 52 - index
        assert _near(numbers[str(index)], spaces[sheet].x, spaces[sheet].y, 45), index
    for boat in view["boats"]:
        if boat["pos"] not in (0, 13, 26, 39, 52):
            (x, y), _ = boat_centre(boat["pos"], boat["spot"], direction)
            reach = 45 + layout.OUTER_OFFSET * boat["spot"]
            assert _near(numbers[str(boat["pos"])], x, y, reach), boat


def test_a_reversed_game_draws_its_boats_on_the_house_sheets_spaces() -> None:
    """The same board, sailed the other way: a boat at space k stands on the sheet's 52 - k."""
    match = _match(3, 5, "reversed")
    match.play("move 1")
    view = match.view(None)
    moved = next(b for b in view["boats"] if b["pos"] == 1)
    (x, y), in_port = boat_centre(1, moved["spot"], "reversed")
    sheet = layout.route_spaces(53)[51]
    assert not in_port and (x, y) == (sheet.x, sheet.y)
    assert boat_centre(1, 0) != boat_centre(1, 0, "reversed")
    picture = decode(render_board(namiji_view(view)))
    assert picture.getpixel((round(x), round(y))) != decode(
        render_board(namiji_view({**view, "direction": "clockwise"}))
    ).getpixel((round(x), round(y)))


def test_the_pontoons_are_named_in_the_order_they_are_reached() -> None:
    """Reversed, the first pontoon reached (the top right corner's, the sheet's third) is
    pontoon 1, numbered as the texts number it ("ponton 1", never the code "P1")."""
    for direction, names in (("clockwise", "1 2 3"), ("reversed", "3 2 1")):
        _clear_caches()
        with measuring() as drawn:
            render_board(namiji_view(_match(3, 5, direction).view(None)))
        titles = []
        for corner in (1, 2, 3):
            left, top, right, _ = layout.port_box(corner)
            title = next(
                d.text
                for d in drawn
                if d.text.startswith("pontoon ")
                and left <= d.box[0]
                and d.box[2] <= right
                and d.box[1] >= top
            )
            titles.append(title.split()[1])
        assert " ".join(titles) == names, direction


def test_the_demo_plays_namiji(tmp_path: Path) -> None:
    from render.__main__ import main

    out = tmp_path / "demo"
    args = ["demo", "--game", "namiji", "--seed", "7", "--players", "5", "--out", str(out)]
    assert main(args) == 0
    files = sorted(p.name for p in out.iterdir())
    assert "final.png" in files and "turn-001.png" in files
    with Image.open(out / "final.png") as image:
        assert image.size == (layout.WIDTH, layout.HEIGHT)


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (5, 8)])
def test_the_header_s_turn_is_the_bot_s_turn_at_every_step(players: int, seed: int) -> None:
    """D83: a turn keeps its number from its move to its end, as /board and /log say; the
    header showed the move count plus one, which jumped to the next turn after the move."""
    match = _match(players, seed)
    choose = games.computer_player("namiji", "random")
    numbering = presentation("namiji")
    steps = 0
    while True:
        view = match.view(None)
        assert turn_number(namiji_view(view)) == numbering.number(match.turn_info), (
            steps,
            view["phase"],
        )
        if (seat := match.current_seat) is None:
            break
        match.play(choose(match.view(seat), steps), seat=seat)
        steps += 1


def test_the_header_keeps_the_turn_s_number_after_the_move() -> None:
    match = _match(3, 5)
    match.play("move 1")
    view = match.view(None)
    assert view["phase"] == "station" and view["turns"] == 1
    _clear_caches()
    with measuring() as drawn:
        render_board(namiji_view(view))
    assert [d.text for d in drawn if d.text.startswith("turn ")] == ["turn 1"]


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pl"])
def test_the_panoramas_end_before_the_board_s_edge(lang: str) -> None:
    """QA saw the W panorama's boxes run to the card's edge on the final board: every section,
    and the frame of one just built, ends inside the board's 10-pixel margin."""
    match, _ = _play(5, 3, None)
    view = match.view(None)
    for player in view["players"]:
        player["panoramas"] = {"D": 3, "O": 4, "W": 5}
    events = [{"type": "panorama", "seat": s, "card": "W5"} for s in range(5)]
    picture = decode(render_board(namiji_view(view), events=events, extras=Extras(language=lang)))
    for seat in range(5):
        left, top, right, _ = _panel(seat, 5)
        _, y = _info_row((left, top, right, 0), 1)
        background = pixel(picture, (right - 5, y - 24))
        strip = [(px, py) for px in range(right - 9, right - 2) for py in (y - 8, y)]
        margin = {pixel(picture, xy) for xy in strip}
        assert margin == {background}, (lang, seat, margin)
