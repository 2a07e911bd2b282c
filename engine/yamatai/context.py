"""The static things every rule reads: board, components and notation, bundled once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from engine.yamatai.board import Board, load_board
from engine.yamatai.components import Components, load_components
from engine.yamatai.notation import Notation


@dataclass(frozen=True)
class Ctx:
    """Board, components and notation for one board name."""

    board_name: str
    board: Board
    comp: Components
    notation: Notation
    gold: int
    island_rank: tuple[int, ...]  # position of each island in label order (C4 before D2)

    def boat_name(self, boat: int) -> str:
        """The name of a boat type."""
        return self.comp.boat_names[boat]

    def island(self, island: int) -> str:
        """The label of an island."""
        return self.board.island_labels[island]

    def by_label(self, islands: Iterable[int]) -> tuple[int, ...]:
        """Islands sorted by label, the order of canonical notation."""
        return tuple(sorted(islands, key=self.island_rank.__getitem__))

    def spot(self, spot: int) -> str:
        """The label of a spot."""
        return self.board.spot_labels[spot]


@cache
def context(board_name: str = "default") -> Ctx:
    """The shared context for a board (built once)."""
    board = load_board(board_name)
    comp = load_components()
    by_label = sorted(range(len(board.island_labels)), key=board.island_labels.__getitem__)
    rank = tuple(by_label.index(i) for i in range(len(by_label)))
    return Ctx(board_name, board, comp, Notation(board, comp), comp.gold, rank)
