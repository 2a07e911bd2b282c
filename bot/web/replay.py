"""A stored game replayed step by step for the web page: pure, run in a thread.

Each step is the game after one more action of the log, as a spectator sees it
(``view(None)``), with the action in notation (as everyone may read it) and in words in the
game's language. Step 0 is the game before its first action.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.catalog import Catalog
from bot.games import presentation
from bot.summary import Summary
from engine import games
from engine.contract import Event, JsonObject, View
from engine.games import Match

# Discord's markdown in the summary texts: bold markers, then the backslashes that escape
# punctuation in names (``display_name``). The web page shows plain, HTML-escaped text.
_BOLD = re.compile(r"(?<!\\)\*\*")
_ESCAPED = re.compile(r"\\(.)")


# The English note an engine adds to an action's public text on what it hides ("build A3 (a
# standard building, tile face down)"): the words say it in the page's language (D213).
_NOTE = re.compile(r"\s*\(.*\)\s*$")


def plain(text: str) -> str:
    """A summary text without Discord's markdown: ``**\\*Ann**`` -> ``*Ann``."""
    return _ESCAPED.sub(r"\1", _BOLD.sub("", text))


def notation(public: str) -> str:
    """An action's public text as notation only, the engine's English note left out:
    ``build A3 (a standard building, tile face down)`` -> ``build A3``."""
    return _NOTE.sub("", public)


def in_words(
    summary: Summary, events: Sequence[Event], names: Sequence[str], text: str, ended: bool
) -> str:
    """One action in the page's language, as ``/log`` words it; an action that only ended the
    turn (a game's ``end``) ended it, it did not pass (``web.turn_ended``); an ``end`` whose
    events are told in phrases of their own (a draft of cards begins: its subject is not the
    player) says first that the turn ended, as the game says it (``web.turn_ended_then``)."""
    parts, _ = summary.presentation.describe(summary.t, events, names)
    if ended and parts and text.split()[:1] == ["end"]:
        own = summary.presentation.played(summary.t, (text,), [])
        said = own[0] if own else summary.t("web.turn_ended")
        return plain(summary.t("web.turn_ended_then", ended=said, then=", ".join(parts)))
    parts = summary.presentation.played(summary.t, (text,), parts)
    if parts:
        return plain(", ".join(parts))
    return summary.t("web.turn_ended" if ended else "summary.nothing")


@dataclass(frozen=True)
class Step:
    """The game after ``version`` actions: who played the last one and what it did."""

    version: int
    seat: int | None  # None at step 0
    round: int
    action: str  # the action's notation as every player may read it ("" at step 0)
    words: str  # the action in words, in the game's language ("" at step 0)
    events: tuple[Event, ...]  # what the action did, as a spectator may know it (marked)
    packed: bytes  # the spectator's view after it, as compressed JSON (see ``pack``)
    chain: str  # a digest of the log up to here: a picture is only reused for the same past
    to_play: int | None = None  # the seat to act after it (None: the game is over)
    step_key: str | None = None  # the catalog key of the step that seat plays (D213)

    @property
    def view(self) -> JsonObject:
        """The spectator's view after the action."""
        view: JsonObject = json.loads(zlib.decompress(self.packed))
        return view


def pack(view: View) -> bytes:
    """A view kept small: a game's replay holds one per action (about 2 KB instead of 50)."""
    return zlib.compress(json.dumps(view, separators=(",", ":")).encode(), 1)


@dataclass(frozen=True)
class Replay:
    """Every step of a game's log, from the start to its current version."""

    game_key: str
    players: tuple[str, ...]
    steps: tuple[Step, ...]
    language: str
    over: bool  # the log's texts show what the end revealed
    turn_start: int  # actions played before the current turn began (its identity)
    engine: Match = field(repr=False, compare=False)  # the game after the last step

    @property
    def last(self) -> Step:
        """The step shown first: the game as it is now."""
        return self.steps[-1]


def _chain(previous: str, seat: int, notation: str) -> str:
    digest = hashlib.blake2b(f"{previous}|{seat}|{notation}".encode(), digest_size=12)
    return digest.hexdigest()


def _marked(event: Event, hidden: frozenset[str]) -> Event:
    """An event as a spectator may know it (see ``_without``)."""
    return {key: _without(value, hidden) for key, value in event.items()}


