"""Yamatai as a registered game: the small interface every game of the registry offers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import InvalidSetup
from engine.yamatai import rules
from engine.yamatai.common import Event
from engine.yamatai.context import context
from engine.yamatai.notation import Action
from engine.yamatai.scoring import outcome
from engine.yamatai.setup import new_state
from engine.yamatai.state import FLEET, STEP_ORDERS, State
from engine.yamatai.view import figure, view

MIN_PLAYERS, MAX_PLAYERS = 2, 4
FIGURE_WORDS = {"standard": "a standard building", "torii": "a torii", "palace": "a palace"}
# Each option's allowed values, the default first. ``step_order`` exists for games stored before
# the rulebook's step order was followed (migration 0003 marks them ``recruit-first``).
OPTIONS: dict[str, tuple[str, ...]] = {"board": ("default",), "step_order": STEP_ORDERS}


class Yamatai:
    """Rules object for Yamatai (Cathala & Paquien)."""

    key = "yamatai"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate options and fill in defaults."""
        given = dict(options or {})
        unknown = sorted(set(given) - set(OPTIONS))
        if unknown:
            raise InvalidSetup(
                f"Unknown option(s) {', '.join(unknown)}; options are: {', '.join(OPTIONS)}.",
                reason="unknown_option",
            )
        result = {}
        for name, allowed in OPTIONS.items():
            value = given.get(name, allowed[0])
            if value not in allowed:
                raise InvalidSetup(
                    f"Option {name} must be one of {', '.join(allowed)}.", reason="bad_option"
                )
            result[name] = value
        return result

    def new_state(self, players: list[str], seed: int, options: dict[str, Any]) -> State:
        """A fresh game."""
        return new_state(context(options["board"]), players, seed, options["step_order"])

    def current_seat(self, st: State) -> int | None:
        """Whose action it is, or None once the game is over."""
        return None if st.over else st.seat

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

    def legal_actions(self, st: State) -> list[str]:
        """Every legal action now, as canonical text."""
        ctx = context(st.board)
        return [ctx.notation.format(a) for a in rules.legal_actions(ctx, st)]

    def view(self, st: State, seat: int | None, legal: list[str] | None) -> dict[str, Any]:
        """What that seat may see."""
        return view(context(st.board), st, seat, legal)

    def outcome(self, st: State) -> dict[str, Any] | None:
        """Final scores, or None while the game runs."""
        return outcome(context(st.board), st) if st.over else None

    def turn_in_progress(self, st: State) -> bool:
        """Whether the current turn already has actions (so undo stays inside it)."""
        return not st.over and st.turn.step != FLEET

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

    def to_dict(self, st: State) -> dict[str, Any]:
        """JSON-ready state."""
        return st.to_dict()

    def from_dict(self, data: dict[str, Any]) -> State:
        """State from JSON-ready data."""
        return State.from_dict(data)
