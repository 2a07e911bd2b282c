"""The registry of games and the Match: one game in progress, its log, undo, views and JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.contract import (
    Budget,
    Choice,
    ComputerPlayer,
    Event,
    GameRules,
    JsonObject,
    Milestones,
    Options,
    Outcome,
    TurnInfo,
    View,
)
from engine.errors import (
    CorruptGame,
    EngineError,
    GameOver,
    IllegalAction,
    InvalidSetup,
    NotYourTurn,
    UndoNotAllowed,
    UnknownGame,
    echo,
)
from engine.players import LEVELS, legal_of
from engine.refusals import MATCH, E

FORMAT = 1
MAX_NAME = 64
MAX_ACTION_TEXT = 2000
ERROR_LEGAL_SHOWN = 8


def _registry() -> dict[str, GameRules]:
    from engine.namiji.game import Namiji
    from engine.yamatai.game import Yamatai

    return {"yamatai": Yamatai(), "namiji": Namiji()}


GAMES: dict[str, GameRules] = _registry()


def register(rules: GameRules) -> None:
    """Add a game to the registry (the registry line above lists the shipped games)."""
    GAMES[rules.key] = rules


def search_budget(key: str) -> Budget:
    """The strong player's budget per decision of the game registered under a key."""
    return rules_for(key).search_budget


def rules_for(key: str) -> GameRules:
    """The rules object registered under a key."""
    try:
        return GAMES[key]
    except KeyError:
        raise MATCH.make(
            UnknownGame,
            "unknown_game",
            legal=sorted(GAMES),
            game=repr(key),
            games=", ".join(sorted(GAMES)),
        ) from None


def computer_player(
    game: str, level: str | None = None, budget: Budget | None = None
) -> ComputerPlayer:
    """A game's computer player by level (easy, normal, strong) or by name (``greedy``, ...).

    By default the normal level: the player the bot has always used (Yamatai's and Namiji's
    greedy player), so that callers without a level keep their behaviour. ``budget`` bounds the
    strong player's search (default: the game's own budget)."""
    rules = rules_for(game)
    players = rules.players
    name = rules.levels[level or "normal"] if level is None or level in LEVELS else level
    if name not in players:
        legal = sorted({*LEVELS, *players})
        raise MATCH.make(
            UnknownGame, "unknown_game.player", legal=legal, game=game, player=repr(level)
        )
    if budget is None or name != rules.levels["strong"]:
        return players[name]
    searched = budget

    def strong_player(view: View, seed: int) -> str:
        legal = legal_of(view)
        return legal[0] if len(legal) == 1 else rules.analyse(view, seed, searched)[0].action

    return strong_player


def hints(
    game: str, view: View, seed: int, budget: Budget | None = None, top: int = 3
) -> list[Choice]:
    """The strong player's ``top`` choices for a seat's view with their chances to win, the
    highest chance first (a pure function of the view, the seed and the budget: the coach's hint).

    The choices are the search's ``top`` best (the ones it sampled most), ordered by the chance
    each shows: one the search dropped early may show more than its pick. Equal chances: more
    samples first, then the search's rank (D210)."""
    searched = rules_for(game).analyse(view, seed, budget)[:top]
    ranked = sorted(enumerate(searched), key=lambda c: (-c[1].win_chance, -c[1].samples, c[0]))
    return [choice for _, choice in ranked]


def chances_of(
    game: str, view: View, seed: int, played: str, budget: Budget | None = None
) -> tuple[Choice, list[Choice]]:
    """The played action's estimate and the strong player's choices, for turning points: the
    drop is the best choice's chance minus the played one's."""
    choices = rules_for(game).analyse(view, seed, budget, also=(played,))
    mine = next((c for c in choices if c.action == played), None)
    if mine is None:  # not a legal action of this view
        raise ValueError(f"{played!r} is not a legal action of this view")
    return mine, choices


@dataclass(frozen=True)
class Preview:
    """What a turn's actions would do: canonical texts, events, the actor's view after them."""

    actions: list[str]
    events: list[Event]
    view: dict[str, Any]
    legal_next: list[str]  # actions that may follow them in a preview; none once the turn ends
    ends_turn: bool


