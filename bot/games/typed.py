"""Typed names in any of the bot's languages, read into a game's notation (D219).

``/play`` takes the game's notation (``place bamboo 25``); a player may type the names of its
things in their own words instead (``place bambou 25``, ``place łódź z bambusem 25``), in any of
the four languages, without minding case or accents. Only the names are read: the verbs, spots
and numbers stay the notation's, so the engine's notation and its round trip do not change.
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable

#: Letters that Unicode does not split into a base letter and an accent.
_PLAIN = str.maketrans({"ł": "l", "œ": "oe", "æ": "ae", "ß": "ss", "\u2019": "'", "\u02bc": "'"})
#: How alike a typed word and a name must be to be taken for a typo of it (difflib's ratio).
CLOSE = 0.75
#: The fewest letters of a name begun that autocomplete reads as that name.
BEGUN = 3
#: An argument kind that is read as typed (a spot, a number, a code of the notation).
AS_TYPED = "-"


def fold(text: str) -> str:
    """A name as it is compared: lower case, without accents, single spaces."""
    low = " ".join(text.lower().split()).translate(_PLAIN)
    return "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))


class UnknownName(Exception):
    """A typed word where a name of ``kind`` belongs that is no such name in any language."""

    def __init__(self, kind: str, word: str) -> None:
        super().__init__(f"{word!r} is not a {kind}")
        self.kind = kind
        self.word = word


@dataclass(frozen=True)
class Names:
    """The names a game's players may type, read into its notation.

    ``verbs``: for each verb, the kind of each argument in order (``AS_TYPED`` for one read
    as typed; a kind starting with ``*`` takes every argument left). ``names``: per kind,
    each folded name -> its notation. A name may be several words ("bateau de bambou").
    """

    verbs: Mapping[str, Sequence[str]]
    names: Mapping[str, Mapping[str, str]]
    longest: int = field(default=1)

    def read(self, text: str, *, strict: bool = True) -> str:
        """``text`` (one action or a ``;`` sequence) with every name typed in words replaced by
        its notation; parts without one are kept as typed. ``strict``: a word where a name
        belongs that is none, nor close to one, raises ``UnknownName`` (else it is kept, for
        the engine to refuse or correct)."""
        return ";".join(self._part(part, strict) for part in text.split(";"))

    def begun(self, text: str) -> str:
        """``read`` for autocomplete: nothing refused, and the last name may be only begun
        ("place drew" -> "place wood") when what is typed begins names of one thing only."""
        head, _, last = text.rpartition(";")
        done = self.read(head, strict=False) + ";" if head or text.startswith(";") else ""
        return done + self._part(last, False, begun=not last.endswith(" "))

    def _part(self, part: str, strict: bool, begun: bool = False) -> str:
        words = part.split()
        kinds = self.verbs.get(words[0].lower(), ()) if words else ()
        if not kinds:
            return part
        out, changed, i = [words[0]], False, 1
        for kind in _kinds(kinds, len(words)):
            if i >= len(words):
                break
            found = None if kind == AS_TYPED else self._name(kind, words, i)
            if found is None and begun and kind != AS_TYPED:
                found = self._begun(kind, words, i)
            if found is None:
                if strict and kind != AS_TYPED and self._unknown(kind, words[i]):
                    last = kind == kinds[-1] and not kind.startswith("*")  # a name of words
                    raise UnknownName(kind.lstrip("*"), " ".join(words[i:] if last else [words[i]]))
                out.append(words[i])
                i += 1
                continue
            token, used = found
            changed = changed or token != " ".join(words[i : i + used])
            out.append(token)
            i += used
        out += words[i:]
        if not changed:
            return part
        lead = part[: len(part) - len(part.lstrip())]
        return lead + " ".join(out) + (" " if part.endswith(" ") else "")

    def _unknown(self, kind: str, word: str) -> bool:
        """Whether a word is no name of ``kind`` nor close to one (a typo close to one is left
        to the refusal's "did you mean")."""
        if not _a_word(word):
            return False
        known = self.names.get(kind.lstrip("*"), {})
        return not difflib.get_close_matches(fold(word), list(known), n=1, cutoff=CLOSE)

    def _begun(self, kind: str, words: list[str], start: int) -> tuple[str, int] | None:
        """The one thing whose names begin with the words from ``start`` to the end (at least
        ``BEGUN`` letters), and how many words that is; None if none or several."""
        typed = fold(" ".join(words[start:]))
        known = self.names.get(kind.lstrip("*"), {})
        tokens = {token for name, token in known.items() if name.startswith(typed)}
        if len(typed) < BEGUN or len(tokens) != 1:
            return None
        return tokens.pop(), len(words) - start

    def _name(self, kind: str, words: list[str], start: int) -> tuple[str, int] | None:
        """The longest name of ``kind`` typed from word ``start``: its notation, words used."""
        known = self.names.get(kind.lstrip("*"), {})
        for size in range(min(self.longest, len(words) - start), 0, -1):
            token = known.get(fold(" ".join(words[start : start + size])))
            if token is not None:
                return token, size
        return None


def _kinds(kinds: Sequence[str], count: int) -> Iterable[str]:
    """The argument kinds in order, the last one repeated when it starts with ``*``."""
    yield from kinds
    if kinds and kinds[-1].startswith("*"):
        yield from [kinds[-1]] * count


def _a_word(word: str) -> bool:
    """Whether a typed word is made of letters (a name), not a spot, number or code."""
    return fold(word).replace("'", "").replace("-", "").isalpha()


def names_of(verbs: Mapping[str, Sequence[str]], named: Iterable[tuple[str, str, str]]) -> Names:
    """``Names`` from (kind, name, notation) triples; a name meaning two things is left out."""
    found: dict[str, dict[str, str]] = {}
    torn: set[tuple[str, str]] = set()
    for kind, name, token in named:
        key = fold(name)
        if not key:
            continue
        known = found.setdefault(kind, {})
        if known.get(key, token) != token:
            torn.add((kind, key))
        known[key] = token
    for kind, key in torn:
        del found[kind][key]
    longest = max((len(k.split()) for n in found.values() for k in n), default=1)
    return Names(verbs, found, longest)


def locale_texts(folder: Traversable) -> dict[str, dict[str, str]]:
    """A game's texts per language from its locale folder (``<lang>.json``)."""
    texts: dict[str, dict[str, str]] = {}
    for item in folder.iterdir():
        if item.name.endswith(".json"):
            texts[item.name.removesuffix(".json")] = json.loads(item.read_text("utf-8"))
    return texts
