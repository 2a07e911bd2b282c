"""The bot's message catalog: every user-facing text by a stable id, per locale, English fallback.

The implementation is the one the pictures use too (``render.catalog``: plural forms by CLDR
category, placeholders, fallback). The bot's own texts are the JSON files of this folder; each
presented game brings its texts from the folder its presentation names (``Presentation.locale``,
``bot/games/<game>/locale/<lang>.json``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib.resources import files
from typing import Any

from bot.games import PRESENTATIONS, Presentation
from render.catalog import (
    FALLBACK,
    LANGUAGES,
    PLURAL_CATEGORIES,
    Catalog,
    base_id,
    euphonic,
    placeholders,
    plural_categories,
    plural_category,
)
from render.catalog import language_of as normalize_locale

#: The bot's own texts (not a game's): ``<locale>.json`` files.
DIRECTORY = files(__name__)
#: Locales the catalog is ready for (a JSON file each; missing ids fall back to English).
LOCALES = LANGUAGES

__all__ = [
    "DIRECTORY",
    "FALLBACK",
    "LOCALES",
    "PLURAL_CATEGORIES",
    "BotCatalog",
    "Catalog",
    "base_id",
    "catalog_of",
    "default_catalog",
    "normalize_locale",
    "placeholders",
    "plural_categories",
    "plural_category",
]


class BotCatalog(Catalog):
    """The catalog whose texts join words as each language does once filled in (Italian
    "C3 ed E4", not "C3 e E4": a join's next word is often a parameter)."""

    def text(self, key: str, locale: str | None = None, /, **params: Any) -> str:
        """The formatted text for an id (``Catalog.text``), its joins said right."""
        return euphonic(super().text(key, locale, **params), normalize_locale(locale))


def catalog_of(presentations: Iterable[Presentation]) -> Catalog:
    """The bot's own texts and those of these games, read from their folders."""
    return BotCatalog.load(DIRECTORY, *(p.locale for p in presentations))


@cache
def default_catalog() -> Catalog:
    """The catalog of the bot and every presented game (loaded once; a game registered later
    adds its texts with ``default_catalog().add_folder(...)``)."""
    return catalog_of(PRESENTATIONS.values())