class Match:
    """One game: setup (players, seed, options), the action log and the current state."""

    def __init__(
        self,
        rules: GameRules,
        players: list[str],
        seed: int,
        options: Options,
        state: Any,  # the rules' own state (a game's tests read it)
        log: list[tuple[int, str]],
        turn_start: int | None = None,
    ) -> None:
        self.rules = rules
        self.game_key = rules.key
        self.players = players
        self.seed = seed
        self.options = options
        self.state = state
        self.log = log
        # Actions of the log played before the current turn began (None: not known, a snapshot
        # written before it was kept; the bot then finds it by replay).
        self.turn_start = turn_start

    # -- reading ---------------------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        """The seat whose action it is, or None when the game is over."""
        return self.rules.current_seat(self.state)

    @property
    def outcome(self) -> Outcome | None:
        """None while playing; then every seat's result, the winners and how it ended."""
        return self.rules.outcome(self.state)

    @property
    def standing(self) -> Outcome:
        """The outcome once over; before, every seat's score and rank so far."""
        return self.rules.standing(self.state)

    @property
    def turn_info(self) -> TurnInfo:
        """The seat to act, the round and the step of the turn."""
        return self.rules.turn_info(self.state)

    @property
    def colours(self) -> list[str]:
        """Each seat's colour name."""
        return self.rules.seat_colours(self.state)

    def milestones(self, events: list[Event]) -> Milestones:
        """Whether events returned by ``play`` ended a turn, started a round or ended the game."""
        return self.rules.milestones(events)

    def legal_actions(self) -> list[str]:
        """Every legal next action in canonical notation, in a deterministic order."""
        return self.rules.legal_actions(self.state)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """JSON-ready data of what that seat (None: a spectator) may see."""
        legal = self.legal_actions() if seat is not None and seat == self.current_seat else None
        return {**self.rules.view(self.state, seat, legal), "version": len(self.log)}

    def canonical(self, text: str) -> str:
        """The canonical form of one action's text (InvalidNotation if it is not one)."""
        return self.rules.format(self.state, self.rules.parse(self.state, text))

    # -- acting ----------------------------------------------------------------------------

    def play(self, text: str, seat: int | None = None) -> list[Event]:
        """Apply one action, or several separated by ';' (all or nothing); return the events."""
        actor = self._actor(seat)
        parts, actions = self._parse_sequence(text)
        # One action is checked before it changes anything; a sequence runs on a copy.
        work = self.state if len(actions) == 1 else self.rules.clone(self.state)
        events, texts = self._run(work, parts, actions, preview=False)
        self.state = work
        self.log += [(actor, t) for t in texts]
        if self.rules.milestones(events).turn_ended:  # only a sequence's last action may end it
            self.turn_start = len(self.log)
        return events

    def preview(self, text: str, seat: int | None = None) -> Preview:
        """What one turn's actions would do, on a copy: nothing changes, nothing hidden shows.

        A sequence containing an action that reveals hidden information (Yamatai's ``look``) is
        refused, and the preview stops at the end of the turn, before the next round is prepared.
        """
        actor = self._actor(seat)
        work, events, texts, ended = self._previewed(text)
        legal_next = [] if ended else self._previewable(work)
        return Preview(texts, events, dict(self.rules.view(work, actor, None)), legal_next, ended)

    def legal_after(self, text: str, seat: int | None = None) -> list[str]:
        """``preview(text, seat).legal_next`` without the view and events' words (a panel
        asks it of each turn's harbor choice)."""
        self._actor(seat)
        work, _, _, ended = self._previewed(text)
        return [] if ended else self._previewable(work)

    def _previewed(self, text: str) -> tuple[object, list[Event], list[str], bool]:
        """A sequence run on a copy: the state after it, its events and texts, whether it
        ends the turn."""
        parts, actions = self._parse_sequence(text)
        work = self.rules.clone(self.state)
        events, texts = self._run(work, parts, actions, preview=True)
        return work, events, texts, self.rules.ends_turn(actions[-1])

    def _previewable(self, st: object) -> list[str]:
        """Legal actions that may extend a previewed sequence (none that reveals anything)."""
        moves = self.rules.legal_moves(st)
        return [self.rules.format(st, m) for m in moves if not self.rules.reveals(m)]

    def public_text(self, text: str) -> str:
        """A logged action as the other players may read it (private details left out)."""
        return self.rules.public_text(self.state, self.rules.parse(self.state, text))

    def _parse_sequence(self, text: str) -> tuple[list[str], list[object]]:
        if len(text) > MAX_ACTION_TEXT:
            raise MATCH.notation("too_long", count=len(text), limit=MAX_ACTION_TEXT)
        parts = [p.strip() for p in text.split(";")]
        if len(parts) > 1 and parts[-1] == "":
            parts.pop()
        return parts, [self.rules.parse(self.state, p) for p in parts]

    def _run(
        self, st: object, parts: list[str], actions: list[object], *, preview: bool
    ) -> tuple[list[Event], list[str]]:
        """Check and apply actions in order on ``st``; raise at the first that is not legal."""
        events: list[Event] = []
        texts: list[str] = []
        last = len(actions)
        for number, action in enumerate(actions, 1):
            if self.rules.reveals(action) and (preview or number < last):
                error = MATCH.illegal("reveal_alone", part=parts[number - 1])
                raise _at(error, parts, number) if last > 1 else error
            try:
                self.rules.check(st, action)
            except IllegalAction as error:
                if last > 1:
                    _at(error, parts, number)
                self._explain(st, action, error)
                raise
            texts.append(self.rules.format(st, action))
            events += self.rules.apply(st, action, pass_turn=not preview)
            if number < last and self.rules.ends_turn(action):
                raise MATCH.make(
                    NotYourTurn, "sequence_past_turn", number=number + 1, part=echo(parts[number])
                )
        return events, texts

    def _actor(self, seat: int | None) -> int:
        current = self.current_seat
        if current is None:
            raise MATCH.make(GameOver, "game_over")
        if seat is not None and seat != current:
            name = self.players[current]
            raise MATCH.make(NotYourTurn, "not_your_turn", player=name)
        return current

    def _explain(self, st: object, action: object, error: IllegalAction) -> None:
        """Attach the legal alternatives: the same kind of action if any, else everything."""
        legal = self.rules.legal_actions(st)
        word = self.rules.format(st, action).split()[0]
        same = [a for a in legal if a.split()[0] == word]
        error.legal = same or legal
        shown = error.legal[:ERROR_LEGAL_SHOWN]
        more = len(error.legal) - len(shown)
        if shown:
            tail = f" (+{more} more)" if more > 0 else ""
            error.message = f"{error.detail} Legal now: {'; '.join(shown)}{tail}."
        else:
            error.message = f"{error.detail} No such action is legal now."
        error.args = (error.message,)

    # -- undo ------------------------------------------------------------------------------

    def can_undo(self, seat: int | None = None) -> bool:
        """Whether undo() would succeed for that seat (None: the current seat)."""
        try:
            self._check_undo(seat)
        except UndoNotAllowed:
            return False
        return True

    def _check_undo(self, seat: int | None) -> None:
        current = self.current_seat
        if current is None:
            raise MATCH.make(UndoNotAllowed, "game_over")
        if seat is not None and seat != current:
            raise MATCH.make(UndoNotAllowed, "not_yours")
        if not self.log or not self.turn_info.in_progress:
            raise MATCH.make(UndoNotAllowed, "turn_start")
        last = self.rules.parse(self.state, self.log[-1][1])
        if self.rules.reveals(last):
            raise MATCH.make(UndoNotAllowed, "revealed")

    def undo(self, seat: int | None = None) -> str:
        """Take back the last action of the current turn (replaying the log); return its text."""
        self._check_undo(seat)
        undone = self.log[-1][1]
        replayed = replay(self.game_key, self.players, self.seed, self.options, self.log[:-1])
        self.state = replayed.state
        self.log = replayed.log
        self.turn_start = replayed.turn_start
        return undone

    # -- serialization ---------------------------------------------------------------------

    def to_dict(self) -> JsonObject:
        """JSON-ready data: setup, log, the current turn's start (when known) and the state."""
        return self._data(list(map(list, self.log)))  # each (seat, text) as a JSON array

    def _data(self, log: list[list[object]] | None) -> JsonObject:
        """``to_dict``'s data with this value as its log."""
        data: JsonObject = {
            "format": FORMAT,
            "game": self.game_key,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "log": log,
            "state": self.rules.to_dict(self.state),
        }
        if self.turn_start is not None:
            data["turn_start"] = self.turn_start
        return data

    def to_json(self) -> str:
        """Canonical JSON text (sorted keys, compact): ``to_dict``'s, written field by field."""
        # The same text as encoding to_dict() whole (JSON's objects are written item by item,
        # keys sorted): only the log, most of a long game's text, is written by _log_json.
        texts = {key: _JSON.encode(value) for key, value in self._data(None).items()}
        texts["log"] = _log_json(self.log)
        return "{" + ",".join(f"{_JSON.encode(key)}:{texts[key]}" for key in sorted(texts)) + "}"


