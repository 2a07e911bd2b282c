"""Yamatai action notation: parse any reasonable spelling, format the one canonical form."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from engine.errors import InvalidNotation, echo
from engine.yamatai.board import Board
from engine.yamatai.components import Components
from engine.yamatai.refusals import notation


class Action(NamedTuple):
    """A parsed action: its kind and canonical arguments (indices for boats, spots, islands)."""

    kind: str
    args: tuple[Any, ...] = ()


FORMS = (
    "fleet N",
    "fleet 10 BOAT",
    "buy BOAT",
    "sell BOAT",
    "place BOAT SPOT",
    "collect ISLAND...",
    "build TILE ISLAND",
    "keep BOAT...",
    "recruit SPECIALIST CULTURE CULTURE [CULTURE]",
    "end",
    "reserve TILE",
    "look",
    "arrange TILE... / TILE...",
    "slide SPOT SPOT",
    "sacred ISLAND",
    "swap tokens ISLAND ISLAND",
    "remove SPOT [SPOT]",
    "swap boats SPOT SPOT",
    "raijin BOAT BOAT",
    "nakatsu BOAT BOAT",
    "michimata CULTURE",
    "hetsuka CULTURE",
    "kachiko ISLAND",
    "ebisu ISLAND",
)

_BOAT_ALIASES = {
    "green": "bamboo",
    "g": "bamboo",
    "brown": "wood",
    "w": "wood",
    "black": "stone",
    "s": "stone",
    "red": "clay",
    "c": "clay",
    "yellow": "gold",
    "y": "gold",
}
_SPECIALIST_ALIASES = {"amaterasu": "amateratsu", "fuhsi": "fu-hsi", "toyotama": "toyo-tama"}


WORD_ECHO = 24  # characters of one typed word repeated in an error
# Canonical texts kept per board (a few thousand actions recur; the bound keeps a long-running
# process's memory flat whatever it is asked).
TEXTS_KEPT = 50_000


def _echo(word: str) -> str:
    return echo(word, WORD_ECHO)


class _Texts(dict[Action, str]):
    """Canonical texts by action, each made once when first asked for: a pure function of the
    action on one board, asked again and again (every legal action of every position is listed
    as text). Up to ``TEXTS_KEPT``, and not orders of looked-at tiles (many, each seldom seen
    twice)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Action], str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, action: Action) -> str:
        text = self.make(action)
        if action.kind != "arrange" and len(self) < TEXTS_KEPT:
            self[action] = text
        return text


