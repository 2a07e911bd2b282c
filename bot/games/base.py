"""Small shared pieces of the games' presentations."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Event = Mapping[str, Any]
#: A catalog lookup bound to a locale: ``t(key, **params)``.
Texts = Callable[..., str]


def counted(t: Texts, key: str, count: int, **params: Any) -> str:
    """The text of ``key`` in the plural form for ``count`` (see bot.catalog)."""
    return t(key, count=count, **params)


def listed(items: list[str]) -> str:
    """Items as a comma-separated list."""
    return ", ".join(items)
