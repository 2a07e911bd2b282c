"""What a seat may see: everything on the table, and its own hidden cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypedDict, cast

from engine.namiji.components import components
from engine.namiji.rules import actor, boat_to_move, doubles_used
from engine.namiji.state import DRAFT, OVER, Player, State, player_dict


class NamijiPlayer(TypedDict):
    """A seat's boat board and collection as the view shows it (its rocks only to itself)."""

    name: str
    colour: str
    score: int
    crate: list[str]
    nets: list[str]
    lines: list[str]
    trap: list[str]
    offerings: int
    panoramas: dict[str, int]
    bonuses: list[str]
    pontoon: list[str]
    rocks: list[str]
    arrival: str
    rock_count: int


class NamijiBank(TypedDict):
    """The fish bank: its face-up fish and how many lie face down."""

    face_up: list[str]
    face_down: int


class NamijiBoat(TypedDict):
    """A boat on the route: its space, its spot there and its seat (None: neutral)."""

    seat: int | None
    pos: int
    spot: int


class NamijiView(TypedDict):
    """What a seat (``viewer``; None: a spectator) sees of a Namiji game (docs/render.md)."""

    game: Literal["namiji"]
    viewer: int | None
    phase: str
    current_seat: int | None
    boat_to_act: int | None
    direction: str
    route: list[str]
    doubles_used: bool
    boats: list[NamijiBoat]
    players: list[NamijiPlayer]
    bank: NamijiBank
    net_pile: int
    nets_shown: list[str]
    bag: int
    pontoon_deck: int
    rock_deck: int
    arrivals: list[str]
    bonuses: list[str]
    tasks: list[str]
    catch: str
    drawn: list[str]
    rocks_shown: list[str]
    rocks_shown_count: int
    hand: list[str]
    hand_count: int
    draft_slot: int | None
    turns: int
    legal_actions: list[str]


def view(st: State, seat: int | None, legal: list[str] | None) -> NamijiView:
    """JSON-ready data for a seat (None: a spectator); hidden cards only for their owner."""
    comp = components(st.direction)
    over = st.phase == OVER
    acting = actor(st)
    players = [_player(p, over or s == seat) for s, p in enumerate(st.players)]
    drawer = st.boats[st.boat].seat if st.phase != DRAFT else None
    return {
        "game": "namiji",
        "viewer": seat,
        "phase": st.phase,
        "current_seat": acting,
        "boat_to_act": None if over else (st.boat if st.phase != DRAFT else boat_to_move(st)),
        "direction": st.direction,
        "route": [
            letter + ("*" if double else "")
            for letter, double in zip(comp.route, comp.double, strict=True)
        ],
        "doubles_used": doubles_used(st),
        "boats": [{"seat": b.seat, "pos": b.pos, "spot": b.spot} for b in st.boats],
        "players": players,
        "bank": {"face_up": st.bank_up[:], "face_down": len(st.bank_down)},
        "net_pile": len(st.net_pile),
        "nets_shown": st.nets_shown[:],
        "bag": sum(st.bag.values()),
        "pontoon_deck": len(st.pontoon_deck),
        "rock_deck": len(st.rock_deck),
        "arrivals": st.arrivals[:],
        "bonuses": st.bonuses[:],
        "tasks": st.tasks[:],
        "catch": st.catch,
        "drawn": st.drawn[:],
        "rocks_shown": st.rocks_shown[:] if seat is not None and seat == drawer else [],
        "rocks_shown_count": len(st.rocks_shown),
        "hand": st.hand[:] if st.phase == DRAFT and seat == acting else [],
        "hand_count": len(st.hand),
        "draft_slot": st.draft_slot if st.phase == DRAFT else None,
        "turns": st.turns,
        "legal_actions": list(legal or []),
    }


def namiji_view(data: Mapping[str, object]) -> NamijiView:
    """A view handed on untyped (``engine.contract.View``: from the registry, a snapshot, a
    record) as Namiji's, once its ``game`` says it is one (ValueError for another game's)."""
    if data.get("game") != "namiji":
        raise ValueError(f"not a Namiji view (game {data.get('game')!r})")
    return cast(NamijiView, data)


def _player(p: Player, rocks_shown: bool) -> NamijiPlayer:
    """A seat as the view shows it: its stored data, its rocks only if shown, and their count."""
    shown = player_dict(p)
    shown["rocks"] = p.rocks[:] if rocks_shown else []
    shown["rock_count"] = len(p.rocks)
    return cast(NamijiPlayer, shown)
