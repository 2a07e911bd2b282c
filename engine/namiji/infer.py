"""Rebuild a playable Namiji state from a seat's view, the hidden parts a seeded guess."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine import rng
from engine.contract import View
from engine.namiji.components import CLOCKWISE, components
from engine.namiji.scoring import net_cells
from engine.namiji.state import Boat, State, player_from_view


def _unseen(total: dict[str, int], seen: Counter[str]) -> list[str]:
    """The components of a mix not seen anywhere, sorted (then shuffled by the caller)."""
    return sorted(k for k, n in total.items() for _ in range(max(0, n - seen[k])))


def _fish_in_crate(player: dict[str, Any]) -> Counter[str]:
    """The single fish in a crate: its cells minus those that nets cover."""
    covered: set[int] = set()
    for net in player["nets"]:
        _kind, cell, orientation = net.split()
        covered |= set(net_cells(cell, orientation) or [])
    return Counter(k for i, k in enumerate(player["crate"]) if k and i not in covered)


def state_from_view(view: View, seed: int) -> State:
    """A state consistent with everything in the view; decks, bank and others' cards guessed."""
    direction = str(view.get("direction", CLOCKWISE))
    comp = components(direction)
    viewer = view["viewer"]
    state = rng.seed_state(seed)
    players = [player_from_view(p) for p in view["players"]]

    seen_fish: Counter[str] = Counter(view["bank"]["face_up"])
    seen_fish.update([view["catch"]] if view["catch"] else [])
    for p in view["players"]:
        seen_fish.update(_fish_in_crate(p))
    fish = _unseen(comp.fish, seen_fish)
    state = rng.shuffle(state, fish)
    fish = fish[: view["bank"]["face_down"]]

    seen_nets: Counter[str] = Counter(view["nets_shown"])
    seen_nets.update(n.split()[0] for p in view["players"] for n in p["nets"])
    nets = _unseen(comp.nets, seen_nets)
    state = rng.shuffle(state, nets)

    traps: Counter[str] = Counter(view["drawn"])
    traps.update(t for p in view["players"] for t in p["trap"])
    bag = {k: max(0, n - traps[k]) for k, n in comp.crustaceans.items()}

    hand = list(view["hand"])
    taken = {c for p in view["players"] for c in p["pontoon"]} | set(hand)
    pontoon = sorted(c for c in [*comp.meals, *comp.upgrades] if c not in taken)
    state = rng.shuffle(state, pontoon)
    if view["phase"] == "draft" and not hand:
        hand, pontoon = pontoon[: view["hand_count"]], pontoon[view["hand_count"] :]

    shown = list(view["rocks_shown"])
    known = set(shown) | {c for p in players for c in p.rocks}
    rocks = sorted(c for c in comp.rocks if c not in known)
    state = rng.shuffle(state, rocks)
    for seat, p in enumerate(view["players"]):
        if seat != viewer and view["phase"] != "over":
            count = p["rock_count"]
            players[seat].rocks, rocks = rocks[:count], rocks[count:]
    if not shown:
        shown, rocks = rocks[: view["rocks_shown_count"]], rocks[view["rocks_shown_count"] :]

    boat = view["boat_to_act"]
    return State(
        rng=state,
        players=players,
        boats=[Boat(b["pos"], b["spot"], b["seat"]) for b in view["boats"]],
        bank_up=list(view["bank"]["face_up"]),
        bank_down=fish,
        net_pile=nets[: view["net_pile"]],
        bag=bag,
        pontoon_deck=pontoon[: view["pontoon_deck"]],
        rock_deck=rocks[: view["rock_deck"]],
        arrivals=list(view["arrivals"]),
        bonuses=list(view["bonuses"]),
        phase=view["phase"],
        boat=0 if boat is None else boat,
        tasks=list(view["tasks"]),
        catch=view["catch"],
        nets_shown=list(view["nets_shown"]),
        rocks_shown=shown,
        drawn=list(view["drawn"]),
        hand=hand,
        draft_slot=view["draft_slot"] or 0,
        drafted=_drafted(view),
        moved=view["phase"] == "station",
        turns=view["turns"],
        direction=direction,
    )


def _drafted(view: View) -> list[int]:
    """Pontoons whose draft is done: those every boat has passed (or is resolving now)."""
    comp = components(str(view.get("direction", CLOCKWISE)))
    rear = min(b["pos"] for b in view["boats"])
    done = [i for i, letter in enumerate(comp.route) if letter.startswith("P") and i < rear]
    if view["phase"] == "draft":
        return done
    waiting = all(b["pos"] == rear for b in view["boats"])
    if waiting and comp.route[rear].startswith("P"):
        done.append(rear)  # the draft there ended before the first boat left
    return done
