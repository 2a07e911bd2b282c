"""A game record as data and as JSON: the dataclasses and a strict reader (docs/records.md)."""

from __future__ import annotations

import json
import reprlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NoReturn, NotRequired, TypedDict, TypeGuard, TypeVar, cast

from engine.contract import GameRules, JsonValue, Options, Outcome
from engine.errors import EngineError
from engine.games import GAMES, MAX_ACTION_TEXT, MAX_NAME, rules_for
from engine.players import LEVELS

FORMAT = "himiko-record"
VERSION = 1
FULL = "full"
SPECTATOR = "spectator"
KINDS = (FULL, SPECTATOR)

T = TypeVar("T")
#: A JSON object as the strict reader gives it.
JsonObject = dict[str, JsonValue]

#: The top-level fields: required ones, then those that may be left out (read as null).
REQUIRED = ("format", "version", "kind", "game", "options", "players", "actions", "result")
OPTIONAL = ("seed", "language", "ended")
PLAYER_FIELDS = ("seat", "name", "computer", "level")
ACTION_FIELDS = ("number", "seat", "action", "time", "scores")
RESULT_FIELDS = ("seats", "winners", "termination", "tie_broken", "rounds")
RESULT_SEAT_FIELDS = ("seat", "name", "score", "rank", "lines")
#: No record comes near this size (a whole game's is tens of KB): a larger file is not read.
MAX_BYTES = 4 * 2**20
#: No number of a record has more digits (a seed is a 62-bit number: 19 digits).
MAX_DIGITS = 40
#: No record nests deeper (the result's seats' lines are at depth 5).
MAX_DEPTH = 16


class RecordError(ValueError):
    """A document that is not a valid record; the message names the field and what is wrong."""


class PlayerData(TypedDict):
    """A seat as the record's JSON writes it (``players``)."""

    seat: int
    name: str
    computer: bool
    level: str | None


class ActionData(TypedDict):
    """An action as the record's JSON writes it (``actions``)."""

    number: int
    seat: int
    action: str
    time: str
    scores: list[int]


class SeatData(TypedDict):
    """A seat's result as the record's JSON writes it (``result.seats``)."""

    seat: int
    name: str
    score: int
    rank: int
    lines: dict[str, int]


class ResultData(TypedDict):
    """The engine's outcome as the record's JSON writes it (``result``)."""

    seats: list[SeatData]
    winners: list[int]
    termination: list[str]
    tie_broken: bool
    rounds: int | None


class HeaderData(TypedDict):
    """The record's setup as its JSON writes it, before the actions (``seed``: a full record's
    only)."""

    format: str
    version: int
    kind: str
    game: str
    options: Options
    seed: NotRequired[int | None]
    language: str | None
    players: list[PlayerData]


class RecordData(HeaderData):
    """The whole record as its JSON writes it: the setup, the actions, the result."""

    actions: list[ActionData]
    result: ResultData | None
    ended: str | None


@dataclass(frozen=True)
class Player:
    """A seat of the record: its name, and whether a computer played it (at which level)."""

    seat: int
    name: str
    computer: bool = False
    level: str | None = None  # easy, normal, strong or a computer player's name; None: unknown


@dataclass(frozen=True)
class Entry:
    """One action of the record: its number (1-based), seat, text, time and the public scores
    after it."""

    number: int
    seat: int
    action: str  # canonical notation (full record) or the public text (spectator record)
    time: str  # UTC, ISO 8601, ending in Z
    scores: tuple[int, ...]  # every seat's score as a spectator sees it, after the action


@dataclass(frozen=True)
class Record:
    """A game's record: setup, every action with its time and seat, and the result."""

    kind: str  # FULL (with the seed) or SPECTATOR (no seed, public texts)
    game: str
    options: Options
    seed: int | None
    players: tuple[Player, ...]
    actions: tuple[Entry, ...]
    result: ResultData | None  # the engine's outcome (``result_of``); None while it runs
    language: str | None = None  # the game's language, for pictures (en, fr, it, pl)
    ended: str | None = None  # why the bot ended a game the rules had not (e.g. "abandoned")


