"""Plain results of the game service: no discord types, ready to present in any locale."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.contract import Event

from .pictures import PictureOrder

#: Where a turn stands in a game: (round, seat to act). Two turns may share it (a game may let
#: a seat act twice in a round); ``TurnId`` tells them apart.
TurnKey = tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class TurnId:
    """One turn of a game: its round, the seat to act, and ``start``, how many actions of the
    log were played before it began, which no other turn of the game shares."""

    round: int
    seat: int
    start: int

    @property
    def key(self) -> TurnKey:
        """(round, seat): what the turn panel's button carries."""
        return (self.round, self.seat)

    @property
    def text(self) -> str:
        """``round.seat.start``: the turn's key in the store and in deadline buttons."""
        return f"{self.round}.{self.seat}.{self.start}"

    @property
    def old_text(self) -> str:
        """``round.seat``: the key of turns scheduled before migration 0012."""
        return f"{self.round}.{self.seat}"


#: The user id stored for seats played by the computer (Discord ids are never 0).
COMPUTER_USER_ID = 0


@dataclass(frozen=True, kw_only=True)
class PlayerInfo:
    """One seat: its engine name and its Discord user (None for a computer player)."""

    seat: int
    name: str
    user_id: int | None
    colour: str
    stand_in: str | None = None  # "away", "vacation" or "resigned": the computer plays for them

    @property
    def computer(self) -> bool:
        """Whether the computer plays this seat now (a computer seat, or for an absent player)."""
        return self.user_id is None or self.stand_in is not None


@dataclass(frozen=True, kw_only=True)
class FinalScore:
    """A seat's final result."""

    seat: int
    name: str
    user_id: int | None
    total: int
    rank: int
    lines: dict[str, int]
    resigned: bool = False  # the player resigned (or withdrew): the computer finished the seat


@dataclass(frozen=True, kw_only=True)
class FinalResult:
    """How a game ended: every seat's score, best first."""

    scores: tuple[FinalScore, ...]
    tie_broken: bool = False  # the top totals tie and the game's tie-break chose the winner

    @property
    def winner(self) -> FinalScore:
        """The first-ranked seat."""
        return self.scores[0]


@dataclass(frozen=True, kw_only=True)
class TurnReport:
    """One completed turn, for the thread: who played what, the picture, who is next."""

    game_id: int
    game: str  # the registry key: whose presentation and catalog keys
    thread_id: int
    version: int
    player: PlayerInfo
    round: int
    actions: tuple[str, ...]
    events: tuple[Event, ...]
    players: tuple[PlayerInfo, ...]
    picture: bytes | None  # None: drawn after the message is posted (``picture_order``)
    next_player: PlayerInfo | None
    final: FinalResult | None = None
    next_turn: TurnId | None = None
    skipped: bool = False  # a computer played this turn for the player (deadline or stand-in)
    earlier: tuple[TurnRecord, ...] = ()  # computer turns played just before, in this message
    channel_id: int | None = None  # the channel of the game's lobby (its result is said there)
    language: str | None = None  # of the game's public messages; None: the server's locale
    picture_order: PictureOrder | None = None  # what the picture is drawn from, when owed
    # the turn card's picture for a phone: the turn's places on the turn picture, for all to read
    card_order: PictureOrder | None = None


@dataclass(frozen=True, kw_only=True)
class PlayResult:
    """Actions applied and saved for a player: the new state as they see it."""

    game_id: int
    thread_id: int
    version: int
    actions: tuple[str, ...]
    events: tuple[Event, ...]
    picture: bytes | None  # drawn by nobody since D100: the picture follows (``picture_order``)
    step: str | None
    game: str  # the registry key: whose words say the events
    names: tuple[str, ...]  # the seats' names, as the events' words name them
    turn: TurnReport | None = None
    computers_next: bool = False
    picture_order: PictureOrder | None = None  # the player's view mid-turn; None: turn ended


@dataclass(frozen=True, kw_only=True)
class PlayPreview:
    """A sequence applied to a copy only: what it would do, nothing saved."""

    game_id: int
    game: str  # the registry key: whose presentation and catalog keys
    thread_id: int
    version: int
    text: str
    actions: tuple[str, ...]
    events: tuple[Event, ...]
    picture: bytes
    players: tuple[PlayerInfo, ...]
    ends_turn: bool


@dataclass(frozen=True, kw_only=True)
class UndoResult:
    """The action taken back and the board after it."""

    game_id: int
    version: int
    undone: str
    picture: bytes | None  # drawn by nobody since D100: the picture follows (``picture_order``)
    step: str | None
    picture_order: PictureOrder | None = None  # the player's view after the undo
    game: str = ""  # the game's key, and the player's view after the undo, in which the
    view: Mapping[str, Any] | None = None  # action taken back is a choice again (its words)


@dataclass(frozen=True, kw_only=True)
class BoardResult:
    """The current picture of a game and who is to act."""

    game_id: int
    version: int
    picture: bytes
    round: int
    current: PlayerInfo | None
    step: str | None
    over: bool
    counts: str = "round"  # what ``round`` counts: "round" or "turn" (D83)
    ended: Ended | None = None  # how the bot ended it (a resignation, an abandon), if it did


@dataclass(frozen=True, kw_only=True)
class TurnRecord:
    """One turn of the log, replayed: the actions and the events they caused."""

    seat: int
    round: int
    actions: tuple[str, ...]
    events: tuple[Event, ...]
    complete: bool
    by_computer: bool = False  # a computer played it for the player (deadline or stand-in)


