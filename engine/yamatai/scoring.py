"""Final scoring, the running score, and the tie-break."""

from __future__ import annotations

from typing import Any

from engine.yamatai.common import has
from engine.yamatai.context import Ctx
from engine.yamatai.state import Player, State

LINES = ("coins", "pp_tokens", "buildings", "specialists", "reserved", "set_aside")


def score_lines(ctx: Ctx, player: Player) -> dict[str, int]:
    """Each scoring line of the rulebook for one player, as it stands now."""
    comp = ctx.comp
    coins_per_pp = 3 if has(player, "Fu-Hsi") else 5
    return {
        "coins": player.coins // coins_per_pp,
        "pp_tokens": player.pp_tokens * (2 if has(player, "Amateratsu") else 1),
        "buildings": sum(comp.buildings[t].pp for t in player.tiles),
        "specialists": sum(comp.specialists[s].pp for s in player.specialists),
        "reserved": -len(player.reserved),
        "set_aside": -(sum(player.set_aside) // 2),
    }


def ranking(ctx: Ctx, st: State) -> list[int]:
    """Seats from first to last: most PP, ties to whoever played first in the last round."""
    totals = [sum(score_lines(ctx, p).values()) for p in st.players]
    first_turn = {seat: st.turn_order.index(seat) for seat in range(len(st.players))}
    return sorted(range(len(st.players)), key=lambda s: (-totals[s], first_turn[s]))


def outcome(ctx: Ctx, st: State) -> dict[str, Any]:
    """Final scores per seat with each scoring line, the ranking and the winner."""
    order = ranking(ctx, st)
    scores = []
    for seat, player in enumerate(st.players):
        lines = score_lines(ctx, player)
        scores.append(
            {
                "seat": seat,
                "name": player.name,
                "total": sum(lines.values()),
                "lines": lines,
                "rank": order.index(seat) + 1,
            }
        )
    return {
        "winner": order[0],
        "ranking": order,
        "end_reason": st.end_reasons[0] if st.end_reasons else None,
        "end_reasons": list(st.end_reasons),
        "rounds": st.round,
        "scores": scores,
    }
