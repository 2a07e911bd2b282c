"""Namiji's computer players: a greedy one-decision player and the random one."""

from __future__ import annotations

from engine.contract import ComputerPlayer, View
from engine.namiji.components import cell_index, components
from engine.namiji.notation import Action, parse
from engine.namiji.scoring import measures, net_cells, potential_gain
from engine.namiji.state import Player, player_from_view
from engine.players import legal_of, random_player, seeded
from engine.rng import Rng

__all__ = ["PLAYERS", "greedy_player", "random_player"]

STATION_VALUE = {"F": 3.0, "N": 3.5, "C": 3.0, "R": 3.0, "P": 1.0, "S": 2.0}
SKIP_COST = 0.7  # points a skipped space is worth (the boats behind get the turns)
UPGRADE_VALUE = 3.0
PANORAMA_PROMISE = 2.0  # a section also opens the next, bigger one


def _me(view: View) -> Player:
    return player_from_view(view["players"][view["viewer"]])


def _placed(crate: list[str], kind: str, cells: list[int]) -> float:
    after = crate[:]
    for i in cells:
        after[i] = kind
    return potential_gain(crate, after, cells) + 0.3 * len(cells)


def action_value(view: View, me: Player, action: Action) -> float:
    """How much an action seems worth to the player who takes it."""
    comp = components()
    kind, args = action.kind, action.args
    if kind == "pick":
        return float(comp.meals.get(args[0], UPGRADE_VALUE))
    if kind == "move":
        boat = view["boats"][view["boat_to_act"]]
        to = int(args[0])
        if boat["seat"] is None:  # the neutral boat: block the space just ahead of the rival
            rival: list[int] = [
                b["pos"] for b in view["boats"] if b["seat"] not in (None, view["viewer"])
            ]
            return -float(abs(to - rival[0] - 1))
        letter = str(view["route"][to])[0]  # in the game's direction of travel
        if letter == "T":
            worth = 4.0 if me.offerings else 0.5
        elif letter in comp.sections:
            worth = me.panoramas[letter] + 1.0 + PANORAMA_PROMISE
        else:
            worth = STATION_VALUE[letter]
        start: int = boat["pos"]
        return worth - SKIP_COST * (to - start - 1)
    if kind == "fish":
        fish = args[0]
        if fish == "hidden":
            return 0.5
        return max(
            (_placed(me.crate, fish, [i]) for i in range(12) if not me.crate[i]), default=0.0
        )
    if kind == "keep":
        return _placed(me.crate, view["catch"], [cell_index(args[0])])
    if kind == "net":
        cells = net_cells(args[1], args[2])
        return _placed(me.crate, args[0], cells or [])
    if kind == "draw":
        return 1.0 if view["drawn"].count("CB") == 0 and len(view["drawn"]) < 4 else -1.0
    if kind == "rock":
        figures = measures(me)
        rock = comp.rocks[args[0]]
        chance = min(
            (1.0 if figures[m] <= n else 0.2)
            if op == "<="
            else min(1.0, (figures[m] + 1) / (n + 1))
            for m, op, n in rock.when
        )
        return rock.points * chance
    if kind == "panorama":
        return me.panoramas[args[0]] + 1.0
    if kind == "offer":
        return 2.0
    return 0.0  # end, stop, release, refuse


def greedy_values(view: View, me: Player | None = None) -> list[tuple[str, float]]:
    """Each legal action of the view with how much it seems worth, in the legal order.

    ``me`` is the viewer's player if the caller has it (else read from the view); it is not
    changed."""
    player = _me(view) if me is None else me
    return [(a, action_value(view, player, parse(a))) for a in legal_of(view)]


def greedy_player(view: View, seed: int) -> str:
    """The legal action that looks best for this decision alone (ties broken by the seed)."""
    legal = legal_of(view)
    if len(legal) == 1:
        return legal[0]
    return best_of(greedy_values(view), seeded(view, seed))


def best_of(values: list[tuple[str, float]], generator: Rng) -> str:
    """The best valued action, ties broken at random."""
    top = max(v for _, v in values)
    best = [a for a, v in values if v > top - 1e-9]
    return best[generator.below(len(best))]


PLAYERS: dict[str, ComputerPlayer] = {"greedy": greedy_player, "random": random_player}
