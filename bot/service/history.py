"""The log of a match grouped into turns, with the events each turn caused (by replay)."""

from __future__ import annotations

from bot.games import presentation
from engine import games
from engine.contract import Event
from engine.games import Match

from .results import SinceLastTurn, TurnRecord


def replay_turns(match: Match, viewer: int | None = None) -> list[TurnRecord]:
    """Every turn of the log in order (the last may be unfinished), as everyone may read it;
    the ``viewer`` seat's own actions in full (its built tiles, the tiles it looked at)."""
    fresh = games.new(match.game_key, match.players, match.seed, match.options)
    turns: list[TurnRecord] = []
    seat: int | None = None
    actions: list[str] = []
    events: list[Event] = []
    shown = presentation(match.game_key)
    turn_round = 1
    for actor, text in match.log:
        if seat is None:  # the number the board shows for this turn (D83)
            seat, turn_round = actor, shown.number(fresh.turn_info)
        # shared with everyone: hidden until the end, but never from the one who played it
        public = text if actor == viewer else match.public_text(text)
        hidden = fresh.rules.secrets(fresh.state, None) if public != text else frozenset()
        new = fresh.play(text, seat=actor)
        if public != text and fresh.current_seat is not None:  # a built tile: hidden after
            hidden |= fresh.rules.secrets(fresh.state, None)
        actions.append(public_notation(text, public, hidden))
        events += new
        milestones = fresh.milestones(new)
        if milestones.turn_ended:
            turns.append(
                TurnRecord(
                    seat=seat,
                    round=turn_round,
                    actions=tuple(actions),
                    events=tuple(events),
                    complete=True,
                )
            )
            seat, actions, events = None, [], []
    if seat is not None:
        turns.append(
            TurnRecord(
                seat=seat,
                round=turn_round,
                actions=tuple(actions),
                events=tuple(events),
                complete=False,
            )
        )
    return turns


def public_notation(text: str, public: str, hidden: frozenset[str]) -> str:
    """An action as everyone may read it, in notation only (the same in every language): the
    engine's ``public`` text says in English words what it left out ("arrange (1 on top, 2 at
    the bottom)"); here each hidden word of the action becomes ``?`` ("arrange ? / ? ?"), or,
    if no word is secret by itself, everything after the verb becomes ``…``."""
    if public == text:
        return text
    words = text.split()
    masked = ["?" if word in hidden else word for word in words]
    return " ".join(masked) if masked != words else f"{words[0]} …"


def turn_start(match: Match) -> int:
    """How many actions of the log were played before the current turn began (kept by the
    match; by replay for a snapshot written before it was): the identity of the turn, shared by
    no other turn of the game."""
    if match.turn_start is not None:
        return match.turn_start
    fresh = games.new(match.game_key, match.players, match.seed, match.options)
    start = 0
    for number, (actor, text) in enumerate(match.log, 1):
        if fresh.milestones(fresh.play(text, seat=actor)).turn_ended:
            start = number
    return start


def since_last_turn(match: Match, seat: int) -> SinceLastTurn:
    """The other seats' complete turns since ``seat``'s previous complete turn (since the
    start if it has had none), oldest first, as everyone may read them (by replay)."""
    turns = replay_turns(match)
    mine = [i for i, turn in enumerate(turns) if turn.seat == seat and turn.complete]
    start = mine[-1] + 1 if mine else 0
    others = tuple(turn for turn in turns[start:] if turn.complete and turn.seat != seat)
    return SinceLastTurn(turns=others, first_turn=not mine)