class Notation:
    """Parser and formatter bound to one board and one set of components."""

    def __init__(self, board: Board, comp: Components) -> None:
        self.board = board
        self.comp = comp
        self._boats = {name: i for i, name in enumerate(comp.boat_names)}
        self._cultures = {name: i for i, name in enumerate(comp.culture_names)}
        self._specialists = {name.lower(): name for name in comp.specialists}
        self._islands = {label.upper(): i for i, label in enumerate(board.island_labels)}
        self._island_label = {i: label for i, label in enumerate(board.island_labels)}
        self._spots = {label.upper(): i for i, label in enumerate(board.spot_labels)}
        self._tiles = {tile_id.upper(): tile_id for tile_id in comp.buildings}
        self._texts = _Texts(self._format)
        self._read: dict[str, Action] = {}
        self._parsers: dict[str, Callable[[list[str]], Action]] = {
            "fleet": self._fleet,
            "buy": lambda w: Action("buy", (self._boat(self._one(w, "buy BOAT")),)),
            "sell": lambda w: Action("sell", (self._boat(self._one(w, "sell BOAT")),)),
            "place": self._place,
            "collect": self._collect,
            "build": self._build,
            "recruit": self._recruit,
            "keep": lambda w: Action("keep", (self._boat_list(w),)),
            "end": self._end,
            "reserve": lambda w: Action("reserve", (self._tile(self._one(w, "reserve TILE")),)),
            "look": self._look,
            "arrange": self._arrange,
            "slide": self._slide,
            "sacred": lambda w: Action("sacred", (self._island(self._one(w, "sacred ISLAND")),)),
            "swap": self._swap,
            "remove": self._remove,
            "raijin": lambda w: Action("raijin", self._boat_pair(w, "raijin BOAT BOAT")),
            "nakatsu": lambda w: Action("nakatsu", self._boat_pair(w, "nakatsu BOAT BOAT")),
            "michimata": lambda w: Action("michimata", (self._culture(self._one(w, "michimata")),)),
            "hetsuka": lambda w: Action("hetsuka", (self._culture(self._one(w, "hetsuka")),)),
            "kachiko": lambda w: Action("kachiko", (self._island(self._one(w, "kachiko")),)),
            "ebisu": lambda w: Action("ebisu", (self._island(self._one(w, "ebisu ISLAND")),)),
        }

    # -- parsing ---------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        """Parse one action; raise InvalidNotation saying which forms exist."""
        # Pure like format: a text read once is read the same again (refusals are not kept).
        action = self._read.get(text)
        if action is None:
            action = self._parse(text)
            if action.kind != "arrange" and len(self._read) < TEXTS_KEPT:
                self._read[text] = action
        return action

    def _parse(self, text: str) -> Action:
        words = text.strip().lower().split()
        if not words:
            raise notation("empty", legal=FORMS)
        parser = self._parsers.get(words[0])
        if parser is None:
            raise notation(
                "unknown_action", legal=FORMS, word=_echo(words[0]), actions=", ".join(FORMS)
            )
        return parser(words[1:])

    def _bad(self, what: str, form: str, **data: object) -> InvalidNotation:
        """Wrong arguments for an action: ``bad_arguments.<what>``, saying the expected form;
        ``verb``: the action's first word, for a reader's text to say the form itself."""
        verb = form.split()[0]
        return notation(f"bad_arguments.{what}", legal=[form], form=form, verb=verb, **data)

    def _one(self, words: list[str], form: str) -> str:
        if len(words) != 1:
            raise self._bad("count", form, count=len(words))
        return words[0]

    def _boat(self, word: str) -> int:
        name = _BOAT_ALIASES.get(word, word)
        if name not in self._boats:
            boats = self.comp.boat_names
            raise notation("unknown_boat", legal=boats, word=_echo(word), boats=", ".join(boats))
        return self._boats[name]

    def _culture(self, word: str) -> int:
        if word not in self._cultures:
            names = self.comp.culture_names
            raise notation(
                "unknown_culture", legal=names, word=_echo(word), cultures=", ".join(names)
            )
        return self._cultures[word]

    def _island(self, word: str) -> int:
        index = self._islands.get(word.upper())
        if index is None:
            labels = self.board.island_labels
            raise notation("unknown_island", word=_echo(word), first=labels[0], last=labels[-1])
        return index

    def _by_label(self, islands: Iterable[int]) -> tuple[int, ...]:
        return tuple(sorted(islands, key=self._island_label.__getitem__))

    def _spot(self, word: str) -> int:
        index = self._spots.get(word.upper())
        if index is None:
            labels = self.board.spot_labels
            raise notation("unknown_spot", word=_echo(word), first=labels[0], last=labels[-1])
        return index

    def _tile(self, word: str) -> str:
        key = word.upper()
        if key[:1] == "#":  # as the picture writes a building tile (``#07`` is ``B07``)
            key = "B" + key[1:]
        if len(key) > 1 and key[0] == "B" and key[1:].isascii() and key[1:].isdigit():
            key = f"B{int(key[1:]):02d}"
        if key not in self._tiles:
            raise notation("unknown_tile", word=_echo(word))
        return self._tiles[key]

    def _fleet(self, words: list[str]) -> Action:
        form = "fleet N (fleet 10 BOAT for the third boat)"
        if not words or len(words) > 2 or not (words[0].isascii() and words[0].isdigit()):
            raise self._bad("fleet", form)
        number = int(words[0])
        if number not in self.comp.fleets:
            raise notation("unknown_fleet", word=_echo(words[0]), count=len(self.comp.fleets))
        extra = self._boat(words[1]) if len(words) == 2 else -1
        return Action("fleet", (number, extra))

    def _place(self, words: list[str]) -> Action:
        if len(words) != 2:
            raise self._bad("place", "place BOAT SPOT")
        return Action("place", (self._boat(words[0]), self._spot(words[1])))

    def _collect(self, words: list[str]) -> Action:
        if not words:
            raise self._bad("collect", "collect ISLAND...")
        return Action("collect", (self._by_label(self._island(w) for w in words),))

    def _build(self, words: list[str]) -> Action:
        if len(words) != 2:
            raise self._bad("build", "build TILE ISLAND")
        return Action("build", (self._tile(words[0]), self._island(words[1])))

    def _recruit(self, words: list[str]) -> Action:
        form = "recruit SPECIALIST CULTURE CULTURE [CULTURE]"
        if not words:
            raise self._bad("recruit", form)
        name, rest = self._specialist(words)
        if len(rest) not in (2, 3):
            raise self._bad("payment", form)
        return Action("recruit", (name, tuple(sorted(self._culture(w) for w in rest))))

    def _specialist(self, words: list[str]) -> tuple[str, list[str]]:
        for take in (2, 1):
            key = "-".join(words[:take]).replace("_", "-")
            key = _SPECIALIST_ALIASES.get(key.replace("-", ""), key)
            key = _SPECIALIST_ALIASES.get(key, key)
            if key in self._specialists and len(words) >= take:
                return self._specialists[key], words[take:]
        names = list(self.comp.specialists)
        raise notation(
            "unknown_specialist", legal=names, word=_echo(words[0]), specialists=", ".join(names)
        )

    def _boat_list(self, words: list[str]) -> tuple[int, ...]:
        return tuple(sorted(self._boat(w) for w in words))

    def _end(self, words: list[str]) -> Action:
        # 'end keep BOAT...' is the harbor and the end in one: the form of games begun under the
        # old step order (recruit, then harbor), still read so their logs replay.
        if not words:
            return Action("end", ((),))
        if words[0] != "keep":
            raise self._bad("end", "end")
        return Action("end", (self._boat_list(words[1:]),))

    def _look(self, words: list[str]) -> Action:
        if words:
            raise self._bad("look", "look")
        return Action("look")

    def _arrange(self, words: list[str]) -> Action:
        text = " ".join(words).replace("/", " / ").split()
        if text.count("/") > 1:
            raise self._bad("arrange_slash", "arrange TOP... / BOTTOM...")
        cut = text.index("/") if "/" in text else len(text)
        top = tuple(self._tile(w) for w in text[:cut])
        bottom = tuple(self._tile(w) for w in text[cut + 1 :])
        if not top and not bottom:
            raise self._bad("arrange", "arrange TOP... / BOTTOM...")
        return Action("arrange", (top, bottom))

    def _slide(self, words: list[str]) -> Action:
        if len(words) != 2:
            raise self._bad("slide", "slide SPOT SPOT")
        return Action("slide", (self._spot(words[0]), self._spot(words[1])))

    def _swap(self, words: list[str]) -> Action:
        if len(words) == 3 and words[0] in ("tokens", "token"):
            return Action(
                "swap_tokens", self._by_label((self._island(words[1]), self._island(words[2])))
            )
        if len(words) == 3 and words[0] in ("boats", "boat"):
            pair = sorted((self._spot(words[1]), self._spot(words[2])))
            return Action("swap_boats", (pair[0], pair[1]))
        raise self._bad("swap", "swap tokens ISLAND ISLAND, or swap boats SPOT SPOT")

    def _remove(self, words: list[str]) -> Action:
        if len(words) not in (1, 2):
            raise self._bad("remove", "remove SPOT [SPOT]")
        return Action("remove", (tuple(sorted(self._spot(w) for w in words)),))

    def _boat_pair(self, words: list[str], form: str) -> tuple[int, int]:
        if len(words) != 2:
            raise self._bad("pair", form)
        pair = sorted(self._boat(w) for w in words)
        return pair[0], pair[1]

    # -- formatting ------------------------------------------------------------------------

    def format(self, action: Action) -> str:
        """The canonical text of an action."""
        return self._texts[action]

    def texts(self, actions: Iterable[Action]) -> list[str]:
        """The canonical texts of actions, in their order (``format`` of each, looked up
        without a Python call per action: a position's legal actions are many)."""
        return list(map(self._texts.__getitem__, actions))

    def _format(self, action: Action) -> str:
        kind, args = action
        boat = self.comp.boat_names
        island = self.board.island_labels
        spot = self.board.spot_labels
        culture = self.comp.culture_names
        if kind == "fleet":
            number, extra = args
            return f"fleet {number}" + (f" {boat[extra]}" if extra >= 0 else "")
        if kind in ("buy", "sell"):
            return f"{kind} {boat[args[0]]}"
        if kind == "place":
            return f"place {boat[args[0]]} {spot[args[1]]}"
        if kind == "collect":
            return "collect " + " ".join(island[i] for i in args[0])
        if kind == "build":
            return f"build {args[0]} {island[args[1]]}"
        if kind == "recruit":
            return f"recruit {args[0]} " + " ".join(culture[c] for c in args[1])
        if kind == "keep":
            return " ".join(["keep", *(boat[b] for b in args[0])])
        if kind == "end":
            kept = " ".join(boat[b] for b in args[0])
            return f"end keep {kept}" if kept else "end"
        if kind == "reserve":
            return f"reserve {args[0]}"
        if kind == "look":
            return "look"
        if kind == "arrange":
            top, bottom = args
            words = ["arrange", *top] + (["/", *bottom] if bottom else [])
            return " ".join(words)
        if kind == "slide":
            return f"slide {spot[args[0]]} {spot[args[1]]}"
        if kind in ("sacred", "kachiko", "ebisu"):
            return f"{kind} {island[args[0]]}"
        if kind == "swap_tokens":
            return f"swap tokens {island[args[0]]} {island[args[1]]}"
        if kind == "remove":
            return "remove " + " ".join(spot[s] for s in args[0])
        if kind == "swap_boats":
            return f"swap boats {spot[args[0]]} {spot[args[1]]}"
        if kind in ("raijin", "nakatsu"):
            return f"{kind} {boat[args[0]]} {boat[args[1]]}"
        if kind in ("michimata", "hetsuka"):
            return f"{kind} {culture[args[0]]}"
        raise ValueError(f"unknown action kind {kind!r}")
