"""Records and the engine: build one from a game's log, replay it, check it, pick recap moments."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.contract import Event, GameRules, Milestones, Outcome, TurnInfo, View
from engine.errors import EngineError
from engine.games import Match, new, rules_for
from engine.record.document import (
    FULL,
    KINDS,
    SPECTATOR,
    Entry,
    Player,
    Record,
    RecordError,
    result_of,
    utc_text,
)

#: With at least this many rounds a recap shows one frame per round, else one per turn.
ROUNDS_FOR_FRAMES = 8
SEVERAL = "holds several actions (one per entry)"
#: A word of an action's text (a label such as B07, #07, M3, a number or a word) and what a
#: spectator record writes for one the rules keep hidden.
WORD = re.compile(r"[\w#]+")
HIDDEN = "(hidden)"


class RecordMismatch(Exception):
    """A record that does not replay to what it says: ``number`` is the first action found
    wrong (1-based; None when it is the ``part`` named instead: the result or the setup) and
    ``action`` its text."""

    def __init__(
        self, number: int | None, action: str | None, reason: str, part: str = "result"
    ) -> None:
        where = f"action {number} ({action})" if number is not None else part
        super().__init__(f"{where}: {reason}")
        self.number = number
        self.action = action
        self.reason = reason


@dataclass(frozen=True)
class Played:
    """One action of a game's log as the bot stores it: seat, notation and time."""

    seat: int
    action: str
    time: datetime