#: The encoder of ``to_json``: ``json.dumps(data, sort_keys=True, separators=(",", ":"))``'s.
_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
LOG_TEXTS_KEPT = 50_000


class _LogTexts(dict[tuple[int, str], str]):
    """Each log entry's JSON text, kept once written (up to ``LOG_TEXTS_KEPT``): a saved game is
    written again after every action, its log growing by one entry, and the same actions recur."""

    def __missing__(self, entry: tuple[int, str]) -> str:
        text = _JSON.encode(entry)  # a tuple is written as a JSON array, as the list it was
        if len(self) < LOG_TEXTS_KEPT:
            self[entry] = text
        return text


_LOG_TEXTS = _LogTexts()


def _log_json(log: list[tuple[int, str]]) -> str:
    """The log as ``to_dict`` writes it, as JSON text."""
    try:
        return "[" + ",".join(map(_LOG_TEXTS.__getitem__, log)) + "]"
    except TypeError:  # an entry that is not a tuple (a list cannot be looked up): not kept
        return _JSON.encode(list(map(list, log)))


def _check_players(rules: GameRules, players: Sequence[str]) -> list[str]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise MATCH.make(InvalidSetup, "bad_players")
    names = list(players)
    if not rules.min_players <= len(names) <= rules.max_players:
        raise MATCH.make(
            InvalidSetup,
            "player_count",
            game=rules.key,
            min=rules.min_players,
            max=rules.max_players,
            count=len(names),
        )
    for name in names:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise MATCH.make(InvalidSetup, "bad_name", max=MAX_NAME)
    return names


