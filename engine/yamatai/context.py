"""The static things every rule reads: board, components and notation, bundled once."""

from __future__ import annotations

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

    def boat_name(self, boat: int) -> str:
        """The name of a boat type."""
        return self.comp.boat_names[boat]

    def island(self, island: int) -> str:
        """The label of an island."""
        return self.board.island_labels[island]

    def spot(self, spot: int) -> str:
        """The label of a spot."""
        return self.board.spot_labels[spot]


@cache
def context(board_name: str = "default") -> Ctx:
    """The shared context for a board (built once)."""
    board = load_board(board_name)
    comp = load_components()
    return Ctx(board_name, board, comp, Notation(board, comp), comp.gold)
