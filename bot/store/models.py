"""Plain records the store takes and returns: ids are ints, times are aware UTC datetimes."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from engine.contract import Outcome as EngineOutcome

from .errors import InvalidRequest


class GameStatus(StrEnum):
    """Lifecycle of a game: only active games take actions and hold their thread."""

    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


#: The levels a game's computer seats may play (the CHECK of migration 0015).
COMPUTER_LEVELS = ("easy", "normal", "strong")
#: The languages a game or a server may choose (the CHECK of migration 0011).
LANGUAGES = ("en", "fr", "it", "pl")

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


def check_int64(name: str, value: int) -> None:
    """InvalidRequest unless ``value`` fits a signed 64-bit column."""
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise InvalidRequest(f"{name} {value} does not fit in a signed 64-bit integer")


def check_language(language: str | None) -> None:
    """InvalidRequest unless ``language`` is None or one the bot speaks."""
    if language is not None and language not in LANGUAGES:
        raise InvalidRequest(f"language {language!r} is not one of {', '.join(LANGUAGES)}")


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one bot process serves: ``ids`` out of ``count``.

    A guild belongs to shard ``(guild_id >> 22) % count`` (Discord's rule); a process only
    takes the games and leagues of its own shards' guilds.
    """

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {sorted(self.ids)} out of 0..{self.count - 1}")

    @property
    def everything(self) -> bool:
        """Whether every shard is served here (no filter needed)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        """Whether the guild's events arrive at this process."""
        return (guild_id >> 22) % self.count in self.ids


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat to create: engine seat index, Discord user, the name given to the engine, colour."""

    seat: int
    user_id: int
    player: str
    colour: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSettings:
    """What a game is set up with beside its seats and rules, as the store records it.

    Built once (by the lobby, a league's table, the web demo) and passed as it is through the
    service to the store. The defaults are the columns' defaults: a game with
    ``GameSettings()`` stores what a game created before these settings stored.
    """

    turn_deadline: int | None = None  # seconds a player has for a turn; None: no deadline
    computer_takeover: bool = False  # at a turn's deadline the computer takes the seat over
    language: str | None = None  # en, fr, it or pl; None: the server's locale
    computer_level: str = "normal"  # the computer seats' level (``COMPUTER_LEVELS``)
    coach: bool = False  # the players may ask for hints and, at the end, turning points
    time_bank: int | None = None  # seconds each player's bank starts with; None: no bank
    time_increment: int = 0  # seconds a bank gains when its player's turn begins

    def __post_init__(self) -> None:
        if self.computer_level not in COMPUTER_LEVELS:
            raise InvalidRequest(f"level {self.computer_level!r} is not one of {COMPUTER_LEVELS}")
        if self.turn_deadline is not None and self.turn_deadline <= 0:
            raise InvalidRequest(f"a turn deadline must be positive, not {self.turn_deadline}")
        bank, increment = self.time_bank, self.time_increment
        if (bank is not None and bank <= 0) or increment < 0:
            raise InvalidRequest(f"a time bank must be positive, not {bank}+{increment}")
        check_int64("time_bank", bank or 0)
        check_int64("time_increment", increment)
        check_language(self.language)

    @property
    def stored_increment(self) -> int:
        """The increment the game records: none without a bank."""
        return self.time_increment if self.time_bank is not None else 0


#: The settings of a game set up with none chosen (every column's default).
DEFAULT_SETTINGS = GameSettings()


@dataclass(frozen=True, slots=True)
class Seat:
    """A stored seat, with its final result once the game is finished."""

    seat: int
    user_id: int
    player: str
    colour: str
    final_score: int | None = None
    final_rank: int | None = None
    winner: bool | None = None
    score_lines: Mapping[str, int] | None = None
    stand_in: str | None = None  # "away" or "resigned": the computer plays for the player


@dataclass(frozen=True, slots=True)
class Game:
    """A stored game: its row, seats and snapshot (the engine's ``to_json`` text)."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int
    game_key: str
    options: dict[str, Any] | None
    seed: int
    status: GameStatus
    version: int
    action_count: int
    current_seat: int | None
    end_reason: str | None
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    seats: tuple[Seat, ...]
    snapshot: str = field(repr=False)
    announced_version: int = 0
    turn_deadline: int | None = None  # seconds a player has for a turn; None: no deadline
    computer_takeover: bool = False  # at a turn's deadline the computer takes the seat over
    language: str | None = None  # en, fr, it or pl; None (older games): the server's locale
    computer_level: str = "normal"  # the computer seats' level (``COMPUTER_LEVELS``)
    coach: bool = False  # the players may ask for hints and, at the end, turning points
    time_bank: int | None = None  # seconds each player's bank starts with (and holds at most)
    time_increment: int = 0  # seconds a player's bank gains when their turn begins
    #: (user id, vacation until) of its seated users with a vacation set, read with the game
    #: (UTC unix seconds); None when not read with it (ask ``vacationers``). Not the game's
    #: own data (the users' settings): equal games compare equal whether it was read or not.
    vacations: tuple[tuple[int, int], ...] | None = field(default=None, compare=False)

    @property
    def players(self) -> list[str]:
        """The player names in seat order, as given to the engine."""
        return [s.player for s in self.seats]

    @property
    def current_user_id(self) -> int | None:
        """The user whose turn it is, or None when nobody is to act."""
        return self.user_of(self.current_seat)

    def user_of(self, seat: int | None) -> int | None:
        """The user sitting in ``seat`` (None for None or an unknown seat)."""
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        return None

    def stand_in_of(self, seat: int) -> str | None:
        """The stored stand-in of a seat ("away", "resigned" or None)."""
        return next((s.stand_in for s in self.seats if s.seat == seat), None)

    def seats_of(self, user_id: int) -> list[int]:
        """The seats a user holds in this game (usually zero or one)."""
        return [s.seat for s in self.seats if s.user_id == user_id]


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A player's settings (the defaults for a user without a stored row)."""

    user_id: int
    notify: str = "ping"  # ping, dm, both or none
    time_zone: str | None = None  # IANA name
    quiet_start: int | None = None  # hour of the day, in time_zone
    quiet_end: int | None = None
    vacation_until: int | None = None  # UTC unix seconds: on vacation until then


@dataclass(frozen=True, slots=True)
class Reminder:
    """One scheduled reminder: to ``user_id`` (``seat``) for ``turn`` of a game, due at a time.

    Times are UTC unix seconds; ``deadline_at`` is the deadline of the turn it belongs to.
    """

    id: int
    game_id: int
    turn: str
    seat: int
    user_id: int
    kind: str
    due_at: int
    deadline_at: int
    claimed_until: int | None = None
    sent_at: int | None = None
    cancelled_at: int | None = None
    claims: int = 0  # how many times it was claimed (more than once: it may have been sent)


@dataclass(frozen=True, slots=True)
class BankTurn:
    """One turn of a game with a time bank (migration 0016): when it began, the seconds it had
    (the seat's bank then, increment included) and when it ended (None: being played)."""

    turn: str
    seat: int
    started_at: int
    available: int
    ended_at: int | None = None

    def left(self, now: int) -> int:
        """The seat's bank after this turn (at ``now`` while it is being played), at least 0."""
        end = now if self.ended_at is None else self.ended_at
        return max(0, self.available - max(0, end - self.started_at))


@dataclass(frozen=True, slots=True)
class AwaySeat:
    """A seat the computer plays until its player comes back (``/back``)."""

    game_id: int
    thread_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class OwedPicture:
    """A turn message posted before its picture (migration 0014): the picture still owed."""

    game_id: int
    message_id: int
    version: int


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of the action log."""

    seq: int
    seat: int
    notation: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One seat of a user in a game of any status, for a player's record (``/profile``)."""

    game_id: int
    game_key: str
    status: str
    seat: int
    stand_in: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ActiveGame:
    """One active game of a user, for a "my games" list."""

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int
    game_key: str
    version: int
    current_seat: int | None
    current_user_id: int | None
    my_seats: tuple[int, ...]
    updated_at: datetime

    @property
    def my_turn(self) -> bool:
        """True when one of the user's seats is to act."""
        return self.current_seat is not None and self.current_seat in self.my_seats


@dataclass(frozen=True, slots=True)
class StoredSeatResult:
    """The final result of one seat."""

    seat: int
    score: int
    rank: int
    winner: bool
    lines: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StoredOutcome:
    """How a game ended: a reason and one result per seat."""

    end_reason: str
    results: tuple[StoredSeatResult, ...]

    @classmethod
    def from_engine(cls, outcome: EngineOutcome) -> StoredOutcome:
        """Build from the engine's typed ``match.outcome``."""
        results = tuple(
            StoredSeatResult(
                seat=r.seat,
                score=r.score,
                rank=r.rank,
                winner=r.seat in outcome.winners,
                lines={line.label: line.points for line in r.lines},
            )
            for r in sorted(outcome.results, key=lambda r: r.seat)
        )
        return cls(
            end_reason=outcome.termination[0] if outcome.termination else "", results=results
        )

    def with_resigned_last(self, resigned: Collection[int]) -> StoredOutcome:
        """The outcome with resigned seats ranked last; the winners are the new first ranks."""
        if not resigned:
            return self
        ranks = resigned_last({r.seat: r.rank for r in self.results}, resigned)
        results = tuple(
            StoredSeatResult(r.seat, r.score, ranks[r.seat], ranks[r.seat] == 1, r.lines)
            for r in self.results
        )
        return StoredOutcome(self.end_reason, results)


def resigned_last(ranks: Mapping[int, int], resigned: Collection[int]) -> dict[int, int]:
    """Ranks (seat -> rank, 1 the best) with resigned seats after all the others.

    Each group keeps its order (and its ties): a resigner ranks last whatever the score.
    """

    def ranked(seats: list[int]) -> dict[int, int]:
        return {s: 1 + sum(1 for o in seats if ranks[o] < ranks[s]) for s in seats}

    playing = ranked([s for s in ranks if s not in resigned])
    gone = ranked([s for s in ranks if s in resigned])
    return playing | {s: len(playing) + r for s, r in gone.items()}


class MatchLike(Protocol):
    """What the store reads from an engine match (``engine.games`` objects satisfy it)."""

    @property
    def current_seat(self) -> int | None:
        """Seat to act, or None when the game is over."""
        ...

    @property
    def log(self) -> Sequence[tuple[int, str]]:
        """Every applied (seat, notation), in order."""
        ...

    @property
    def outcome(self) -> EngineOutcome | None:
        """None while running, else the engine's typed outcome."""
        ...

    def to_json(self) -> str:
        """The full state as canonical JSON text."""
        ...


@dataclass(frozen=True, slots=True)
class NewLeague:
    """A league to create (its season's settings; times are UTC unix seconds)."""

    guild_id: int
    channel_id: int
    name: str
    game_key: str
    rounds: int
    table_size: int
    pairing: str  # "swiss" or "round-robin"
    turn_deadline: int | None
    points: str  # place points, e.g. "3,2,1,0"
    organiser_role: int | None
    creator_id: int


@dataclass(frozen=True, slots=True)
class League:
    """A stored league: its settings, where its season stands."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    game_key: str
    rounds: int
    table_size: int
    pairing: str
    turn_deadline: int | None
    points: str
    organiser_role: int | None
    creator_id: int
    status: str  # "signup", "running" or "finished"
    current_round: int
    posted_round: int


@dataclass(frozen=True, slots=True)
class LeaguePlayer:
    """A player signed up to a league (``withdrawn_round``: the round they withdrew in)."""

    user_id: int
    name: str
    joined: int
    withdrawn_round: int | None = None


@dataclass(frozen=True, slots=True)
class LeagueTable:
    """One table of a league round: its players by seat and the game opened for it."""

    round: int
    table_no: int
    user_ids: tuple[int, ...]
    forfeited: tuple[int, ...] = ()
    message_id: int | None = None
    thread_id: int | None = None
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one game on one server (openskill mu and sigma)."""

    user_id: int
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after one rated game."""

    game_id: int
    user_id: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A player waiting in a server's queue for a game (``/queue join``), times in UTC unix
    seconds: ``fewest`` to ``most`` players accepted, the channel they joined in."""

    guild_id: int
    user_id: int
    game_key: str
    name: str
    fewest: int
    most: int
    channel_id: int
    joined_at: int
    expires_at: int


@dataclass(frozen=True, slots=True)
class QueueMatch:
    """A group the queue matched: its players (user id, name) in seat order, the channel its
    game opens in, and what was done of it so far (message, thread, game)."""

    id: int
    guild_id: int
    channel_id: int
    game_key: str
    players: tuple[tuple[int, str], ...]
    language: str | None
    created_at: int
    message_id: int | None = None
    thread_id: int | None = None
    game_id: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenLobby:
    """A lobby open in a server, as ``/games`` lists it: its message, game, seats and joined
    players, whether computers fill the rest, its clock (deadline hours, or a time bank and
    increment in hours) and language; ``opened_at``: when it was first listed."""

    message_id: int
    guild_id: int
    channel_id: int
    game_key: str
    seats: int
    players: int
    computers: bool
    deadline_hours: int
    bank_hours: int | None
    increment_hours: int | None
    language: str | None
    opened_at: int
