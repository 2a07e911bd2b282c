"""render_board: size, mode, purity, pixel probes at known places, layers and layout."""

from __future__ import annotations

import ast
import copy
import hashlib
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from engine.yamatai.board import load_board
from engine.yamatai.view import yamatai_view
from render import THEMES, get_theme
from render.extras import Extras
from render.fonts import FONT_FILES, Style, font_bytes
from render.yamatai.archipelago import hull_centre, island_centre, spot_centre
from render.yamatai.highlight import Highlight
from render.yamatai.layout import HEIGHT, WIDTH, layout
from render.yamatai.picture import render_board, render_image
from render.yamatai.static import static_layer
from tests.render.games import late_game_4p, play_actions, play_turns
from tests.render.probes import close, decode, pixel

RENDER = Path(__file__).resolve().parents[2] / "render"
THEME = get_theme("default")


@pytest.fixture(scope="module")
def late() -> tuple[dict[str, Any], Highlight]:
    return late_game_4p()


@pytest.fixture(scope="module")
def late_png(late: tuple[dict[str, Any], Highlight]) -> bytes:
    view, hl = late
    return render_board(yamatai_view(view), highlight=hl)


def test_size_mode_and_weight(late_png: bytes) -> None:
    assert late_png[:8] == b"\x89PNG\r\n\x1a\n"
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(late_png)) as image:
        assert image.size == (WIDTH, HEIGHT)
        assert image.mode == "P"
    assert len(late_png) < 600_000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_count_renders(players: int) -> None:
    match, hl = play_turns(players, 11, 6)
    image = decode(render_board(yamatai_view(match.view(None)), highlight=hl))
    assert image.size == (WIDTH, HEIGHT)


def test_pure_and_deterministic(late: tuple[dict[str, Any], Highlight]) -> None:
    view, hl = late
    before = copy.deepcopy(view)
    first = render_board(yamatai_view(view), highlight=hl)
    second = render_board(yamatai_view(copy.deepcopy(view)), highlight=hl)
    assert first == second
    assert view == before


def test_static_layer_is_cached_and_never_drawn_on(late: tuple[dict[str, Any], Highlight]) -> None:
    view, hl = late
    layer = static_layer("default", THEME, 4)
    digest = hashlib.sha256(layer.tobytes()).hexdigest()
    render_image(yamatai_view(view), highlight=hl)
    assert static_layer("default", THEME, 4) is layer
    assert hashlib.sha256(layer.tobytes()).hexdigest() == digest


def test_boats_show_their_colour_at_their_spot(late: tuple[dict[str, Any], Highlight]) -> None:
    view, hl = late
    image = decode(render_board(yamatai_view(view), highlight=hl))
    board = load_board()
    lay = layout("default", 4)
    boats = [(s, spot["boat"]) for s, spot in enumerate(view["spots"]) if spot["boat"]]
    assert len(boats) > 10
    for s, boat in boats:
        x, y = hull_centre(board, lay, s, THEME)
        assert close(pixel(image, (x - 14, y)), THEME.boats[boat]), (s, boat)


def test_a_boat_placed_now_is_drawn_at_its_spot() -> None:
    match = play_actions(2, 5, 0)
    view = match.view(None)
    board = load_board()
    lay = layout("default", 2)
    entry = min(board.entry_spots)
    view["spots"][entry]["boat"] = "clay"
    image = decode(
        render_board(
            yamatai_view(view), highlight=Highlight(placed=frozenset({board.spot_labels[entry]}))
        )
    )
    x, y = hull_centre(board, lay, entry, THEME)
    assert close(pixel(image, (x - 14, y)), THEME.boats["clay"])
    cx, cy = spot_centre(board, lay, entry)
    assert close(pixel(image, (cx, cy + 24)), THEME.last_turn)


def test_tokens_and_buildings_show_their_colours(late: tuple[dict[str, Any], Highlight]) -> None:
    view, hl = late
    image = decode(render_board(yamatai_view(view), highlight=hl))
    board = load_board()
    lay = layout("default", 4)
    seen_token = seen_building = False
    for i, island in enumerate(view["islands"]):
        x, y = island_centre(board, lay, i)
        building = island["building"]
        if building and building["kind"] in ("standard", "trading_post"):
            colour = THEME.players[view["players"][building["owner"]]["colour"]]
            assert close(pixel(image, (x - 14, y + 3)), colour), island["label"]
            seen_building = True
        elif island["token"] and not building:
            assert close(pixel(image, (x - 14, y)), THEME.cultures[island["token"]]), island[
                "label"
            ]
            seen_token = True
    assert seen_token and seen_building


