"""Namiji as a rules object of the engine contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import ClassVar

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
from engine.errors import InvalidSetup
from engine.namiji import rules
from engine.namiji.components import CLOCKWISE, DIRECTIONS, components
from engine.namiji.notation import Action, format_action, parse
from engine.namiji.players import greedy_player
from engine.namiji.refusals import REFUSALS
from engine.namiji.scoring import score_lines
from engine.namiji.search import BUDGET, analyse_view, strong_player
from engine.namiji.state import DRAFT, MOVE, OVER, State
from engine.namiji.view import NamijiView, view
from engine.players import NAMED_LEVELS, players_by_name

REVEALING_STATIONS = ("F", "N", "T", "R")  # a stop there may show hidden fish, nets, cards
OPTIONS: dict[str, tuple[str, ...]] = {"direction": DIRECTIONS}  # allowed values, default first


class Namiji:
    """Rules object for Namiji (Bauza, Funforge)."""

    key = "namiji"
    display_name = "Namiji"
    min_players = 2
    max_players = 5
    players: ClassVar[dict[str, ComputerPlayer]] = players_by_name(strong_player, greedy_player)
    levels: ClassVar[dict[str, str]] = NAMED_LEVELS
    search_budget: ClassVar[Budget] = BUDGET

    def analyse(
        self,
        view: View,
        seed: int,
        budget: Budget | None = None,
        also: Sequence[str] = (),
    ) -> list[Choice]:
        """The strong player's choices for the view with their chances to win, the best first."""
        return analyse_view(view, seed, budget, also)

    def normalize_options(self, options: Mapping[str, object] | None) -> Options:
        """The one option, ``direction`` of travel: clockwise (the default) or reversed."""
        given = dict(options or {})
        unknown = sorted(map(str, set(given) - set(OPTIONS)))
        if unknown:
            raise REFUSALS.make(InvalidSetup, "unknown_option", options=", ".join(unknown))
        result = {}
        for name, allowed in OPTIONS.items():
            value = given.get(name, allowed[0])
            if value not in allowed:
                raise REFUSALS.make(
                    InvalidSetup, "bad_option", option=name, allowed=", ".join(allowed)
                )
            result[name] = value
        return result

    def new_state(self, players: list[str], seed: int, options: Options) -> State:
        """A fresh game."""
        return rules.new_state(players, seed, options.get("direction", CLOCKWISE))

    def seat_colours(self, st: State) -> list[str]:
        """Each seat's boat colour."""
        return [p.colour for p in st.players]

    def current_seat(self, st: State) -> int | None:
        """Whose action it is (the neutral boat's mover for it), or None once over."""
        return rules.actor(st)

    def turn_info(self, st: State) -> TurnInfo:
        """The seat to act, the move count as round, and the step (move, a task, end, pick)."""
        if st.phase == OVER:
            return TurnInfo(None, st.turns, "", False)
        if st.phase == MOVE:
            step = "move"
        elif st.phase == DRAFT:
            step = "pick"
        else:
            step = st.tasks[0] if st.tasks else "end"
        return TurnInfo(rules.actor(st), st.turns + 1, step, st.moved)

    def parse(self, st: State, text: str) -> Action:
        """One action from text (InvalidNotation if it is not one); a move knows its station."""
        action = parse(text)
        if action.kind == "move":
            return replace(action, station=components(st.direction).route[int(action.args[0])])
        return action

    def format(self, st: State, action: Action) -> str:
        """The canonical text of an action."""
        return format_action(action)

    def check(self, st: State, action: Action) -> None:
        """Raise IllegalAction unless the action is legal now."""
        rules.check(st, action)

    def apply(self, st: State, action: Action, pass_turn: bool = True) -> list[Event]:
        """Apply a checked action in place."""
        return rules.apply(st, action, pass_turn)

    def legal_moves(self, st: State) -> list[Action]:
        """Every legal action now, as actions (formatted only when asked)."""
        return rules.legal(st)

    def legal_actions(self, st: State) -> list[str]:
        """Every legal action now, canonical."""
        return [format_action(a) for a in rules.legal(st)]

    def view(self, st: State, seat: int | None, legal: list[str] | None) -> NamijiView:
        """What that seat may see."""
        return view(st, seat, legal)

    def secrets(self, st: State, seat: int | None) -> frozenset[str]:
        """Card labels that seat may not see: decks, others' rocks, others' draft hand."""
        hidden = set(st.pontoon_deck) | set(st.rock_deck)
        if st.phase != OVER:
            hidden.update(c for s, p in enumerate(st.players) if s != seat for c in p.rocks)
        acting = rules.actor(st)
        if seat is None or seat != acting:
            hidden.update(st.hand)
        if seat is None or st.phase == DRAFT or seat != st.boats[st.boat].seat:
            hidden.update(st.rocks_shown)
        return frozenset(hidden)

    def outcome(self, st: State) -> Outcome | None:
        """Final scores; tied players share the victory."""
        return self.standing(st) if st.phase == OVER else None

    def standing(self, st: State) -> Outcome:
        """The points scored so far (tied players share a place); the final scores once over."""
        over = st.phase == OVER
        totals = [p.score for p in st.players]
        best = max(totals)
        results = tuple(
            SeatResult(
                seat=s,
                name=p.name,
                score=p.score,
                rank=1 + sum(t > p.score for t in totals),
                lines=tuple(ScoreLine(k, v) for k, v in score_lines(p, final=over).items()),
            )
            for s, p in enumerate(st.players)
        )
        winners = tuple(s for s, t in enumerate(totals) if t == best)
        return Outcome(results, winners, ("all_arrived",) if over else (), False, st.turns)

    def statistics(self, st: State) -> dict[str, list[float]]:
        """Per-seat figures for balance reports."""
        return {
            "crate_cells": [sum(bool(k) for k in p.crate) for p in st.players],
            "crate_lines": [len(p.lines) for p in st.players],
            "crustaceans": [len(p.trap) for p in st.players],
            "offerings_left": [p.offerings for p in st.players],
            "rock_cards": [len(p.rocks) for p in st.players],
            "upgrades": [sum(c.startswith("U") for c in p.pontoon) for p in st.players],
        }

    def milestones(self, events: list[Event]) -> Milestones:
        """A turn ends with `end` or a pick; the game ends when every boat has arrived."""
        kinds = {e["type"] for e in events}
        return Milestones(turn_ended="end_turn" in kinds, game_ended="game_end" in kinds)

    def reveals(self, action: Action) -> bool:
        """Whether the action may show its player hidden information (no undo across it)."""
        if action.kind == "move" and action.station:
            return action.station[0] in REVEALING_STATIONS
        if action.kind == "move":  # parsed without a state: either direction's station counts
            q = int(action.args[0])
            return any(components(d).route[q][0] in REVEALING_STATIONS for d in DIRECTIONS)
        return action.kind in ("fish", "draw", "pick")

    def ends_turn(self, action: Action) -> bool:
        """`end` and a draft pick finish the player's turn."""
        return action.kind in ("end", "pick")

    def public_text(self, st: State, action: Action) -> str:
        """The action as others may read it: which sacred rock card was kept stays hidden."""
        if action.kind == "rock" and st.phase != OVER:
            return "rock (a card kept face down)"
        return format_action(action)

    def clone(self, st: State) -> State:
        """A deep copy."""
        return st.clone()

    def to_dict(self, st: State) -> JsonObject:
        """JSON-ready state."""
        return st.to_dict()

    def from_dict(self, data: JsonObject) -> State:
        """The state ``to_dict`` wrote."""
        return State.from_dict(data)
