"""The message catalog: every user-facing text by a stable id, per locale, English fallback.

A text that depends on a number is written once per CLDR plural category of its language, as
``<id>_one``, ``<id>_few``, ``<id>_many``, ``<id>_other`` (the i18next convention; Polish uses all
four, English and French ``one`` and ``other``); ``text(id, locale, count=n)`` picks the form with
Babel's plural rules. Any language may split a text that another keeps whole.
"""

from __future__ import annotations

import json
import logging
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

log = logging.getLogger(__name__)

DIRECTORY = Path(__file__).resolve().parent
FALLBACK = "en"
#: Locales the catalog is ready for (a JSON file each; missing ids fall back to English).
LOCALES = ("en", "fr", "it", "pl")
#: The CLDR plural categories, the suffixes of a text's plural forms.
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


class _Keep(dict[str, Any]):
    """format_map helper: an unknown placeholder stays as written instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def placeholders(text: str) -> set[str]:
    """The named placeholders of a format string."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@cache
def plural_categories(locale: str) -> frozenset[str]:
    """The plural categories a language's texts must cover (always including ``other``)."""
    return Locale.parse(locale).plural_form.tags | {"other"}


def plural_category(locale: str, count: float) -> str:
    """The CLDR plural category of ``count`` in a language (``one``, ``few``, ``many``...)."""
    return str(Locale.parse(locale).plural_form(abs(count)))


def base_id(key: str) -> str:
    """The id a plural form belongs to: ``x.boats_few`` -> ``x.boats``; other ids unchanged."""
    stem, _, suffix = key.rpartition("_")
    return stem if stem and suffix in PLURAL_CATEGORIES else key


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
        """Whether the English table has this id (whole or as plural forms)."""
        english = self.tables[FALLBACK]
        return key in english or f"{key}_other" in english

    def _find(self, key: str, locale: str, count: Any) -> str | None:
        """The text of an id in one locale's table, its plural form for ``count`` if split."""
        table = self.tables.get(locale, {})
        if key in table:
            return table[key]
        if isinstance(count, int | float) and not isinstance(count, bool):
            form = table.get(f"{key}_{plural_category(locale, count)}")
            if form is not None:
                return form
        return table.get(f"{key}_other")

    def raw(self, key: str, locale: str | None = None, count: Any = None) -> str:
        """The unformatted text for an id in a locale, falling back to English, then the id."""
        found = self._find(key, normalize_locale(locale), count)
        if found is None:
            found = self._find(key, FALLBACK, count)
        if found is None:
            log.warning("message id %r is missing from the catalog", key)
            return key
        return found

    def text(self, key: str, locale: str | None = None, /, **params: Any) -> str:
        """The formatted text for an id (its plural form for the ``count`` parameter, if any)."""
        return self.raw(key, locale, params.get("count")).format_map(_Keep(params))


@cache
def default_catalog() -> Catalog:
    """The catalog shipped with the bot (loaded once)."""
    return Catalog.load()
