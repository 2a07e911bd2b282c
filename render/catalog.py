"""The one catalog of texts by id, per language, English fallback: the bot's messages
(``bot.catalog``) and the pictures' texts (``render.words``) are two instances of it.

Texts are JSON files, one per language (``<lang>.json``) in a folder; the shared texts of a layer
and each game's own texts live in different folders (``bot/catalog/``, ``bot/games/<game>/locale/``,
``render/locale/``, ``render/<game>/locale/``) and are merged into one catalog. Ids starting with
``_`` are notes for translators.

A text that depends on a number is written once per CLDR plural category of its language, as
``<id>_one``, ``<id>_few``, ``<id>_many``, ``<id>_other`` (the i18next convention; Polish uses all
four, English and French ``one`` and ``other``); Babel's plural rules pick the form for the
``count`` parameter. Any language may split a text that another keeps whole.
"""

from __future__ import annotations

import json
import logging
import re
import string
from collections.abc import Mapping
from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

from babel import Locale

log = logging.getLogger(__name__)

FALLBACK = "en"
#: The languages Himiko speaks (a JSON file each; missing ids fall back to English).
LANGUAGES = ("en", "fr", "it", "pl")
#: The CLDR plural categories, the suffixes of a text's plural forms.
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")

__all__ = [
    "FALLBACK",
    "LANGUAGES",
    "PLURAL_CATEGORIES",
    "Catalog",
    "base_id",
    "euphonic",
    "language_of",
    "placeholders",
    "plural_categories",
    "plural_category",
    "read_folder",
]


#: Italian's "e" before a word that begins with "e", said "ed" ("C3 ed E4", "Ann ed Emma").
ITALIAN_AND = re.compile(r"(?<![\w'\u2019])e (?=[eEèéÈÉ])")


def euphonic(text: str, language: str) -> str:
    """``text`` with its joins as the language says them: Italian "e" before an "e" is "ed"."""
    return ITALIAN_AND.sub("ed ", text) if language == "it" else text


class _Keep(dict[str, Any]):
    """format_map helper: an unknown placeholder stays as written instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def placeholders(text: str) -> set[str]:
    """The named placeholders of a format string."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@cache
def plural_categories(lang: str) -> frozenset[str]:
    """The plural categories a language's texts must cover (always including ``other``)."""
    return frozenset(Locale.parse(lang).plural_form.tags | {"other"})


def plural_category(lang: str, count: float) -> str:
    """The CLDR plural category of ``count`` in a language (``one``, ``few``, ``many``...)."""
    return str(Locale.parse(lang).plural_form(abs(count)))


def base_id(key: str) -> str:
    """The id a plural form belongs to: ``x.boats_few`` -> ``x.boats``; other ids unchanged."""
    stem, _, suffix = key.rpartition("_")
    return stem if stem and suffix in PLURAL_CATEGORIES else key


def language_of(requested: str | None) -> str:
    """``fr-FR`` -> ``fr``, ``pl`` -> ``pl``; an unknown or missing language -> English."""
    short = str(requested or "").replace("_", "-").split("-")[0].lower()
    return short if short in LANGUAGES else FALLBACK


def read_folder(folder: Traversable) -> dict[str, dict[str, str]]:
    """Every ``<lang>.json`` table of a folder, by language, without the translators' notes."""
    tables: dict[str, dict[str, str]] = {}
    files = [f for f in folder.iterdir() if f.name.endswith(".json")]
    for path in sorted(files, key=lambda f: f.name):
        data = json.loads(path.read_text(encoding="utf-8"))
        texts = {str(k): str(v) for k, v in data.items() if not str(k).startswith("_")}
        tables[path.name.removesuffix(".json")] = texts
    return tables


class Catalog:
    """Texts per language; ``find`` gives the best one or None, ``text`` formats it leniently."""

    def __init__(self, tables: Mapping[str, Mapping[str, str]]) -> None:
        if FALLBACK not in tables:
            raise ValueError("the catalog needs an English table")
        self.tables = {lang: dict(table) for lang, table in tables.items()}

    @classmethod
    def load(cls, *folders: Traversable) -> Catalog:
        """The tables of the folders, merged in order (a later folder's id wins)."""
        catalog = cls({FALLBACK: {}})
        for folder in folders:
            catalog.add_folder(folder)
        return catalog

    def add(self, lang: str, texts: Mapping[str, str]) -> None:
        """Add texts to a language (a game registered outside the shipped ones brings its own)."""
        self.tables.setdefault(lang, {}).update(texts)

    def add_folder(self, folder: Traversable) -> None:
        """Add every table of a folder (a game's own texts)."""
        for lang, texts in read_folder(folder).items():
            self.add(lang, texts)

    def has(self, key: str) -> bool:
        """Whether the English table has this id (whole or as plural forms)."""
        english = self.tables[FALLBACK]
        return key in english or f"{key}_other" in english

    def _find(self, key: str, lang: str, count: Any) -> str | None:
        """The text of an id in one language's table, its plural form for ``count`` if split."""
        table = self.tables.get(lang, {})
        if key in table:
            return table[key]
        if isinstance(count, int | float) and not isinstance(count, bool):
            form = table.get(f"{key}_{plural_category(lang, count)}")
            if form is not None:
                return form
        return table.get(f"{key}_other")

    def find(self, key: str, lang: str | None = None, count: Any = None) -> str | None:
        """The unformatted text of an id in a language, else in English, else None."""
        chosen = lang if lang in LANGUAGES else language_of(lang)  # most calls: already short
        found = self._find(key, chosen, count)
        return found if found is not None else self._find(key, FALLBACK, count)

    def raw(self, key: str, locale: str | None = None, count: Any = None) -> str:
        """The unformatted text for an id in a locale, falling back to English, then the id."""
        found = self.find(key, locale, count)
        if found is None:
            log.warning("message id %r is missing from the catalog", key)
            return key
        return found

    def text(self, key: str, locale: str | None = None, /, **params: Any) -> str:
        """The formatted text for an id (its plural form for the ``count`` parameter, if any);
        a missing id gives the id, a missing placeholder stays as written."""
        return self.raw(key, locale, params.get("count")).format_map(_Keep(params))
