"""Small helpers shared by the Yamatai rule modules."""

from __future__ import annotations

from engine.yamatai.context import Ctx
from engine.yamatai.state import NONE, Player, State


def current(st: State) -> Player:
    """The player whose turn it is."""
    return st.players[st.turn_order[st.turn_index]]  # st.seat, without a property call


def has(player: Player, specialist: str) -> bool:
    """Whether the player has recruited that specialist."""
    return specialist in player.specialists


def owner_of(st: State, specialist: str) -> int | None:
    """The seat that recruited a specialist, if any."""
    for seat, player in enumerate(st.players):
        if specialist in player.specialists:
            return seat
    return None


def island_is_empty(st: State, island: int) -> bool:
    """No culture token, no building and no sacred ground on the island."""
    return (
        st.island_tokens[island] == NONE and st.buildings[island] is None and not st.sacred[island]
    )


def boat_list(ctx: Ctx, counts: list[int]) -> list[str]:
    """Boat names, one per boat, in boat order."""
    return [ctx.comp.boat_names[b] for b, n in enumerate(counts) for _ in range(n)]


def adjacent_boats(ctx: Ctx, st: State, island: int) -> list[int]:
    """How many boats of each type lie on the spots around an island."""
    counts = [0] * len(ctx.comp.boat_names)
    boats = st.spot_boats
    for spot in ctx.board.island_spots[island]:
        boat = boats[spot]
        if boat != NONE:
            counts[boat] += 1
    return counts