@dataclass(frozen=True)
class Step:
    """The game after one action of a replay (number 0: the setup, before any action)."""

    number: int
    seat: int | None  # who acted; None at the setup
    action: str  # the canonical text; "" at the setup
    public: str  # the text as the other seats read it; "" at the setup
    events: tuple[Event, ...]
    state: object  # the rules' state after the action (a copy of its own)
    rules: GameRules

    def view(self) -> View:
        """What a spectator sees now (``version``: the number of actions played)."""
        return {**self.rules.view(self.state, None, None), "version": self.number}

    @property
    def turn_info(self) -> TurnInfo:
        """Whose action comes next, the round and the step."""
        return self.rules.turn_info(self.state)

    @property
    def milestones(self) -> Milestones:
        """Whether this action ended a turn, started a round or ended the game."""
        return self.rules.milestones(list(self.events))

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over."""
        return self.rules.outcome(self.state)


@dataclass(frozen=True)
class Checked:
    """What ``check`` verified: the game, how many actions, and whether it replayed them."""

    game: str
    actions: int
    kind: str
    replayed: bool  # False: a spectator record checked on its own (no seed, no replay)
    over: bool  # the record has a result


@dataclass(frozen=True)
class Moment:
    """A recap frame: a spectator view, and what it shows (the setup, a round's start, a
    turn's end, the end) with the round's or turn's number (0 for the setup and the end)."""

    view: View
    kind: str  # "start", "round", "turn" or "end"
    number: int


def public_scores(view: View) -> tuple[int, ...]:
    """Each seat's score as the view shows it (a number, or an object with its ``total``)."""
    scores = []
    for player in view["players"]:
        score = player["score"]
        scores.append(int(score["total"] if isinstance(score, Mapping) else score))
    return tuple(scores)


def build(
    game: str,
    options: Mapping[str, object] | None,
    seed: int,
    players: Sequence[str],
    actions: Sequence[Played],
    result: Outcome | None,
    *,
    computers: Mapping[int, str | None] | None = None,
    language: str | None = None,
    ended: str | None = None,
    kind: str = FULL,
) -> Record:
    """A game's record from its setup, log (seat, text, time) and the result it reached.

    ``computers`` maps the seats a computer played to its level (None: unknown). A spectator
    record (``kind``) leaves the seed out and writes each action as others read it. The log is
    replayed to write canonical texts and the public scores (RecordMismatch if it does not
    replay)."""
    if kind not in KINDS:
        raise RecordError(f"kind: {kind!r} is not one of {', '.join(KINDS)}")
    match = _start(game, players, seed, options)
    entries = []
    for number, played in enumerate(actions, 1):
        _public(match, number, played.action)  # one action per entry
        canonical, _ = _play(match, number, played.seat, played.action)
        scores = public_scores(match.view(None))
        entries.append(Entry(number, played.seat, canonical, utc_text(played.time), scores))
    seats = tuple(
        Player(seat, name, seat in (computers or {}), (computers or {}).get(seat))
        for seat, name in enumerate(match.players)
    )
    record = Record(
        kind=FULL,
        game=match.game_key,
        options=dict(match.options),
        seed=seed,
        players=seats,
        actions=tuple(entries),
        result=result_of(result),
        language=language,
        ended=ended,
    )
    return record if kind == FULL else spectator_of(record)


def spectator_of(record: Record) -> Record:
    """The spectator record of a full one: no seed, every action as the others read it, and
    no word that the rules keep from spectators at its last action (``spectator_texts``)."""
    steps = replay(record)
    texts = spectator_texts(steps)
    entries = tuple(
        Entry(e.number, e.seat, text, e.time, e.scores)
        for e, text in zip(record.actions, texts, strict=True)
    )
    return Record(
        SPECTATOR,
        record.game,
        dict(record.options),
        None,
        record.players,
        entries,
        record.result,
        record.language,
        record.ended,
    )


def spectator_texts(steps: Sequence[Step]) -> list[str]:
    """The public text of every action of a replay, as a spectator may read it after its last
    step: a word that is now one of ``Rules.secrets`` (a tile seen when reserved, built face down
    since) is written ``HIDDEN``. Once the game is over the rules reveal what they hid."""
    texts = [step.public for step in steps[1:]]
    last = steps[-1]
    if last.rules.current_seat(last.state) is None:
        return texts
    secret = last.rules.secrets(last.state, None)

    def hide(word: re.Match[str]) -> str:
        return HIDDEN if word.group() in secret else word.group()

    return [WORD.sub(hide, text) for text in texts]


def replay(record: Record) -> list[Step]:
    """The game at its setup and after each action of a full record (RecordMismatch at the
    first action the engine refuses; RecordError for a spectator record: it has no seed)."""
    if record.kind != FULL or record.seed is None:
        raise RecordError(
            "a spectator record has no seed: it cannot be replayed (check it against the "
            "full record exported after the end)"
        )
    match = _start(record.game, [p.name for p in record.players], record.seed, record.options)
    rules = match.rules
    steps = [Step(0, None, "", "", (), rules.clone(match.state), rules)]
    for entry in record.actions:
        public = _public(match, entry.number, entry.action)
        canonical, events = _play(match, entry.number, entry.seat, entry.action)
        state = rules.clone(match.state)
        steps.append(Step(entry.number, entry.seat, canonical, public, events, state, rules))
    return steps


def check(record: Record, against: Record | None = None) -> Checked:
    """Verify a record: a full one replays to its texts, public scores and result; a
    spectator one is checked against ``against`` (the full record) if given, else only read.
    RecordMismatch names the first action found wrong."""
    if record.kind == SPECTATOR:
        if against is None:
            return Checked(record.game, len(record.actions), SPECTATOR, False, _over(record))
        _check_spectator(record, against)
        return Checked(record.game, len(record.actions), SPECTATOR, True, _over(record))
    checked_replay(record)
    return Checked(record.game, len(record.actions), FULL, True, _over(record))


def checked_replay(record: Record) -> list[Step]:
    """The replay of a full record that says what its replay computes: each action in the
    engine's notation with the public scores after it, and the result (RecordMismatch at the
    first difference, as ``check``)."""
    steps = replay(record)
    for entry, step in zip(record.actions, steps[1:], strict=True):
        if entry.action != step.action:
            _differs(entry, f"the engine writes it {step.action!r}")
        _same_scores(entry, entry.scores, public_scores(step.view()))
    _same_result(record, steps[-1])
    return steps


def recap_moments(steps: Sequence[Step]) -> list[Moment]:
    """The recap's frames of a replay: the setup, then each round's start (or each turn's end
    when the game has fewer than ``ROUNDS_FOR_FRAMES`` rounds) and the last step, the end once
    over. Each frame is numbered by the round or turn about to be played, as the picture's
    header shows it (``TurnInfo.round``); turns are counted 2, 3, ... when the game's
    ``TurnInfo.round`` does not count them (when it does, turn ends within one turn, such as
    a draft's picks, make one frame)."""
    last = steps[-1]
    by_round = sum(s.milestones.round_started is not None for s in steps) + 1 >= ROUNDS_FOR_FRAMES
    picked: list[tuple[Step, str, int]] = [(steps[0], "start", 0)]
    if by_round:
        picked += [(s, "round", s.milestones.round_started or 0) for s in steps[1:]]
        picked = [p for p in picked if p[1] == "start" or p[2]]
    else:
        picked += _turn_ends(steps)
    if picked[-1][0] is not last:  # a game stopped in the middle of a turn or a round
        if by_round:
            picked.append((last, "round", last.turn_info.round))
        else:
            picked.append((last, "turn", picked[-1][2] if len(picked) > 1 else 1))
    if last.outcome is not None:
        picked[-1] = (last, "end", 0)
    return [Moment(step.view(), kind, number) for step, kind, number in picked]


def _turn_ends(steps: Sequence[Step]) -> list[tuple[Step, str, int]]:
    """Every turn's end, numbered by the turn that follows: the game's own number if its
    ``TurnInfo.round`` counts turns (it changes at most turn ends), else 2, 3, ..."""
    ends = [s for s in steps[1:] if s.milestones.turn_ended]
    if len({s.turn_info.round for s in ends}) * 2 <= len(ends):
        return [(s, "turn", n) for n, s in enumerate(ends, 2)]
    picked: list[tuple[Step, str, int]] = []
    for step in ends:
        number = step.turn_info.round
        if picked and picked[-1][2] == number:  # several turn ends in one turn (a draft)
            picked.pop()
        picked.append((step, "turn", number))
    return picked


# -- helpers ---------------------------------------------------------------------------------


def _start(
    game: str, players: Sequence[str], seed: int, options: Mapping[str, object] | None
) -> Match:
    try:
        return new(game, players, seed, options)
    except EngineError as error:
        rules_for(game)  # an unknown game is the caller's error, not the record's
        raise RecordError(f"setup: {error}") from None


def _public(match: Match, number: int, text: str) -> str:
    """The action as the other seats read it, in the game before it (one action per entry)."""
    if ";" in text:
        raise RecordMismatch(number, text, SEVERAL)
    try:
        return match.public_text(text)
    except EngineError as error:
        raise RecordMismatch(number, text, str(error)) from None


def _play(match: Match, number: int, seat: int, text: str) -> tuple[str, tuple[Event, ...]]:
    """Play one logged action for its seat; its canonical text and events."""
    before = len(match.log)
    try:
        events = match.play(text, seat=seat)
    except EngineError as error:
        raise RecordMismatch(number, text, str(error)) from None
    if len(match.log) != before + 1:
        raise RecordMismatch(number, text, SEVERAL)
    return match.log[-1][1], tuple(events)


def _over(record: Record) -> bool:
    return record.result is not None


def _differs(entry: Entry, reason: str) -> None:
    raise RecordMismatch(entry.number, entry.action, reason)


def _same_scores(entry: Entry, stored: tuple[int, ...], found: tuple[int, ...]) -> None:
    if stored != found:
        shown = "/".join(map(str, stored)), "/".join(map(str, found))
        _differs(entry, f"the scores after it are {shown[0]} in the record, {shown[1]} replayed")


def _same_result(record: Record, last: Step) -> None:
    found = result_of(last.outcome)
    if found == record.result:
        return
    count = len(record.actions)
    if found is None:
        turn = last.turn_info
        raise RecordMismatch(
            None,
            None,
            f"the record gives a result, but after its {count} actions the game goes on "
            f"(seat {turn.seat} to play): actions are missing",
        )
    if record.result is None:
        if record.ended is None:
            raise RecordMismatch(
                None, None, f"the game is over after action {count}, but the record has no result"
            )
        return
    raise RecordMismatch(None, None, f"the record's result differs from the replay's: {found}")


def _check_spectator(record: Record, full: Record) -> None:
    """A spectator record against the full record of the same game (a prefix of it)."""
    if full.kind != FULL:
        raise RecordError("a spectator record is checked against a full record")
    names = [p.name for p in record.players], [p.name for p in full.players]
    if (record.game, record.options, names[0]) != (full.game, full.options, names[1]):
        raise RecordMismatch(None, None, "not the same game as the full record", "setup")
    steps = checked_replay(full)
    if len(record.actions) > len(full.actions):
        extra = record.actions[len(full.actions)]
        _differs(extra, f"the full record has only {len(full.actions)} actions")
    public = spectator_texts(steps[: len(record.actions) + 1])
    rows = zip(record.actions, steps[1:], full.actions, public, strict=False)
    for entry, step, played, text in rows:
        if entry.seat != step.seat:
            _differs(entry, f"played by seat {entry.seat} here, by seat {step.seat} in the game")
        if entry.action != text:
            _differs(entry, f"the game's action reads {text!r}")
        if entry.time != played.time:
            _differs(entry, f"played at {played.time} in the full record")
        _same_scores(entry, entry.scores, played.scores)
    if record.result is not None and record.result != full.result:
        raise RecordMismatch(None, None, "its result differs from the full record's")
