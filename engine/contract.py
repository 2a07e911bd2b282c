"""What every registered game offers: the typed contract that the bot and the renderer read.

A game is a ``Rules`` object (generic in its state and action types) in the registry of
``engine.games``. Nothing outside a game's own package reads its state, its action tuples or the
keys of its events: what the rest of Himiko needs is given here as typed values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

#: A JSON value as ``json.loads`` gives it and ``json.dumps`` takes it.
JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
#: A JSON object whose shape only its own game knows (its saved state, read back by the
#: ``from_dict`` of the ``to_dict`` that wrote it; its data files): JSON-ready, its values read
#: as the game wrote them.
JsonObject = dict[str, Any]
#: A game's setup options once normalized (``Rules.normalize_options``): each option's value, a
#: string (``"reversed"``), by the option's name (``"direction"``).
Options = dict[str, str]
#: An event of a game: JSON-ready, its ``type`` names what happened (the one shared type; each
#: game documents its events' keys beside its engine).
Event = dict[str, Any]
#: What a seat may see of any game, read as a mapping: each game's view is a ``TypedDict`` beside
#: its engine (in ``engine/<game>/view.py``); ``game`` names the game. The bot draws it as it is:
#: its own extras go to the pictures as arguments (``render.render_board``).
View = Mapping[str, Any]
#: A computer player: a pure function from the view of the seat to act (with its legal actions)
#: and a seed to one legal action in notation.
ComputerPlayer = Callable[[View, int], str]

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class Budget:
    """How much one decision may search: samples in all, guesses kept, turns looked ahead."""

    iterations: int = 96
    determinizations: int = 8
    candidates: int = 8  # the most promising actions by the greedy estimate that are searched
    turns: int = 2  # turns played out after the action's (the actor's own counts as one)
    turns_per_seat: int = 0  # and this many more per seat at the table
    deadline: Callable[[], bool] | None = None  # True once time is up (checked between samples)


@dataclass(frozen=True)
class Choice:
    """A searched action, its estimated chance to win, and how many samples back it."""

    action: str
    win_chance: float
    samples: int


@dataclass(frozen=True)
class ScoreLine:
    """One line of a seat's score: a label key (the bot names it) and its points."""

    label: str
    points: int


@dataclass(frozen=True)
class SeatResult:
    """A seat's final score, rank (1 = best) and how the score is made up."""

    seat: int
    name: str
    score: int
    rank: int
    lines: tuple[ScoreLine, ...]


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as python-chess's Outcome: results, winners and the termination."""

    results: tuple[SeatResult, ...]  # in seat order
    winners: tuple[int, ...]
    termination: tuple[str, ...]  # reason keys, the main one first (the bot names them)
    tie_broken: bool  # the best score is shared and the game's tie-break chose the winner
    rounds: int | None = None

    @property
    def ranking(self) -> list[int]:
        """Seats from first to last."""
        return [r.seat for r in sorted(self.results, key=lambda r: (r.rank, r.seat))]


@dataclass(frozen=True)
class TurnInfo:
    """Where the game stands: whose action, which round, which step of the turn."""

    seat: int | None  # the seat to act; None once the game is over
    round: int  # 1, 2, ... (a game without rounds counts turns)
    step: str  # a label key for the step (the bot names it), "" once over
    in_progress: bool  # the seat to act has already acted this turn


@dataclass(frozen=True)
class Milestones:
    """What a batch of events says about the flow of the game."""

    turn_ended: bool = False
    round_started: int | None = None
    game_ended: bool = False