@dataclass(frozen=True, kw_only=True)
class SinceLastTurn:
    """The others' complete turns since a seat's previous one, oldest first; ``first_turn``: the
    seat has had none, so they are the turns since the game began."""

    turns: tuple[TurnRecord, ...]
    first_turn: bool


@dataclass(frozen=True, kw_only=True)
class Pace:
    """Median seconds to move: per seat (None before its first complete turn) and overall."""

    seats: tuple[float | None, ...]
    game: float | None


@dataclass(frozen=True, kw_only=True)
class Profile:
    """A player's record on a server (``/profile``): how their games ended, how fast they
    move (median seconds per turn, None before any), over their ``counted`` newest games."""

    finished: int
    abandoned: int
    resigned: int
    playing: int
    median_move: float | None
    counted: int


@dataclass(frozen=True, kw_only=True)
class HistoryResult:
    """The most recent turns of a game, and its pace over all turns."""

    game_id: int
    game: str  # the registry key: whose presentation and catalog keys
    players: tuple[PlayerInfo, ...]
    turns: tuple[TurnRecord, ...]
    pace: Pace | None = None
    banks: tuple[int | None, ...] | None = None  # each seat's time bank in seconds (humans)


@dataclass(frozen=True, kw_only=True)
class SkipVote:
    """A deadline vote (skip the turn, or hand the seat to the computer): the votes so far for
    that choice and how many are needed.

    For a skip, ``turn`` is set once the majority was reached and the computer played the turn;
    for a hand-over, ``handed`` is the player whose seat the computer now plays, and
    ``announce`` is True for the one vote that handed it over (simultaneous or later votes
    find it done).
    """

    game_id: int
    votes: int
    needed: int
    turn: TurnReport | None = None
    computers_next: bool = False
    choice: str = "skip"
    handed: PlayerInfo | None = None
    thread_id: int = 0
    announce: bool = False  # this vote handed the seat over: the thread is told (once)


@dataclass(frozen=True, kw_only=True)
class GameListing:
    """One of a user's active games."""

    game_id: int
    thread_id: int
    game_key: str
    my_turn: bool
    current_user_id: int | None
    deadline: int | None = None  # the current turn's deadline, UTC unix seconds
    stand_in: str | None = None  # why the computer plays the user's seat: away, vacation...
    bank: int | None = None  # the user's time bank in seconds, in a game with one


@dataclass(frozen=True, kw_only=True)
class Category:
    """A group of legal actions in the turn panel (e.g. ``place:clay``)."""

    key: str
    count: int


@dataclass(frozen=True, kw_only=True)
class PanelState:
    """The turn panel: step, action groups, the chosen group's actions (one page), picture."""

    game_id: int
    game: str  # the registry key: whose presentation and catalog keys
    version: int
    step: str
    player: PlayerInfo
    categories: tuple[Category, ...]
    category: str
    page: int
    pages: int
    actions: tuple[str, ...]
    can_undo: bool
    picture: bytes | None = None
    prefix: str = ""  # the stage of a large group the actions are under ("collect A2")
    end: str | None = None  # the action that ends the turn, shown as a button
    view: Mapping[str, Any] | None = None  # the player's own view (labels, focus picture)
    coach: bool = False  # the game has a coach: the panel offers a hint
    picture_order: PictureOrder | None = None  # what ``picture`` is drawn from (drawn or not)
    since: tuple[TurnRecord, ...] = ()  # the others' turns since the player's last one
    first_turn: bool = False  # the player has had no turn: ``since`` is since the game began
    players: tuple[PlayerInfo, ...] = ()  # by seat (their names in a reader's language)
    timed: bool = False  # a fixed turn deadline (no time bank): the player may ask for more


@dataclass(frozen=True, kw_only=True)
class Created:
    """A new game saved: its id, seats, opening picture and who starts."""

    game_id: int
    game: str  # the registry key
    thread_id: int
    version: int
    players: tuple[PlayerInfo, ...]
    picture: bytes
    first: PlayerInfo
    computers_next: bool
    turn: TurnId | None = None
    language: str | None = None  # of the game's public messages; None: the server's locale


@dataclass(frozen=True, kw_only=True)
class Resigned:
    """A player's resignation: the computer plays their seat to the end, or the game ended.

    ``ended``: the game is over (its last message is owed to the thread: a win for ``winner``
    when one other seat was left, human or computer, or no winner when none was); else it
    goes on and ``computers_next`` says the computer is to act now.
    """

    game_id: int
    thread_id: int
    player: PlayerInfo
    ended: bool = False
    winner: PlayerInfo | None = None
    computers_next: bool = False


@dataclass(frozen=True, kw_only=True)
class Back:
    """Seats given back to their player by ``/back``: (game id, thread id) per game."""

    games: tuple[tuple[int, int], ...]
    computers_next: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Ended:
    """An abandoned game's last thread message: why it ended (and who resigned, if someone did)."""

    game_id: int
    thread_id: int
    version: int
    # "resigned" (no winner), "resigned_won" (the one seat left won), "cancelled" (by the host,
    # before any move), "abandoned_by" (by the host or a moderator, ``by``) or "abandoned"
    reason: str
    player: PlayerInfo | None = None  # who resigned
    winner: PlayerInfo | None = None  # who won: the one seat a resignation left
    by: int | None = None  # the user who abandoned the game
    language: str | None = None  # of the game's public messages; None: the server's locale
    channel_id: int | None = None  # the lobby's channel (its message is the thread's start)
    game: str = ""  # the game's key