def _without(value: object, hidden: frozenset[str]) -> object:
    """An event with every string a spectator may not see replaced by ``?``: a built tile's
    name (face down) is in its event, though the picture only marks where it was built."""
    if isinstance(value, str):
        return "?" if value in hidden else value
    if isinstance(value, dict):
        return {k: _without(v, hidden) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_without(v, hidden) for v in value]
    return value


def _start_chain(match: Match) -> str:
    names = list(match.players)
    return _chain("", -1, f"{match.game_key}|{match.seed}|{names}|{match.options}")


def _copy(match: Match) -> Match:
    """An independent copy of a replayed match (a cached replay's stays as it was)."""
    state = match.rules.clone(match.state)
    players, options = list(match.players), dict(match.options)
    return Match(match.rules, players, match.seed, options, state, list(match.log))


def _continues(base: Replay | None, match: Match, language: str) -> bool:
    """Whether ``base`` replayed the start of ``match``'s log (same game, same actions, same
    language) and its texts still hold: the end reveals what was hidden in the earlier ones."""
    if base is None or base.language != language or base.over != (match.current_seat is None):
        return False
    known = base.last.version
    if known > len(match.log):
        return False
    chain = _start_chain(match)
    for actor, text in match.log[:known]:
        chain = _chain(chain, actor, text)
    return chain == base.last.chain


def _after(match: Match) -> tuple[bytes, int | None, str | None]:
    """The spectator's view of the game as it stands (packed), the seat to act and the
    catalog key of its step (``<game>.step.<step>``, the game's presentation deciding)."""
    view = match.view(None)
    step = match.turn_info.step
    key = presentation(match.game_key).step_key(view, step) if step else None
    return pack(view), match.current_seat, key


def replay_steps(
    match: Match, catalog: Catalog, language: str, base: Replay | None = None
) -> Replay:
    """Replay a stored match's log from its setup: one step per action (and the start); from
    the end of ``base`` when it replayed the start of the same log (a game that went on)."""
    names = list(match.players)
    if _continues(base, match, language):
        assert base is not None
        fresh, steps, start = _copy(base.engine), list(base.steps), base.turn_start
    else:
        start = 0
        fresh = games.new(match.game_key, match.players, match.seed, match.options)
        first = presentation(match.game_key).number(fresh.turn_info)
        view, seat, step = _after(fresh)
        steps = [Step(0, None, first, "", "", (), view, _start_chain(match), seat, step)]
    summary = Summary(catalog, language, match.game_key)
    chain = steps[-1].chain
    number_of = presentation(match.game_key).number  # one numbering with /log (D83)
    for number, (actor, text) in enumerate(match.log[len(steps) - 1 :], len(steps)):
        round_ = number_of(fresh.turn_info)
        before = fresh.rules.secrets(fresh.state, None)
        events = fresh.play(text, seat=actor)
        ended = fresh.milestones(events).turn_ended
        if ended:
            start = number
        chain = _chain(chain, actor, text)
        words = in_words(summary, events, names, text, ended)
        public = notation(match.public_text(text))  # as /log shows it: hidden until the end
        # the secrets of the game after the action; the one that ended it: those before it
        hidden = before if fresh.current_seat is None else fresh.rules.secrets(fresh.state, None)
        marked = tuple(_marked(e, hidden) for e in events)
        view, seat, step = _after(fresh)
        steps.append(Step(number, actor, round_, public, words, marked, view, chain, seat, step))
    over = match.current_seat is None
    return Replay(match.game_key, tuple(names), tuple(steps), language, over, start, fresh)


def public_fields(view: View, seat: int) -> list[tuple[str, object]]:
    """A seat's public fields from the spectator's view, as (field, value) pairs: what the view
    shows of that player but its name, seat, colour and score."""
    players = view.get("players", ())
    if not isinstance(players, Sequence) or not 0 <= seat < len(players):
        return []
    if not isinstance(players[seat], dict):
        return []
    hidden = ("seat", "name", "colour", "score")
    return [(key, value) for key, value in players[seat].items() if key not in hidden]


def shown(value: object) -> list[str]:
    """A view value as it is: lists flattened, mappings as ``key value``, empties dropped."""
    if isinstance(value, bool):
        return ["✓"] if value else []
    if isinstance(value, int | float):
        return [str(value)]
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, dict):
        pairs = ((k, shown(v)) for k, v in value.items())
        return [f"{k} {' '.join(words)}" for k, words in pairs if words not in ([], ["0"])]
    if isinstance(value, list | tuple):
        return [word for item in value for word in shown(item)]
    return []