class Rules(Protocol[S, A]):
    """A game as the registry holds it: setup, notation, legality, views and its outcome."""

    @property
    def key(self) -> str:
        """The registry key, also the view's ``game``."""
        ...

    @property
    def display_name(self) -> str:
        """The game's name as players know it."""
        ...

    @property
    def min_players(self) -> int:
        """The fewest seats."""
        ...

    @property
    def max_players(self) -> int:
        """The most seats."""
        ...

    @property
    def players(self) -> Mapping[str, ComputerPlayer]:
        """Its computer players by name, the strongest first."""
        ...

    @property
    def levels(self) -> Mapping[str, str]:
        """The name in ``players`` of the player of each level: easy, normal and strong."""
        ...

    @property
    def search_budget(self) -> Budget:
        """The strong player's budget per decision; the bot adds a wall-clock deadline."""
        ...

    def analyse(
        self,
        view: View,
        seed: int,
        budget: Budget | None = None,
        also: Sequence[str] = (),
    ) -> list[Choice]:
        """The strong player's choices for a seat's view with their chances to win, the best
        first (``also``: actions to weigh too, such as the one played; default budget: the
        strong player's)."""
        ...

    def normalize_options(self, options: Mapping[str, object] | None) -> Options:
        """Validate options and fill in defaults (InvalidSetup if not acceptable)."""
        ...

    def new_state(self, players: list[str], seed: int, options: Options) -> S:
        """A fresh game for these named seats from a seed."""
        ...

    def seat_colours(self, st: S) -> list[str]:
        """Each seat's colour name, in seat order."""
        ...

    def current_seat(self, st: S) -> int | None:
        """Whose action it is, or None once the game is over."""
        ...

    def turn_info(self, st: S) -> TurnInfo:
        """The seat to act, the round and the step."""
        ...

    def parse(self, st: S, text: str) -> A:
        """One action from text (InvalidNotation if it is not one)."""
        ...

    def format(self, st: S, action: A) -> str:
        """The canonical text of an action."""
        ...

    def check(self, st: S, action: A) -> None:
        """Raise IllegalAction unless the action is legal now; change nothing."""
        ...

    def apply(self, st: S, action: A, pass_turn: bool = True) -> list[Event]:
        """Apply a checked action in place; ``pass_turn=False`` stops at the end of the turn."""
        ...

    def legal_moves(self, st: S) -> list[A]:
        """Every legal action now as the game's own actions, in a fixed order; nothing is
        formatted (``format`` gives an action's text when it is asked for)."""
        ...

    def legal_actions(self, st: S) -> list[str]:
        """Every legal action now, canonical, in a fixed order: ``legal_moves`` formatted."""
        ...

    def view(self, st: S, seat: int | None, legal: list[str] | None) -> View:
        """JSON-ready data of what a seat (None: a spectator) may see; ``game`` names the game."""
        ...

    def secrets(self, st: S, seat: int | None) -> frozenset[str]:
        """Strings that the view of ``seat`` must never contain (another seat's hidden facts)."""
        ...

    def outcome(self, st: S) -> Outcome | None:
        """The final result, or None while the game runs."""
        ...

    def standing(self, st: S) -> Outcome:
        """The result as the game stands: the outcome once over, else each seat's score so far
        and its rank by the game's own ranking (how a stopped game is placed)."""
        ...

    def statistics(self, st: S) -> dict[str, list[float]]:
        """Per-seat figures for balance reports (``python -m engine.simulate``), by name."""
        ...

    def milestones(self, events: list[Event]) -> Milestones:
        """Whether these events ended a turn, started a round or ended the game."""
        ...

    def reveals(self, action: A) -> bool:
        """Whether the action shows its player hidden information (no undo across it)."""
        ...

    def ends_turn(self, action: A) -> bool:
        """Whether the action finishes the player's turn."""
        ...

    def public_text(self, st: S, action: A) -> str:
        """The action as the other seats may read it."""
        ...

    def clone(self, st: S) -> S:
        """A deep copy."""
        ...

    def to_dict(self, st: S) -> JsonObject:
        """JSON-ready state, lossless."""
        ...

    def from_dict(self, data: JsonObject) -> S:
        """The state ``to_dict`` wrote (ValueError, KeyError or TypeError if malformed)."""
        ...


#: A registered game as the registry and a ``Match`` hold it: its state and action types are its
#: own, read by no one else (a caller passes back what the rules gave it).
GameRules = Rules[Any, Any]