def utc_text(moment: datetime) -> str:
    """A timezone-aware time as the record writes it: UTC, ISO 8601, ending in Z."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise RecordError(f"time {moment.isoformat()}: has no timezone (a UTC time is needed)")
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def result_of(outcome: Outcome | None) -> ResultData | None:
    """The engine's outcome as the record's ``result`` (None while the game runs)."""
    if outcome is None:
        return None
    return {
        "seats": [
            {
                "seat": r.seat,
                "name": r.name,
                "score": r.score,
                "rank": r.rank,
                "lines": {line.label: line.points for line in r.lines},
            }
            for r in outcome.results
        ],
        "winners": list(outcome.winners),
        "termination": list(outcome.termination),
        "tie_broken": outcome.tie_broken,
        "rounds": outcome.rounds,
    }


def header(record: Record) -> HeaderData:
    """The record's setup as JSON-ready data, fields in the documented order."""
    data: HeaderData = {
        "format": FORMAT,
        "version": VERSION,
        "kind": record.kind,
        "game": record.game,
        "options": dict(record.options),
        "seed": record.seed,
        "language": record.language,
        "players": [
            {"seat": p.seat, "name": p.name, "computer": p.computer, "level": p.level}
            for p in record.players
        ],
    }
    if record.kind != FULL:
        del data["seed"]  # a spectator record carries no seed
    return data


def action_data(entry: Entry) -> ActionData:
    """One action as JSON-ready data."""
    return {
        "number": entry.number,
        "seat": entry.seat,
        "action": entry.action,
        "time": entry.time,
        "scores": list(entry.scores),
    }


def to_dict(record: Record) -> RecordData:
    """The record as JSON-ready data, fields in the documented order."""
    return {
        **header(record),
        "actions": [action_data(e) for e in record.actions],
        "result": record.result,
        "ended": record.ended,
    }


def to_json(record: Record) -> str:
    """The record as JSON text (indented, one action per line, UTF-8 names kept)."""
    head = json.dumps(header(record), ensure_ascii=False, indent=1)[:-2]  # without the brace
    lines = [json.dumps(action_data(e), ensure_ascii=False) for e in record.actions]
    body = ",\n  ".join(lines)
    listed = f"[\n  {body}\n ]" if lines else "[]"
    result = json.dumps(record.result, ensure_ascii=False)
    tail = f' "result": {result},\n "ended": {json.dumps(record.ended)}'
    return f'{head},\n "actions": {listed},\n{tail}\n}}\n'


def from_bytes(data: bytes) -> Record:
    """The record in a file's bytes: UTF-8 JSON text of at most ``MAX_BYTES`` (a leading byte
    order mark, which some editors write, is read past); RecordError if it is not one."""
    if len(data) > MAX_BYTES:
        raise RecordError(f"the file is larger than {MAX_BYTES // 2**20} MB (no record is)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError(
            f"not UTF-8 text (byte {error.start} is {data[error.start]:#04x}): a record is "
            "written in UTF-8"
        ) from None
    return from_json(text)


def from_json(text: str) -> Record:
    """The record in a JSON text (RecordError saying which field is wrong if it is not one).

    Strict JSON: NaN and Infinity, a key written twice in one object and numbers of more than
    ``MAX_DIGITS`` digits are refused."""
    try:
        data = json.loads(
            text, parse_constant=_constant, parse_int=_integer, object_pairs_hook=_object
        )
    except RecursionError:
        raise RecordError(f"nested deeper than {MAX_DEPTH} levels (no record is)") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    return from_dict(data)


def from_dict(data: object) -> Record:
    """The record in JSON-ready data, checked strictly (RecordError naming the field)."""
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {_kind_of(data)}")
    _plain(data)  # before any part of it is shown in a message
    if data.get("format") != FORMAT:
        raise RecordError(f"format: {_shown(data.get('format'))} is not {FORMAT!r}")
    version = _get(data, "version", int, "")
    if version != VERSION:
        raise RecordError(f"version: unknown version {version} (this Himiko reads {VERSION})")
    _fields(data, REQUIRED, OPTIONAL, "")
    kind = _get(data, "kind", str, "")
    if kind not in KINDS:
        raise RecordError(f"kind: {_shown(kind)} is not one of {', '.join(KINDS)}")
    game = _get(data, "game", str, "")
    if game not in GAMES:
        raise RecordError(f"game: unknown game {_shown(game)} (known: {', '.join(sorted(GAMES))})")
    rules = rules_for(game)
    options = _options(rules, _get(data, "options", dict, ""))
    seed = _seed(data, kind)
    players = _players(rules, _get(data, "players", list, ""))
    actions = tuple(
        _entry(item, index, len(players))
        for index, item in enumerate(_get(data, "actions", list, ""))
    )
    return Record(
        kind=kind,
        game=game,
        options=options,
        seed=seed,
        players=players,
        actions=actions,
        result=_result(data["result"], len(players)),
        language=_optional_text(data, "language"),
        ended=_optional_text(data, "ended"),
    )


