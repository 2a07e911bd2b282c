"""Refusal sentences by stable key: the engine's English text and the data a translation needs.

Each game lists its refusals in ``data/refusals.json`` (key -> English template with named
placeholders); the match's own refusals are in ``engine/data/refusals.json``. A key is
``<reason>`` or ``<reason>.<variant>`` when one reason has several sentences, so the error's
``reason`` stays the stable code it always was. The bot shows ``<game>.refusal.<key>`` (or
``refusal.<key>`` for the match's own) from its catalog, with the same placeholders.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import TypeVar

from engine.errors import EngineError, IllegalAction, InvalidNotation

E = TypeVar("E", bound=EngineError)


class Refusals:
    """One game's refusal sentences (``game`` None: the match's own, shared by every game)."""

    def __init__(self, game: str | None, texts: Mapping[str, str]) -> None:
        self.game = game
        self.texts = dict(texts)

    @classmethod
    def load(cls, game: str | None, package: str) -> Refusals:
        """The sentences in a package's ``data/refusals.json``."""
        text = resources.files(package).joinpath("data/refusals.json").read_text("utf-8")
        data: dict[str, str] = json.loads(text)
        return cls(game, {k: v for k, v in data.items() if not k.startswith("_")})

    def make(self, cls: type[E], key: str, /, *, legal: Sequence[str] = (), **data: object) -> E:
        """An error of class ``cls`` for a registered key, its English text filled from ``data``."""
        message = self.texts[key].format(**data)
        reason = key.partition(".")[0]
        return cls(message, reason=reason, legal=legal, data=data, key=key, game=self.game)

    def illegal(self, key: str, /, **data: object) -> IllegalAction:
        """An IllegalAction for a registered key."""
        return self.make(IllegalAction, key, legal=(), **data)

    def notation(
        self, key: str, /, *, legal: Sequence[str] = (), **data: object
    ) -> InvalidNotation:
        """An InvalidNotation for a registered key."""
        return self.make(InvalidNotation, key, legal=legal, **data)


#: The refusals of the match itself (sequences, turns, undo, setup), the same in every game.
MATCH = Refusals.load(None, "engine")
