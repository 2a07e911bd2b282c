"""Where everything goes: the rectangles of the picture and the board-to-pixel transform."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.yamatai.board import Board, load_board

WIDTH = 1600
HEIGHT = 1100
GAP = 10
SIDEBAR = 494
MAP_MARGIN = 30
PANEL_MAX = {1: 360, 2: 360, 3: 296}
"""Panel height by player count when there is room to spare (the key goes below)."""
LEGEND_MIN = 200
"""The key's least height under the panels: all its entries (seven lines) in any language."""

__all__ = ["HEIGHT", "WIDTH", "Layout", "MapTransform", "Rect", "layout"]


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in pixels (x1, y1 exclusive)."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        """Width in pixels."""
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        """Height in pixels."""
        return self.y1 - self.y0

    @property
    def box(self) -> tuple[int, int, int, int]:
        """As a Pillow box (x0, y0, x1, y1)."""
        return (self.x0, self.y0, self.x1, self.y1)

    def inset(self, dx: int, dy: int | None = None) -> Rect:
        """The rectangle shrunk by dx horizontally and dy (default dx) vertically."""
        dy = dx if dy is None else dy
        return Rect(self.x0 + dx, self.y0 + dy, self.x1 - dx, self.y1 - dy)

    def columns(self, n: int, gap: int) -> list[Rect]:
        """n equal columns separated by gap pixels."""
        width = (self.width - gap * (n - 1)) / n
        return [
            Rect(
                round(self.x0 + i * (width + gap)),
                self.y0,
                round(self.x0 + i * (width + gap) + width),
                self.y1,
            )
            for i in range(n)
        ]

    def rows(self, n: int, gap: int) -> list[Rect]:
        """n equal rows separated by gap pixels."""
        height = (self.height - gap * (n - 1)) / n
        return [
            Rect(
                self.x0,
                round(self.y0 + i * (height + gap)),
                self.x1,
                round(self.y0 + i * (height + gap) + height),
            )
            for i in range(n)
        ]


@dataclass(frozen=True)
class MapTransform:
    """Board coordinates (hex units) to pixels of the whole picture."""

    scale: float
    x0: float
    y0: float

    def point(self, xy: tuple[float, float]) -> tuple[float, float]:
        """A board point in picture pixels."""
        return (self.x0 + xy[0] * self.scale, self.y0 + xy[1] * self.scale)


@dataclass(frozen=True)
class Layout:
    """The rectangles of one picture (for a board and a player count)."""

    width: int
    height: int
    header: Rect
    map: Rect
    fleet: Rect
    buildings: Rect
    specialists: Rect
    sidebar: Rect
    panels: tuple[Rect, ...]
    legend: Rect | None
    """The room under the panels for the key to the pieces (at least ``LEGEND_MIN`` high)."""
    transform: MapTransform


@cache
def layout(board_name: str, players: int) -> Layout:
    """The layout of the picture for a packaged board and a player count (cached)."""
    return _layout(load_board(board_name), players)


def _layout(board: Board, players: int) -> Layout:
    left = Rect(GAP, GAP, WIDTH - SIDEBAR - 2 * GAP, HEIGHT - GAP)
    header = Rect(left.x0, left.y0, left.x1, left.y0 + 46)
    map_rect = Rect(left.x0, header.y1 + 6, left.x1, header.y1 + 6 + 650)
    fleet = Rect(left.x0, map_rect.y1 + GAP, left.x1, map_rect.y1 + GAP + 150)
    bottom = Rect(left.x0, fleet.y1 + GAP, left.x1, left.y1)
    half = (bottom.width - GAP) // 2
    buildings = Rect(bottom.x0, bottom.y0, bottom.x0 + half, bottom.y1)
    specialists = Rect(buildings.x1 + GAP, bottom.y0, bottom.x1, bottom.y1)
    sidebar = Rect(WIDTH - SIDEBAR - GAP, GAP, WIDTH - GAP, HEIGHT - GAP)
    panel_gap = 8
    room = sidebar.height - LEGEND_MIN - panel_gap  # always leave room for the key
    full = (room - panel_gap * (players - 1)) // players
    height = full if players >= 4 else min(full, PANEL_MAX[players])
    panels = tuple(
        Rect(
            sidebar.x0,
            sidebar.y0 + i * (height + panel_gap),
            sidebar.x1,
            sidebar.y0 + i * (height + panel_gap) + height,
        )
        for i in range(players)
    )
    below = panels[-1].y1 + panel_gap
    legend = (
        Rect(sidebar.x0, below, sidebar.x1, sidebar.y1)
        if sidebar.y1 - below >= LEGEND_MIN
        else None
    )
    usable_w = map_rect.width - 2 * MAP_MARGIN
    usable_h = map_rect.height - 2 * MAP_MARGIN
    scale = min(usable_w / board.width, usable_h / board.height)
    x0 = map_rect.x0 + (map_rect.width - board.width * scale) / 2 + 8
    y0 = map_rect.y0 + (map_rect.height - board.height * scale) / 2
    return Layout(
        width=WIDTH,
        height=HEIGHT,
        header=header,
        map=map_rect,
        fleet=fleet,
        buildings=buildings,
        specialists=specialists,
        sidebar=sidebar,
        panels=panels,
        legend=legend,
        transform=MapTransform(scale, x0, y0),
    )