def new(
    game: str, players: Sequence[str], seed: int, options: Mapping[str, object] | None = None
) -> Match:
    """Start a game: its key, the players' names in seat order, a seed and options."""
    rules = rules_for(game)
    names = _check_players(rules, players)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise MATCH.make(InvalidSetup, "bad_seed")
    opts = rules.normalize_options(options)
    return Match(rules, names, seed, opts, rules.new_state(names, seed, opts), [], 0)


def replay(
    game: str,
    players: Sequence[str],
    seed: int,
    options: Mapping[str, object] | None,
    log: Sequence[tuple[int, str]],
) -> Match:
    """A match rebuilt from its setup and log, checking every action on the way."""
    match = new(game, players, seed, options)
    for seat, text in log:
        match.play(text, seat=seat)
    return match


def from_json(text: str) -> Match:
    """The match that ``to_json`` wrote (CorruptGame if the text is not one)."""
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown format {data.get('format')!r}")
        rules = rules_for(data["game"])
        players = _check_players(rules, data["players"])
        seed = data["seed"]
        if not isinstance(seed, int):
            raise ValueError("seed is not an integer")
        options = rules.normalize_options(data["options"])
        log = [(int(seat), str(action)) for seat, action in data["log"]]
        state = rules.from_dict(data["state"])
        turn_start = None if data.get("turn_start") is None else int(data["turn_start"])
        if turn_start is not None and not 0 <= turn_start <= len(log):
            raise ValueError(f"turn_start {turn_start} is outside the log")
    except (ValueError, KeyError, TypeError, AttributeError, EngineError) as error:
        raise CorruptGame(f"Not a saved game: {error}") from error
    return Match(rules, players, seed, options, state, log, turn_start)


def _at(error: E, parts: Sequence[str], number: int) -> E:
    """The error of a sequence's action ``number``, its English text saying which action it is."""
    error.detail = f"Action {number} ({echo(parts[number - 1])}): " + error.detail
    error.message = error.detail
    error.args = (error.message,)
    error.data["action"] = number  # which action of the sequence
    return error
