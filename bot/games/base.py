"""Small shared pieces of the games' presentations."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: A catalog lookup bound to a locale: ``t(key, **params)``.
Texts = Callable[..., str]


def counted(t: Texts, key: str, count: int, **params: Any) -> str:
    """The text of ``key`` in the plural form for ``count`` (see bot.catalog)."""
    return t(key, count=count, **params)


def listed(items: list[str]) -> str:
    """Items as a comma-separated list."""
    return ", ".join(items)


def joined(t: Texts, items: Sequence[str], conjunction: str = "and") -> str:
    """Items as a list in words: ``A2, B4 and C1`` (``summary.and``, or ``summary.or``)."""
    if len(items) < 2:
        return "".join(items)
    return t(f"summary.{conjunction}", items=", ".join(items[:-1]), last=items[-1])
