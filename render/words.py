"""The picture's own texts in English, French, Italian and Polish: the shared ones in
``render/locale/<lang>.json``, each game's in its own folder (``render/<game>/locale/``, added by
the registry in ``render/__init__.py``).

The catalog is the bot's (``render.catalog``: plural forms by CLDR category, English fallback),
but strict: a missing id or placeholder raises. The language of the picture being drawn is set
once at each entry point (``speaking``) and read by ``say``; functions whose results are cached
take the language as an argument so that the cache keys include it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from render.catalog import (
    FALLBACK,
    LANGUAGES,
    Catalog,
    base_id,
    euphonic,
    language_of,
    placeholders,
    plural_categories,
)

#: The shared picture texts (not a game's).
DIRECTORY = files("render") / "locale"
#: The folders the picture texts come from: the shared one, then each registered game's.
FOLDERS: list[Traversable] = [DIRECTORY]

_CATALOG = Catalog.load(DIRECTORY)
_LANGUAGE: ContextVar[str] = ContextVar("picture_language", default=FALLBACK)

__all__ = [
    "DIRECTORY",
    "FOLDERS",
    "LANGUAGES",
    "add_texts",
    "base_id",
    "known",
    "language",
    "language_of",
    "placeholders",
    "plural_categories",
    "say",
    "speaking",
    "table",
]


def add_texts(folder: Traversable) -> None:
    """Add a game's picture texts (a folder of ``<lang>.json``)."""
    if folder not in FOLDERS:
        FOLDERS.append(folder)
    _CATALOG.add_folder(folder)


@contextmanager
def speaking(requested: str | None) -> Iterator[str]:
    """Draw the pictures inside the block in a language (unknown -> English)."""
    token = _LANGUAGE.set(language_of(requested))
    try:
        yield _LANGUAGE.get()
    finally:
        _LANGUAGE.reset(token)


def language() -> str:
    """The language of the picture being drawn."""
    return _LANGUAGE.get()


def table(lang: str) -> Mapping[str, str]:
    """A language's texts by id, shared and every registered game's."""
    return _CATALOG.tables.get(lang, {})


def known(key: str) -> bool:
    """Whether the English table has ``key`` (whole or split by number)."""
    return _CATALOG.has(key)


def say(key: str, lang: str | None = None, /, **params: Any) -> str:
    """The text of ``key`` in the picture's language (or ``lang``), formatted; the plural form
    for the ``count`` parameter; English when the language lacks it. A missing id raises."""
    chosen = language_of(lang) if lang else language()
    found = _CATALOG.find(key, chosen, params.get("count"))
    if found is None:
        raise KeyError(f"no picture text {key!r}")
    # a filled-in text joins its parts as the language says ("C3 ed E4"), as the bot's texts do
    return euphonic(found.format(**params), chosen) if params else found.format()
