"""Yamatai as a registered game: the small interface every game of the registry offers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.contract import (
    Budget,
    Choice,
    ComputerPlayer,
    Event,
    JsonObject,
    Milestones,
    Options,
    Outcome,
    SeatResult,
    TurnInfo,
    View,
)
from engine.contract import ScoreLine as Line
from engine.errors import InvalidSetup
from engine.players import NAMED_LEVELS, players_by_name
from engine.yamatai import rules
from engine.yamatai.context import context
from engine.yamatai.notation import Action
from engine.yamatai.players import greedy_player
from engine.yamatai.refusals import REFUSALS
from engine.yamatai.scoring import outcome
from engine.yamatai.search import BUDGET, analyse_view, strong_player
from engine.yamatai.setup import new_state
from engine.yamatai.state import FLEET, STEP_ORDERS, State
from engine.yamatai.view import YamataiView, figure, view

MIN_PLAYERS, MAX_PLAYERS = 2, 4
FIGURE_WORDS = {"standard": "a standard building", "torii": "a torii", "palace": "a palace"}
# Each option's allowed values, the default first. ``step_order`` exists for games stored before
# the rulebook's step order was followed (migration 0003 marks them ``recruit-first``).
OPTIONS: dict[str, tuple[str, ...]] = {"board": ("default",), "step_order": STEP_ORDERS}


class Yamatai:
    """Rules object for Yamatai (Cathala & Paquien)."""

    key = "yamatai"
    display_name = "Yamatai"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
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
        """Validate options and fill in defaults."""
        given = dict(options or {})
        unknown = sorted(set(given) - set(OPTIONS))
        if unknown:
            raise REFUSALS.make(
                InvalidSetup, "unknown_option", options=", ".join(unknown), known=", ".join(OPTIONS)
            )
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
        return new_state(context(options["board"]), players, seed, options["step_order"])

    def current_seat(self, st: State) -> int | None:
        """Whose action it is, or None once the game is over."""
        return None if st.over else st.seat

    def seat_colours(self, st: State) -> list[str]:
        """Each seat's building colour."""
        return [p.colour for p in st.players]

    def turn_info(self, st: State) -> TurnInfo:
        """The seat to act, the round and the step (R2: a game under the old order says so)."""
        if st.over:
            return TurnInfo(None, st.round, "", False)
        step = rules.shown_step(context(st.board), st)
        if step == "acted" and not st.rulebook_order:
            step = "acted_recruit_first"
        return TurnInfo(st.seat, st.round, step, st.turn.step != FLEET)

    def parse(self, st: State, text: str) -> Action:
        """Parse one action (InvalidNotation if it is not one)."""
        return context(st.board).notation.parse(text)

    def format(self, st: State, action: Action) -> str:
        """The canonical text of an action."""
        return context(st.board).notation.format(action)

    def check(self, st: State, action: Action) -> None:
        """Raise IllegalAction unless the action is legal now."""
        rules.check(context(st.board), st, action)

    def apply(self, st: State, action: Action, pass_turn: bool = True) -> list[Event]:
        """Apply a checked action in place (``pass_turn=False``: stop at the end of the turn)."""
        return rules.apply(context(st.board), st, action, pass_turn)

    def legal_moves(self, st: State) -> list[Action]:
        """Every legal action now, as actions (formatted only when asked)."""
        return rules.legal_actions(context(st.board), st)

    def legal_actions(self, st: State) -> list[str]:
        """Every legal action now, as canonical text."""
        ctx = context(st.board)
        return ctx.notation.texts(rules.legal_actions(ctx, st))

    def view(self, st: State, seat: int | None, legal: list[str] | None) -> YamataiView:
        """What that seat may see."""
        return view(context(st.board), st, seat, legal)

    def secrets(self, st: State, seat: int | None) -> frozenset[str]:
        """Tiles that seat may not see: the deck, others' built tiles, others' looked-at tiles."""
        hidden = set(st.building_deck)
        if not st.over:
            hidden.update(t for s, p in enumerate(st.players) if s != seat for t in p.tiles)
        if st.over or seat != st.seat:  # once over there is no current seat (st.seat)
            hidden.update(st.turn.looked)
        return frozenset(hidden)

    def outcome(self, st: State) -> Outcome | None:
        """Final scores, or None while the game runs."""
        return typed_outcome(outcome(context(st.board), st)) if st.over else None

    def standing(self, st: State) -> Outcome:
        """The running score of every seat (all tiles counted) ranked as at the game's end."""
        return typed_outcome(outcome(context(st.board), st))

    def statistics(self, st: State) -> dict[str, list[float]]:
        """Buildings, specialists and boats set aside per seat, and the boat types run out."""
        ctx = context(st.board)
        return {
            "buildings": [len(p.tiles) for p in st.players],
            "specialists": [len(p.specialists) for p in st.players],
            "set_aside": [sum(p.set_aside) for p in st.players],
            **{
                f"out_of_{ctx.boat_name(b)}": [n == 0] * len(st.players)
                for b, n in enumerate(st.reserve)
            },
        }

    def milestones(self, events: list[Event]) -> Milestones:
        """Turn ended, round started, game ended, from this game's event types."""
        # one pass, no set or list made: asked after every action played
        turn_ended = game_ended = False
        round_started = None
        for event in events:
            kind = event.get("type")
            if kind == "round_start":
                round_started = int(event["round"])  # the last round started
            name = str(kind)
            turn_ended = turn_ended or name == "end_turn"
            game_ended = game_ended or name == "game_end"
        return Milestones(turn_ended=turn_ended, round_started=round_started, game_ended=game_ended)

    def reveals(self, action: Action) -> bool:
        """Whether the action shows the actor hidden information (undo may not cross it)."""
        return action.kind == "look"

    def ends_turn(self, action: Action) -> bool:
        """Whether the action finishes the player's turn."""
        return action.kind == "end"

    def public_text(self, st: State, action: Action) -> str:
        """The action with what only its player sees left out (fleet 3's tiles, built tiles)."""
        if action.kind == "arrange":
            top, bottom = action.args
            return f"arrange ({len(top)} on top, {len(bottom)} at the bottom)"
        if action.kind == "build" and not st.over:
            ctx = context(st.board)
            tile, island = action.args
            return f"build {ctx.island(island)} ({FIGURE_WORDS[figure(ctx, tile)]}, tile face down)"
        return self.format(st, action)

    def clone(self, st: State) -> State:
        """A deep copy."""
        return st.clone()

    def to_dict(self, st: State) -> JsonObject:
        """JSON-ready state."""
        return st.to_dict()

    def from_dict(self, data: JsonObject) -> State:
        """State from JSON-ready data."""
        return State.from_dict(data)


def typed_outcome(data: dict[str, Any]) -> Outcome:
    """The scoring's outcome data as the contract's typed value."""
    results = tuple(
        SeatResult(
            seat=int(score["seat"]),
            name=str(score["name"]),
            score=int(score["total"]),
            rank=int(score["rank"]),
            lines=tuple(Line(label, int(points)) for label, points in score["lines"].items()),
        )
        for score in data["scores"]
    )
    totals = sorted((r.score for r in results), reverse=True)
    return Outcome(
        results=results,
        winners=(int(data["winner"]),),
        termination=tuple(data["end_reasons"]),
        tie_broken=len(totals) > 1 and totals[0] == totals[1],
        rounds=int(data["rounds"]),
    )