def test_last_turn_is_ringed_and_the_current_player_framed(
    late: tuple[dict[str, Any], Highlight],
) -> None:
    view, hl = late
    assert hl.placed
    image = decode(render_board(yamatai_view(view), highlight=hl))
    board = load_board()
    lay = layout("default", 4)
    for label in hl.placed:
        cx, cy = spot_centre(board, lay, board.spot_index[label])
        assert close(pixel(image, (cx, cy + 24)), THEME.last_turn), label
    quiet = [
        s
        for s, spot in enumerate(view["spots"])
        if spot["boat"] and spot["label"] not in hl.placed | hl.moved
    ]
    cx, cy = spot_centre(board, lay, quiet[0])
    assert not close(pixel(image, (cx, cy + 24)), THEME.last_turn)
    for seat, rect in enumerate(lay.panels):
        top = pixel(image, ((rect.x0 + rect.x1) / 2, rect.y0 + 1))
        assert close(top, THEME.current, 30) == (seat == view["current_seat"])


def test_final_board_shows_scores_and_winner() -> None:
    match, hl = play_turns(3, 5, None)
    view = match.view(None)
    assert view["over"] and view["outcome"]
    image = decode(render_board(yamatai_view(view), highlight=hl))
    lay = layout("default", 3)
    # the winner's row of the score table is filled with the "current" colour
    outcome = view["outcome"]
    assert outcome["ranking"][0] == outcome["winner"]
    assert close(pixel(image, (lay.fleet.x0 + 14, lay.fleet.y0 + 52)), THEME.current, 30)


def test_themes_render_and_unknown_theme_is_refused(late: tuple[dict[str, Any], Highlight]) -> None:
    view, hl = late
    for name in THEMES:
        assert decode(
            render_board(yamatai_view(view), highlight=hl, extras=Extras(theme=name))
        ).size == (
            WIDTH,
            HEIGHT,
        )
    with pytest.raises(ValueError, match="unknown theme"):
        render_board(yamatai_view(view), extras=Extras(theme="neon"))


def test_layout_keeps_everything_in_its_place() -> None:
    board = load_board()
    for players in (2, 3, 4):
        lay = layout("default", players)
        for s in range(len(board.spot_labels)):
            x, y = spot_centre(board, lay, s)
            assert lay.map.x0 + 20 < x < lay.map.x1 - 20 and lay.map.y0 + 20 < y < lay.map.y1 - 20
        for rect in (*lay.panels, lay.fleet, lay.buildings, lay.specialists, lay.header):
            assert 0 <= rect.x0 < rect.x1 <= WIDTH and 0 <= rect.y0 < rect.y1 <= HEIGHT
        assert all(a.y1 <= b.y0 for a, b in zip(lay.panels, lay.panels[1:], strict=False))
        assert lay.map.x1 < lay.sidebar.x0
        assert lay.transform.scale >= 70  # keeps spot and island labels legible at 50 %


def test_label_sizes_stay_legible_at_half_size() -> None:
    for theme in THEMES.values():
        assert theme.spot_label_size >= 16
        assert theme.island_label_size >= 22
        assert theme.boat_letter_size >= 16


def test_render_imports_only_pillow_stdlib_and_engine() -> None:
    allowed = {"PIL", "babel", "engine", "render", "__future__", "isal"}  # isal: the PNG deflate
    allowed |= set(sys.stdlib_module_names)
    forbidden = {"asyncio", "sqlite3"}
    for path in RENDER.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in allowed and top not in forbidden, f"{path.name} imports {name}"


def test_fonts_are_bundled_with_their_licence() -> None:
    fonts = RENDER / "assets" / "fonts"
    assert (fonts / "LICENSE-DejaVu.txt").read_text(encoding="utf-8").count("Bitstream") > 1
    for style, name in FONT_FILES.items():
        assert (fonts / name).is_file()
        assert font_bytes(cast(Style, style))[:4] == b"\x00\x01\x00\x00"  # TrueType
    for path in RENDER.rglob("*.py"):
        assert "/usr/share" not in path.read_text(encoding="utf-8"), path.name


def test_renders_from_several_threads_match_serial_renders(
    late: tuple[dict[str, Any], Highlight],
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    small, small_hl = play_turns(2, 9, 10)
    jobs = [late, (small.view(None), small_hl)] * 4
    serial = [render_board(yamatai_view(v), highlight=h) for v, h in jobs]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda job: render_board(job[0], highlight=job[1]), jobs)) == serial
