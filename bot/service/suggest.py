"""Autocomplete for the action option: legal actions matching what was typed."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.kept import Kept
from bot.store import Game
from engine.contract import View
from engine.errors import EngineError
from engine.games import Match

MAX_CHOICES = 25
MAX_VALUE = 100  # Discord's limit for a choice's name and value

#: An action as a choice shows it: ``named(game, view, action)``.
Named = Callable[[str, View, str], str]


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


#: Letters NFKD does not take apart ("ł" has no combining stroke).
_PLAIN = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "œ": "oe", "æ": "ae"})


def folded(text: str) -> str:
    """``text`` as typed words are compared to shown ones: lower case, no accents, one space
    ("Łódź  Flotte" -> "lodz flotte")."""
    parts = unicodedata.normalize("NFKD", text.casefold().translate(_PLAIN))
    bare = "".join(c for c in parts if not unicodedata.combining(c))
    return " ".join(bare.split())


def rank(
    legal: list[str],
    typed: str,
    limit: int = MAX_CHOICES,
    said: Callable[[str], str] = str.lower,
) -> list[str]:
    """Legal actions matching ``typed``: prefix matches, then substrings, then all its words;
    ``said``: what of an action is matched, already normalised (default: its notation)."""
    want = folded(typed)
    if not want:
        return legal[:limit]
    words = want.split()
    prefix: list[str] = []
    inside: list[str] = []
    loose: list[str] = []
    for action in legal:
        low = said(action)
        if low.startswith(want):
            prefix.append(action)
        elif want in low:
            inside.append(action)
        elif all(w in low.split() or any(p.startswith(w) for p in low.split()) for w in words):
            loose.append(action)
    return (prefix + inside + loose)[:limit]


def close_matches(legal: list[str], typed: str, limit: int = 3) -> list[str]:
    """The legal actions closest to a mistyped one ("did you mean"), best first.

    A mistyped first word is corrected first (``plase`` -> ``place``); then the actions with
    that word are ranked by how close the whole text is.
    """
    words = _norm(typed).split()
    if not words:
        return []
    verbs = {a.split()[0].lower() for a in legal}
    if words[0] not in verbs:
        verb = difflib.get_close_matches(words[0], sorted(verbs), n=1, cutoff=0.6)
        words[0] = verb[0] if verb else words[0]
    same = [a for a in legal if a.split()[0].lower() == words[0]]
    by_form = {_norm(a): a for a in same or legal}
    cutoff = 0.4 if same else 0.6
    found = difflib.get_close_matches(" ".join(words), list(by_form), n=limit, cutoff=cutoff)
    return [by_form[f] for f in found]


class Suggestions(list[str]):
    """Completions; ``too_long`` when some matched but none fit in a choice (100 characters).

    ``refusal`` is why the user may not act now (not their turn, not seated, game over).
    """

    too_long: bool = False
    refusal: Exception | None = None
    #: The game's key and the player's view now, for the choices' words.
    game: str = ""
    view: View | None = None


def fit_choice(text: str, limit: int = MAX_VALUE) -> str:
    """``text`` short enough for a choice's name: its whole first sentences that fit, else
    cut after a word with "…" (never in the middle of one)."""
    if len(text) <= limit:
        return text
    ends = [m.end() for m in re.finditer(r"[.!?](?=\s)", text) if m.end() <= limit]
    if ends:
        return text[: ends[-1]]
    cut = text[: limit - 1]
    if " " in cut and not text[limit - 1].isspace():
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:\u00a0") + "…"


def suggestions(
    match: Match,
    seat: int,
    typed: str,
    limit: int = MAX_CHOICES,
    legal_now: list[str] | None = None,
    named: Callable[[str], str] | None = None,
) -> Suggestions:
    """Completions of ``typed`` (maybe ``a; b; c``): the earlier parts are applied to a copy;
    when no legal action matches what was typed, the closest ones (``close_matches``).
    ``legal_now``: the match's legal actions if already known; ``named``: an action as the
    choices show it to the user, matched too (after the notation's matches), so the words
    read are the words that find it ("Flotte", "lodz")."""
    found = Suggestions()
    if match.current_seat != seat:
        return found
    parts = typed.split(";")
    done = [p.strip() for p in parts[:-1] if p.strip()]
    last = parts[-1]
    legal = match.legal_actions() if legal_now is None else legal_now
    head = ""
    if done:
        # The engine's preview never shows hidden tiles nor runs past the end of the turn.
        try:
            preview = match.preview("; ".join(done), seat=seat)
        except EngineError:
            return found
        legal = preview.legal_next
        head = "; ".join(preview.actions) + "; "
    matched = rank(legal, last, limit=len(legal))
    if named is not None and last.strip():
        shown = {a: folded(named(a)) for a in legal}
        known = set(matched)
        matched += [a for a in rank(legal, last, len(legal), shown.__getitem__) if a not in known]
    if not matched:  # a typo: the closest legal actions, as the refusal would name them
        matched = close_matches(legal, last)
    for action in matched:
        value = head + action
        if len(value) <= MAX_VALUE:
            found.append(value)
        if len(found) == limit:
            break
    found.too_long = bool(matched) and not found
    return found


#: How many matches ``KnownMatches`` keeps (a match of a few hundred actions is about 100 KB).
MATCHES_KEPT = 256


@dataclass
class Known:
    """A match kept for autocomplete, with its legal actions once asked; ``game``: the game
    as saved with it, when the save kept it (its thread message is prepared from it)."""

    match: Match
    legal: list[str] | None = field(default=None)
    game: Game | None = None

    def legal_actions(self) -> list[str]:
        """The match's legal actions, generated once."""
        if self.legal is None:
            self.legal = self.match.legal_actions()
        return self.legal


class KnownMatches:
    """The matches read or played lately, by (game id, version), for autocomplete (asked on
    every keystroke): a version names one state, so its match never goes stale; the store's
    version, read each time, says which one is current (D123). Only read, never played on."""

    def __init__(self, size: int = MATCHES_KEPT) -> None:
        self._kept: Kept[tuple[int, int], Known] = Kept(size)

    def get(self, game_id: int, version: int) -> Known | None:
        """The match of this game at this version, if kept."""
        return self._kept.find((game_id, version))

    def keep(self, game_id: int, version: int, match: Match, game: Game | None = None) -> Known:
        """Keep a match nothing will play on any more (the oldest kept one goes), with its
        ``game`` if known."""
        known = Known(match, game=game)
        self._kept.keep((game_id, version), known)
        return known

    def clear(self) -> None:
        """Forget every kept match."""
        self._kept.clear()
