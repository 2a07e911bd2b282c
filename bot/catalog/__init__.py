"""The message catalog: every user-facing text by a stable id, per locale, English fallback."""

from __future__ import annotations

import json
import logging
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

DIRECTORY = Path(__file__).resolve().parent
FALLBACK = "en"
#: Locales the catalog is ready for (a JSON file each; missing ids fall back to English).
LOCALES = ("en", "fr", "it", "pl")


class _Keep(dict[str, Any]):
    """format_map helper: an unknown placeholder stays as written instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def placeholders(text: str) -> set[str]:
    """The named placeholders of a format string."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def normalize_locale(locale: str | None) -> str:
    """``en-US`` -> ``en``, ``pl`` -> ``pl``; unknown or None -> the fallback."""
    if not locale:
        return FALLBACK
    short = str(locale).replace("_", "-").split("-")[0].lower()
    return short if short in LOCALES else FALLBACK


class Catalog:
    """Texts per locale; ``text(id, locale, **params)`` formats the best available one."""

    def __init__(self, tables: Mapping[str, Mapping[str, str]]) -> None:
        if FALLBACK not in tables:
            raise ValueError("the catalog needs an English table")
        self.tables = {locale: dict(table) for locale, table in tables.items()}

    @classmethod
    def load(cls, directory: Path = DIRECTORY) -> Catalog:
        """Read every ``<locale>.json`` file of the directory."""
        tables: dict[str, dict[str, str]] = {}
        for path in sorted(directory.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            tables[path.stem] = {str(k): str(v) for k, v in data.items() if not k.startswith("_")}
        return cls(tables)

    def add(self, locale: str, texts: Mapping[str, str]) -> None:
        """Add texts to a locale (a game registered outside the shipped catalog brings its own)."""
        self.tables.setdefault(locale, {}).update(texts)

    def has(self, key: str) -> bool:
        """Whether the English table has this id."""
        return key in self.tables[FALLBACK]

    def raw(self, key: str, locale: str | None = None) -> str:
        """The unformatted text for an id in a locale, falling back to English, then the id."""
        table = self.tables.get(normalize_locale(locale), {})
        if key in table:
            return table[key]
        english = self.tables[FALLBACK]
        if key in english:
            return english[key]
        log.warning("message id %r is missing from the catalog", key)
        return key

    def text(self, key: str, locale: str | None = None, /, **params: Any) -> str:
        """The formatted text for an id."""
        return self.raw(key, locale).format_map(_Keep(params))


@cache
def default_catalog() -> Catalog:
    """The catalog shipped with the bot (loaded once)."""
    return Catalog.load()
