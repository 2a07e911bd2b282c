"""The changing parts of the map: tokens, mountains, sacred grounds, buildings and boats."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.yamatai.board import Board
from engine.yamatai.view import YamataiView
from render.focus import Stage
from render.theme import Theme
from render.yamatai.glyphs import (
    HULL_H,
    building_sprite,
    draw_text,
    halo_sprite,
    label_sprite,
    map_boat_sprite,
    mountain_sprite,
    paste_centred,
    sacred_sprite,
    spot_sprite,
    token_sprite,
)
from render.yamatai.highlight import Highlight
from render.yamatai.layout import Layout
from render.yamatai.signs import boat_letters, culture_letters, tile_label
from render.yamatai.static import island_label_xy

__all__ = [
    "boat_letters",
    "culture_letters",
    "draw_archipelago",
    "hull_centre",
    "island_centre",
    "spot_centre",
    "tile_label",
]


def island_centre(board: Board, lay: Layout, island: int) -> tuple[float, float]:
    """Where an island's token or building stands."""
    x, y = lay.transform.point(board.island_xy[island])
    return (x, y + 0.14 * lay.transform.scale)


def spot_centre(board: Board, lay: Layout, spot: int) -> tuple[float, float]:
    """The pixel centre of a boat spot."""
    return lay.transform.point(board.spot_xy[spot])


BOAT_LIFT = 3
"""Boats on the map are drawn this many pixels above their spot (their sail is on top)."""


def hull_centre(board: Board, lay: Layout, spot: int, theme: Theme) -> tuple[float, float]:
    """The centre of the hull of a boat on a spot (where its letter is)."""
    x, y = spot_centre(board, lay, spot)
    sail = theme.spot_label_size + 6
    return (x, y - BOAT_LIFT + (sail + 1 + HULL_H / 2) - (sail + HULL_H + 2) / 2)


def draw_archipelago(
    canvas: Image.Image,
    view: YamataiView,
    board: Board,
    lay: Layout,
    theme: Theme,
    highlight: Highlight,
    marks: Sequence[str],
    stage: Stage | None = None,
) -> None:
    """Draw every island's contents and every boat, with the last turn's changes ringed; on a
    ``stage`` (a turn picture's crop drawn at its size), each piece scaled to the crop."""
    put = paste_centred if stage is None else stage.paste
    cultures = culture_letters()
    boats = boat_letters()
    players = view["players"]
    scale = lay.transform.scale
    taken = dict(highlight.collected)
    relabel: list[int] = []
    for i, island in enumerate(view["islands"]):
        label = island["label"]
        cx, cy = island_centre(board, lay, i)
        if island.get("mountain"):
            put(canvas, mountain_sprite(theme), (cx, cy + 0.12 * scale))
        building = island.get("building")
        token = island.get("token")
        if (
            label == highlight.built
            or label in highlight.sacred | highlight.unsacred | highlight.swapped
        ):
            put(canvas, halo_sprite(theme.last_turn, 31), (cx, cy))
            relabel.append(i)
        if building:
            owner = players[building["owner"]]
            sprite = building_sprite(
                theme, building["kind"], owner["colour"], marks[building["owner"]]
            )
            put(canvas, sprite, (cx, cy - 2))
        elif token:
            put(canvas, token_sprite(theme, token, cultures.get(token, "?")), (cx, cy))
        elif island.get("sacred"):
            put(canvas, sacred_sprite(theme), (cx, cy))
        elif label in taken:
            culture = taken[label]
            put(
                canvas,
                token_sprite(theme, culture, cultures.get(culture, "?"), ghost=True),
                (cx, cy),
            )
    draw = ImageDraw.Draw(canvas)
    for i in relabel:  # a ring may cross the label: write it again on top
        text = board.island_labels[i]
        xy = island_label_xy(board, lay, i)
        size = theme.island_label_size
        if stage is not None:
            put(canvas, label_sprite(theme, text), xy)
            continue
        draw_text(
            draw, xy, text, theme.island_label, size, halo=theme.island_label_halo, halo_width=3
        )
    placed = set(highlight.placed) | {
        s["label"] for s in view["spots"] if s.get("placed_this_turn")
    }
    for s, spot in enumerate(view["spots"]):
        boat = spot.get("boat")
        centre = spot_centre(board, lay, s)
        if not boat:
            put(canvas, spot_sprite(theme, spot["label"], s in board.entry_spots), centre)
            continue
        if spot["label"] in placed or spot["label"] in highlight.moved:
            put(canvas, halo_sprite(theme.last_turn, 25), (centre[0], centre[1] - 1))
        sprite = map_boat_sprite(theme, boat, boats.get(boat, "?"), spot["label"])
        put(canvas, sprite, (centre[0], centre[1] - BOAT_LIFT))