# -- reading JSON strictly ---------------------------------------------------------------------


def _constant(name: str) -> NoReturn:
    raise RecordError(f"not JSON: {name} is not a JSON number")


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise RecordError(
            f"a number of {len(digits.lstrip('-'))} digits (a record's have at most {MAX_DIGITS})"
        )
    return int(digits)


def _object(pairs: list[tuple[str, JsonValue]]) -> JsonObject:
    data: JsonObject = {}
    for key, value in pairs:
        if key in data:
            raise RecordError(f"not JSON: the key {_shown(key)} is written twice in one object")
        data[key] = value
    return data


def _plain(data: JsonObject) -> None:
    """Refuse data nested deeper than ``MAX_DEPTH`` or with a text that is not Unicode (a lone
    surrogate, which JSON's \\u escapes can write but no file or screen can hold)."""
    stack: list[tuple[JsonObject | list[JsonValue], tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, at = stack.pop()
        if len(at) > MAX_DEPTH:
            raise RecordError(f"{_where(at)}: nested deeper than {MAX_DEPTH} levels (no record is)")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        # An ASCII text is always Unicode: only the others are encoded to be sure (most of a
        # record's texts are ASCII, and this walk is most of reading one).
        for key, item in items:
            if isinstance(key, str) and not key.isascii():
                _unicode(key, (*at, key))
            if isinstance(item, str):
                if not item.isascii():
                    _unicode(item, (*at, key))
            elif isinstance(item, dict | list):
                stack.append((item, (*at, key)))


def _where(at: Sequence[str | int]) -> str:
    """A place in the data as messages name it: ``actions[3].time``."""
    text = ""
    for key in at:
        text += f"[{key}]" if isinstance(key, int) else f".{_name(key)}" if text else _name(key)
    return text


def _unicode(text: str, at: Sequence[str | int]) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = ord(text[error.start])
        raise RecordError(
            f"{_where(at)}: not Unicode text (a lone surrogate, \\u{bad:04x})"
        ) from None


def _name(key: str) -> str:
    """A key as an error message names it: as is if it is a plain word, else quoted and cut."""
    return key if key.isidentifier() and len(key) <= 40 else _shown(key)


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlevel = 2


def _shown(value: object) -> str:
    """A value as an error message shows it: quoted, cut short, no deeper than two levels."""
    return _REPR.repr(value)


# -- checking the parts ------------------------------------------------------------------------


def _kind_of(value: object) -> str:
    """A JSON value's type in JSON's words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


_WORDS: dict[type, str] = {
    int: "an integer",
    str: "a string",
    bool: "a boolean",
    list: "an array",
    dict: "an object",
}


def _get(data: Mapping[str, object], key: str, kind: type[T], where: str) -> T:
    """The field ``key`` of ``data``, which must be there and of that JSON type."""
    if key not in data:
        raise RecordError(f"{where}{key}: missing")
    value = data[key]
    # JSON's true and false are not integers, whatever Python says.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}{key}: expected {_WORDS[kind]}, got {_kind_of(value)}")
    return value


def _fields(
    data: Mapping[str, object], required: Sequence[str], optional: Sequence[str], where: str
) -> None:
    """Refuse unknown fields and report the first missing one."""
    for key in data:
        if key not in required and key not in optional:
            raise RecordError(f"{where}{_name(key)}: unknown field")
    for key in required:
        if key not in data:
            raise RecordError(f"{where}{key}: missing")


def _options(rules: GameRules, options: Mapping[str, object]) -> Options:
    try:
        return rules.normalize_options(options)
    except EngineError as error:
        raise RecordError(f"options: {error}") from None


def _seed(data: Mapping[str, object], kind: str) -> int | None:
    if kind == SPECTATOR:
        if "seed" in data:
            raise RecordError("seed: a spectator record carries no seed")
        return None
    return int(_get(data, "seed", int, ""))


def _optional_text(data: Mapping[str, object], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise RecordError(f"{key}: expected a string or null, got {_kind_of(value)}")
    return value


def _players(rules: GameRules, items: list[object]) -> tuple[Player, ...]:
    if not rules.min_players <= len(items) <= rules.max_players:
        raise RecordError(
            f"players: {rules.key} is played by {rules.min_players} to {rules.max_players}, "
            f"not {len(items)}"
        )
    players = []
    for index, item in enumerate(items):
        where = f"players[{index}]."
        if not isinstance(item, dict):
            raise RecordError(f"players[{index}]: expected an object, got {_kind_of(item)}")
        _fields(item, PLAYER_FIELDS, (), where)
        if _get(item, "seat", int, where) != index:
            raise RecordError(f"{where}seat: {item['seat']} where seat {index} was expected")
        name = _get(item, "name", str, where)
        if not name.strip() or len(name) > MAX_NAME:
            raise RecordError(f"{where}name: empty or longer than {MAX_NAME} characters")
        computer = _get(item, "computer", bool, where)
        level = item["level"]
        known = (*LEVELS, *rules.players)
        if level is not None and (not computer or level not in known):
            raise RecordError(
                f"{where}level: {_shown(level)} is not a computer level "
                f"({', '.join(known)}; null for a person or an unknown level)"
            )
        players.append(Player(index, name, computer, level))
    return tuple(players)


def _entry(item: object, index: int, seats: int) -> Entry:
    where = f"actions[{index}]."
    if not isinstance(item, dict):
        raise RecordError(f"actions[{index}]: expected an object, got {_kind_of(item)}")
    _fields(item, ACTION_FIELDS, (), where)
    number = _get(item, "number", int, where)
    if number != index + 1:
        raise RecordError(f"{where}number: {number} where {index + 1} was expected")
    seat = _get(item, "seat", int, where)
    if not 0 <= seat < seats:
        raise RecordError(f"{where}seat: {seat} is not a seat (0 to {seats - 1})")
    action = _get(item, "action", str, where)
    if not action.strip() or len(action) > MAX_ACTION_TEXT:
        raise RecordError(f"{where}action: empty or longer than {MAX_ACTION_TEXT} characters")
    return Entry(number, seat, action, _time(item, where), _scores(item, where, seats))


def _time(item: Mapping[str, object], where: str) -> str:
    text = _get(item, "time", str, where)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise RecordError(f"{where}time: {_shown(text)} is not an ISO 8601 time") from None
    if moment.tzinfo is None or moment.utcoffset() != UTC.utcoffset(None):
        raise RecordError(f"{where}time: {_shown(text)} is not in UTC (write it with Z)")
    return utc_text(moment)


def _scores(item: Mapping[str, object], where: str, seats: int) -> tuple[int, ...]:
    scores = _get(item, "scores", list, where)
    if len(scores) != seats or not all(_is_int(s) for s in scores):
        raise RecordError(f"{where}scores: expected {seats} integers, one per seat")
    return tuple(scores)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _result(value: object, seats: int) -> ResultData | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError(f"result: expected an object or null, got {_kind_of(value)}")
    _fields(value, RESULT_FIELDS, (), "result.")
    listed = _get(value, "seats", list, "result.")
    if len(listed) != seats:
        raise RecordError(f"result.seats: {len(listed)} results for {seats} seats")
    for index, seat in enumerate(listed):
        _result_seat(seat, index)
    _ints(_get(value, "winners", list, "result."), "result.winners", lambda s: 0 <= s < seats)
    termination = _get(value, "termination", list, "result.")
    if not all(isinstance(t, str) for t in termination):
        raise RecordError("result.termination: expected an array of strings")
    _get(value, "tie_broken", bool, "result.")
    rounds = value["rounds"]
    if rounds is not None and not _is_int(rounds):
        raise RecordError(f"result.rounds: expected an integer or null, got {_kind_of(rounds)}")
    return cast(ResultData, value)  # every field checked above


def _result_seat(item: object, index: int) -> None:
    where = f"result.seats[{index}]."
    if not isinstance(item, dict):
        raise RecordError(f"result.seats[{index}]: expected an object, got {_kind_of(item)}")
    _fields(item, RESULT_SEAT_FIELDS, (), where)
    if _get(item, "seat", int, where) != index:
        raise RecordError(f"{where}seat: {item['seat']} where seat {index} was expected")
    _get(item, "name", str, where)
    _get(item, "score", int, where)
    _get(item, "rank", int, where)
    lines = _get(item, "lines", dict, where)
    if not all(_is_int(points) for points in lines.values()):
        raise RecordError(f"{where}lines: expected integer points for every line")


def _ints(values: list[object], where: str, good: Callable[[int], bool]) -> None:
    if not all(_is_int(v) and good(v) for v in values):
        raise RecordError(f"{where}: expected seat numbers")
