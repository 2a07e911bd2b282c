"""Nim's rules behind the engine contract: piles, ``take N from P``, normal play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypedDict

from engine import rng
from engine.contract import (
    Budget,
    Choice,
    ComputerPlayer,
    Event,
    JsonObject,
    Milestones,
    Options,
    Outcome,
    ScoreLine,
    SeatResult,
    TurnInfo,
    View,
)
from engine.errors import IllegalAction, InvalidNotation, InvalidSetup
from engine.players import legal_of, random_player, seeded

KEY = "nim"
PILES = "ABC"
MAX_TAKE = 3
COLOURS = ("teal", "amber")


@dataclass
class NimState:
    """Piles, the seat to act, the turns played and the last taker."""

    piles: list[int]
    seat: int = 0
    turns: int = 0
    winner: int | None = None
    names: list[str] = field(default_factory=list)


class NimView(TypedDict):
    """What anyone sees of a Nim game: everything."""

    game: str
    viewer: int | None
    piles: list[int]
    names: list[str]
    current_seat: int | None
    winner: int | None
    legal_actions: list[str]


@dataclass(frozen=True)
class Take:
    """Take ``count`` objects from pile ``pile`` (an index)."""

    count: int
    pile: int


def _parse(text: str) -> Take:
    words = text.strip().lower().split()
    if len(words) != 4 or words[0] != "take" or words[2] != "from":
        raise InvalidNotation(
            f"Not a move: {text!r}. Write: take N from PILE.", legal=["take N from PILE"]
        )
    count, pile = words[1], words[3].upper()
    if not count.isdigit() or pile not in PILES:
        raise InvalidNotation(
            f"Not a move: {text!r}. Piles are A, B and C.", reason="bad_arguments"
        )
    return Take(int(count), PILES.index(pile))


def _format(action: Take) -> str:
    return f"take {action.count} from {PILES[action.pile]}"


def _winning(piles: list[int], action: str) -> bool:
    """Whether the take leaves a nim-sum of zero (a won position with perfect play)."""
    take = _parse(action)
    after = list(piles)
    after[take.pile] -= take.count
    total = 0
    for pile in after:
        total ^= pile % (MAX_TAKE + 1)
    return total == 0


def perfect_player(view: View, seed: int) -> str:
    """Leaves a nim-sum of zero when it can, else takes one at random."""
    legal = legal_of(view)
    for action in legal:
        if _winning(view["piles"], action):
            return action
    return legal[seeded(view, seed).below(len(legal))]


class Nim:
    """The rules object the registry holds."""

    key = KEY
    display_name = "Nim"
    min_players = 2
    max_players = 2
    players: ClassVar[dict[str, ComputerPlayer]] = {
        "perfect": perfect_player,
        "random": random_player,
    }
    # Nim's perfect player cannot be beaten by search: it plays normal and strong
    levels: ClassVar[dict[str, str]] = {"easy": "random", "normal": "perfect", "strong": "perfect"}
    search_budget: ClassVar[Budget] = Budget(
        iterations=8, determinizations=1, candidates=3, turns=1
    )

    def analyse(
        self,
        view: View,
        seed: int,
        budget: Budget | None = None,
        also: Sequence[str] = (),
    ) -> list[Choice]:
        """Every legal take, the winning ones first: chance 1 if it wins with perfect play."""
        legal = legal_of(view)
        chances = {a: float(_winning(view["piles"], a)) for a in legal}
        return [Choice(a, chances[a], 0) for a in sorted(legal, key=lambda a: -chances[a])]

    def normalize_options(self, options: Mapping[str, object] | None) -> Options:
        """No options."""
        if options:
            raise InvalidSetup("Nim has no options.", reason="unknown_option")
        return {}

    def new_state(self, players: list[str], seed: int, options: Options) -> NimState:
        """Three piles of 3 to 6 objects drawn from the seed."""
        state = rng.seed_state(seed)
        piles = []
        for _ in PILES:
            state, value = rng.below(state, 4)
            piles.append(3 + value)
        return NimState(piles, names=list(players))

    def seat_colours(self, st: NimState) -> list[str]:
        """Teal and amber."""
        return list(COLOURS[: len(st.names)])

    def current_seat(self, st: NimState) -> int | None:
        """The seat to act."""
        return None if st.winner is not None else st.seat

    def turn_info(self, st: NimState) -> TurnInfo:
        """A round is one move of each seat; the only step is taking."""
        seat = self.current_seat(st)
        return TurnInfo(seat, st.turns // 2 + 1, "" if seat is None else "take", False)

    def parse(self, st: NimState, text: str) -> Take:
        """``take N from P``."""
        return _parse(text)

    def format(self, st: NimState, action: Take) -> str:
        """``take N from P``."""
        return _format(action)

    def check(self, st: NimState, action: Take) -> None:
        """1 to 3 objects from a pile that has them."""
        if not 1 <= action.count <= MAX_TAKE:
            raise IllegalAction(f"Take 1 to {MAX_TAKE} objects.", reason="bad_count")
        if st.piles[action.pile] < action.count:
            raise IllegalAction(
                f"Pile {PILES[action.pile]} has {st.piles[action.pile]}.", reason="too_many"
            )

    def apply(self, st: NimState, action: Take, pass_turn: bool = True) -> list[Event]:
        """Take, then pass the turn or end the game."""
        st.piles[action.pile] -= action.count
        events: list[Event] = [
            {"type": "take", "seat": st.seat, "count": action.count, "pile": PILES[action.pile]}
        ]
        st.turns += 1
        if not any(st.piles):
            st.winner = st.seat
            events.append({"type": "won", "seat": st.seat})
        elif pass_turn:
            st.seat = 1 - st.seat
        return events

    def legal_moves(self, st: NimState) -> list[Take]:
        """Every take, pile by pile."""
        if st.winner is not None:
            return []
        return [
            Take(n, p) for p, size in enumerate(st.piles) for n in range(1, min(size, MAX_TAKE) + 1)
        ]

    def legal_actions(self, st: NimState) -> list[str]:
        """Every take, pile by pile, as text."""
        return [_format(take) for take in self.legal_moves(st)]

    def view(self, st: NimState, seat: int | None, legal: list[str] | None) -> NimView:
        """Everything is public."""
        return {
            "game": KEY,
            "viewer": seat,
            "piles": st.piles[:],
            "names": st.names[:],
            "current_seat": self.current_seat(st),
            "winner": st.winner,
            "legal_actions": legal or [],
        }

    def secrets(self, st: NimState, seat: int | None) -> frozenset[str]:
        """Nothing is hidden in Nim."""
        return frozenset()

    def outcome(self, st: NimState) -> Outcome | None:
        """The last taker wins: 1 point against 0."""
        if st.winner is None:
            return None
        results = tuple(
            SeatResult(
                s,
                name,
                int(s == st.winner),
                1 if s == st.winner else 2,
                (ScoreLine("last_take", int(s == st.winner)),),
            )
            for s, name in enumerate(st.names)
        )
        return Outcome(results, (st.winner,), ("last_take",), False, st.turns // 2 + 1)

    def standing(self, st: NimState) -> Outcome:
        """Before the last take nobody leads: every seat shares first place with 0 points."""
        final = self.outcome(st)
        if final is not None:
            return final
        results = tuple(
            SeatResult(s, name, 0, 1, (ScoreLine("last_take", 0),))
            for s, name in enumerate(st.names)
        )
        return Outcome(results, tuple(range(len(st.names))), (), False, st.turns // 2 + 1)

    def statistics(self, st: NimState) -> dict[str, list[float]]:
        """No figures beyond the outcome."""
        return {}

    def milestones(self, events: list[Event]) -> Milestones:
        """Every move ends a turn; a win ends the game."""
        won = any(e["type"] == "won" for e in events)
        return Milestones(turn_ended=bool(events), game_ended=won)

    def reveals(self, action: Take) -> bool:
        """Nothing is hidden."""
        return False

    def ends_turn(self, action: Take) -> bool:
        """One move is a turn."""
        return True

    def public_text(self, st: NimState, action: Take) -> str:
        """Everything is public."""
        return _format(action)

    def clone(self, st: NimState) -> NimState:
        """A copy."""
        return NimState(st.piles[:], st.seat, st.turns, st.winner, st.names[:])

    def to_dict(self, st: NimState) -> JsonObject:
        """JSON-ready state."""
        return {
            "piles": st.piles[:],
            "seat": st.seat,
            "turns": st.turns,
            "winner": st.winner,
            "names": st.names[:],
        }

    def from_dict(self, data: JsonObject) -> NimState:
        """The state ``to_dict`` wrote."""
        return NimState(
            list(data["piles"]), data["seat"], data["turns"], data["winner"], list(data["names"])
        )
