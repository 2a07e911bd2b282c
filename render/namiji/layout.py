"""Where everything goes on Namiji's 1600 x 1100 picture (pure geometry, no drawing)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

WIDTH, HEIGHT = 1600, 1100
HEADER = (0, 0, WIDTH, 64)
ROUTE_AREA = (0, 64, 1010, HEIGHT)
PANELS_AREA = (1010, 64, WIDTH, HEIGHT)
PANEL_GAP = 8

#: The loop's four corners (port S, P1, P2, P3), clockwise from the top left.
CORNERS = ((118, 190), (892, 190), (892, 982), (118, 982))
SPACES_PER_SIDE = 12
SPACE_RADIUS = 24
OUTER_RADIUS = 17
OUTER_OFFSET = 50  # from a space's centre to its outer spot, away from the loop's centre
BOAT_RADIUS = 19
PORT_SIZE = (120, 104)  # a pontoon's or the port's box, outside its corner
PORT_SHIFT = 30  # from the corner to the box's centre, diagonally outwards
SLOT_PITCH = 36
SLOT_BOAT_RADIUS = 15
SLOTS_PER_ROW = 3
CENTRE = (196, 268, 814, 904)  # inside the loop: supplies, the stop under way, the key

#: Boat-board parts, relative to a player's panel.
CELL = 40
CRATE_ORIGIN = (12, 46)


@dataclass(frozen=True)
class Space:
    """One space of the route: its index, centre and the outward direction (unit vector)."""

    index: int
    x: float
    y: float
    out: tuple[float, float]

    @property
    def outer(self) -> tuple[float, float]:
        """The centre of its outer spot (double spaces)."""
        return (self.x + self.out[0] * OUTER_OFFSET, self.y + self.out[1] * OUTER_OFFSET)


_OUTWARD = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))


@lru_cache(maxsize=4)
def route_spaces(length: int = 53) -> tuple[Space, ...]:
    """Each index of the route on the loop; the corners hold the port and the pontoons.

    The last index (arrival) is the port again, at the first corner."""
    spaces: list[Space] = []
    for side in range(4):
        x0, y0 = CORNERS[side]
        x1, y1 = CORNERS[(side + 1) % 4]
        for step in range(SPACES_PER_SIDE + 1):
            t = step / (SPACES_PER_SIDE + 1)
            index = side * (SPACES_PER_SIDE + 1) + step
            spaces.append(Space(index, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, _OUTWARD[side]))
    first = spaces[0]
    spaces.append(Space(length - 1, first.x, first.y, first.out))
    return tuple(spaces[:length])


_DIAGONAL = ((-1, -1), (1, -1), (1, 1), (-1, 1))


def port_box(corner: int) -> tuple[int, int, int, int]:
    """The box of the port (corner 0) or a pontoon (1-3), just outside its corner of the loop."""
    x, y = CORNERS[corner]
    dx, dy = _DIAGONAL[corner]
    cx, cy = x + dx * PORT_SHIFT, y + dy * PORT_SHIFT
    w, h = PORT_SIZE
    return (cx - w // 2, cy - h // 2, cx + w // 2, cy + h // 2)


def slot_centre(corner: int, slot: int) -> tuple[float, float]:
    """The centre of boat slot ``slot`` (1 first, three to a row) in a port box."""
    left, top, right, _ = port_box(corner)
    row, column = divmod(slot - 1, SLOTS_PER_ROW)
    width = SLOTS_PER_ROW * SLOT_PITCH
    x0 = (left + right - width) / 2
    return (x0 + SLOT_PITCH * (column + 0.5), top + 42 + row * SLOT_PITCH)


@dataclass(frozen=True)
class PanelBox:
    """One player's boat board on the right."""

    seat: int
    box: tuple[int, int, int, int]


def panels(count: int) -> tuple[PanelBox, ...]:
    """The boat boards of ``count`` players, stacked in the right column."""
    left, top, right, bottom = PANELS_AREA
    height = min(300, (bottom - top - PANEL_GAP * (count + 1)) // count)
    return tuple(
        PanelBox(
            seat,
            (
                left + PANEL_GAP,
                top + PANEL_GAP + seat * (height + PANEL_GAP),
                right - PANEL_GAP,
                top + PANEL_GAP + seat * (height + PANEL_GAP) + height,
            ),
        )
        for seat in range(count)
    )
