"""The picture's own texts in English, French, Italian and Polish (``render/locale/<lang>.json``).

Same convention as the bot's catalog (render may not import ``bot``): a text that depends on a
number is written once per CLDR plural category of its language, ``<id>_one``, ``<id>_few``,
``<id>_many``, ``<id>_other``, and Babel picks the form. The language of the picture being drawn
is set once at each entry point (``speaking``) and read by ``say``; functions whose results are
cached take the language as an argument so that the cache keys include it.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

DIRECTORY = Path(__file__).resolve().parent / "locale"
FALLBACK = "en"
LANGUAGES = ("en", "fr", "it", "pl")
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")

_LANGUAGE: ContextVar[str] = ContextVar("picture_language", default=FALLBACK)

__all__ = [
    "LANGUAGES",
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


def language_of(requested: str | None) -> str:
    """``fr-FR`` -> ``fr``; an unknown or missing language -> English."""
    short = str(requested or "").replace("_", "-").split("-")[0].lower()
    return short if short in LANGUAGES else FALLBACK


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


@cache
def table(lang: str) -> Mapping[str, str]:
    """A language's texts by id (ids starting with ``_`` are notes for translators)."""
    data = json.loads((DIRECTORY / f"{lang}.json").read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items() if not k.startswith("_")}


@cache
def plural_categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories a language's texts must cover (always with ``other``)."""
    return frozenset(Locale.parse(lang).plural_form.tags | {"other"})


def base_id(key: str) -> str:
    """The id a plural form belongs to: ``x.boats_few`` -> ``x.boats``."""
    stem, _, suffix = key.rpartition("_")
    return stem if stem and suffix in PLURAL_CATEGORIES else key


def placeholders(text: str) -> set[str]:
    """The named placeholders of a text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _raw(key: str, lang: str, count: Any) -> str | None:
    texts = table(lang)
    if key in texts:
        return texts[key]
    if isinstance(count, int) and not isinstance(count, bool):
        form = texts.get(f"{key}_{Locale.parse(lang).plural_form(abs(count))}")
        if form is not None:
            return form
    return texts.get(f"{key}_other")


@cache
def _ids(lang: str) -> frozenset[str]:
    return frozenset(base_id(k) for k in table(lang))


def known(key: str) -> bool:
    """Whether the English table has ``key`` (whole or split by number)."""
    return key in _ids(FALLBACK)


def say(key: str, lang: str | None = None, /, **params: Any) -> str:
    """The text of ``key`` in the picture's language (or ``lang``), formatted; the plural form
    for the ``count`` parameter; English when the language lacks it. A missing id raises."""
    chosen = lang or language()
    found = _raw(key, chosen, params.get("count"))
    if found is None:
        found = _raw(key, FALLBACK, params.get("count"))
    if found is None:
        raise KeyError(f"no picture text {key!r}")
    return found.format(**params)
