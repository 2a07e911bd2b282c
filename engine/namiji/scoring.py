"""Namiji's scoring: crate placement and lines, sacred rock objectives, the final count."""

from __future__ import annotations

from functools import cache

from engine.namiji.components import CELLS, COLUMNS, PANORAMA_TYPES, ROWS, cell_index, components
from engine.namiji.state import Player

LINE_NAMES = tuple(f"r{r}" for r in range(1, ROWS + 1)) + tuple(
    f"c{c}" for c in range(1, COLUMNS + 1)
)


def line_cells(line: str) -> list[int]:
    """The cell indices of a crate line (``r2`` or ``c3``)."""
    n = int(line[1:]) - 1
    if line[0] == "r":
        return [n * COLUMNS + c for c in range(COLUMNS)]
    return [r * COLUMNS + n for r in range(ROWS)]


def line_value(line: str) -> int:
    """The points printed at the end of a crate line."""
    comp = components()
    n = int(line[1:]) - 1
    return comp.row_points[n] if line[0] == "r" else comp.column_points[n]


def uniform(kinds: list[str]) -> bool:
    """Whether fish kinds share one colour or one shape."""
    return len({k[0] for k in kinds}) == 1 or len({k[1] for k in kinds}) == 1


def neighbours(index: int) -> list[int]:
    """The orthogonal neighbours of a crate cell."""
    r, c = divmod(index, COLUMNS)
    near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [a * COLUMNS + b for a, b in near if 0 <= a < ROWS and 0 <= b < COLUMNS]


def fits(crate: list[str], cells: list[int]) -> bool:
    """Whether a token may cover these cells: free, and at r1c1 first or next to a token."""
    if any(crate[i] for i in cells):
        return False
    if not any(crate):
        return 0 in cells
    return any(crate[n] for i in cells for n in neighbours(i))


def fish_cells(crate: list[str]) -> list[str]:
    """Crate cells where a single fish may go now."""
    return [CELLS[i] for i in range(len(CELLS)) if fits(crate, [i])]


def net_cells(cell: str, orientation: str) -> list[int] | None:
    """The two cells a net covers from its top-left cell (``h`` rightwards, ``v`` downwards)."""
    i = cell_index(cell)
    r, c = divmod(i, COLUMNS)
    if orientation == "h":
        return [i, i + 1] if c + 1 < COLUMNS else None
    return [i, i + COLUMNS] if r + 1 < ROWS else None


def net_places(crate: list[str]) -> list[tuple[str, str]]:
    """Every (cell, orientation) where a net may go now."""
    places = []
    for cell in CELLS:
        for orientation in ("h", "v"):
            cells = net_cells(cell, orientation)
            if cells is not None and fits(crate, cells):
                places.append((cell, orientation))
    return places


def new_lines(player: Player, cells: list[int]) -> list[str]:
    """Lines just completed through these cells with one colour or one shape (not yet scored)."""
    found = []
    for line in LINE_NAMES:
        idx = line_cells(line)
        kinds = [player.crate[i] for i in idx]
        if set(idx) & set(cells) and all(kinds) and uniform(kinds) and line not in player.lines:
            found.append(line)
    return found


def penalty(offerings_left: int) -> int:
    """The offering penalty printed above the topmost offering left."""
    return components().penalty_by_left[offerings_left]


def panorama_points(sections: int) -> int:
    """Points of sections 1 to n of a panorama."""
    return sections * (sections + 1) // 2


def measures(player: Player) -> dict[str, int]:
    """The figures the sacred rock objectives look at."""
    comp = components()
    cells = [k for k in player.crate if k]
    completed = sum(player.panoramas[t] == comp.sections[t] for t in PANORAMA_TYPES)
    return {
        "crate_cells": len(cells),
        "scored_lines": len(player.lines),
        "nets": len(player.nets),
        "colours": len({k[0] for k in cells}),
        "shapes": len({k[1] for k in cells}),
        "blue_cells": sum(k[0] == "b" for k in cells),
        "orange_cells": sum(k[0] == "o" for k in cells),
        "green_cells": sum(k[0] == "g" for k in cells),
        "shrimp": player.trap.count("SH"),
        "crabs": player.trap.count("CB"),
        "crustaceans": len(player.trap),
        "offerings": player.offerings,
        "panorama_types": sum(player.panoramas[t] > 0 for t in PANORAMA_TYPES),
        "completed_panoramas": completed,
        "whale_sections": player.panoramas["W"],
        "meals": sum(c in comp.meals for c in player.pontoon),
        "upgrades": sum(c in comp.upgrades for c in player.pontoon),
        "rocks": len(player.rocks),
        "arrival": comp.arrival_points.get(player.arrival, 0),
    }


def rock_met(player: Player, card: str) -> bool:
    """Whether a sacred rock objective is met by the player's collection."""
    figures = measures(player)
    return all(
        figures[m] >= n if op == ">=" else figures[m] <= n
        for m, op, n in components().rocks[card].when
    )


def score_lines(player: Player, final: bool) -> dict[str, int]:
    """A player's points recounted from the collection, by category (rocks and offerings once
    the game is over)."""
    comp = components()
    lines = {
        "crate": sum(line_value(line) for line in player.lines),
        "crustaceans": len(player.trap),
        "panoramas": sum(panorama_points(player.panoramas[t]) for t in PANORAMA_TYPES),
        "panorama_bonus": comp.panorama_bonus * len(player.bonuses),
        "meals": sum(comp.meals.get(c, 0) for c in player.pontoon),
        "arrival": comp.arrival_points.get(player.arrival, 0),
    }
    if final:
        lines["sacred_rocks"] = sum(
            comp.rocks[c].points for c in player.rocks if rock_met(player, c)
        )
        lines["offerings"] = -penalty(player.offerings)
    return lines


@cache
def _line_table() -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each crate line's cells and points (the computer players read them very often)."""
    return tuple((tuple(line_cells(line)), line_value(line)) for line in LINE_NAMES)


def _line_promise(crate: list[str], cells: tuple[int, ...], points: int) -> float:
    kinds = [crate[i] for i in cells if crate[i]]
    if kinds and uniform(kinds):
        return points * (len(kinds) / len(cells)) ** 2
    return 0.0


def potential(crate: list[str]) -> float:
    """How promising a crate is: scored lines in full, open lines by their share filled."""
    return sum(_line_promise(crate, cells, points) for cells, points in _line_table())


def potential_gain(crate: list[str], after: list[str], changed: list[int]) -> float:
    """``potential(after) - potential(crate)`` when only the ``changed`` cells differ (only the
    lines through them are counted again)."""
    gain = 0.0
    for cells, points in _line_table():
        if any(i in cells for i in changed):
            gain += _line_promise(after, cells, points) - _line_promise(crate, cells, points)
    return gain
