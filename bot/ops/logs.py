"""The log: text for people (as discord.py sets it up) or JSON lines for a log system.

``LOG_FORMAT=json`` writes one JSON object a line on stderr (``python-json-logger``): the time,
level, logger and message, the traceback if any, and the context of the work under way where
known: the guild, channel, game, command or click, and for an answered interaction its duration
and outcome. The context is set with ``log_context`` around a piece of work (an interaction, a
thread message); it follows the work's task and the tasks it starts (a ``ContextVar``), never
another's. Ids only: no player's name and nothing a player typed is a field.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

import discord
from pythonjsonlogger.json import JsonFormatter

__all__ = ["ContextFields", "JsonLines", "configure_logging", "current_context", "log_context"]

#: The context of the work under way: field name -> value (ids, names of commands, numbers).
_CONTEXT: ContextVar[Mapping[str, object]] = ContextVar(
    "himiko_log_context", default=MappingProxyType({})
)
#: The fields a context may carry (the only extra keys ``ContextFields`` adds to a record).
CONTEXT_FIELDS = (
    "guild",
    "channel",
    "game",
    "command",
    "click",
    "outcome",
    "duration_ms",
)


@contextmanager
def log_context(**fields: object) -> Iterator[None]:
    """Add ``fields`` (None values left out) to the context of every record logged inside."""
    unknown = set(fields) - set(CONTEXT_FIELDS)
    if unknown:
        raise ValueError(f"unknown log context fields: {sorted(unknown)}")
    added = {k: v for k, v in fields.items() if v is not None}
    token = _CONTEXT.set({**_CONTEXT.get(), **added})
    try:
        yield
    finally:
        _CONTEXT.reset(token)


def current_context() -> Mapping[str, object]:
    """The context of the work under way (empty outside any)."""
    return _CONTEXT.get()


class ContextFields(logging.Filter):
    """Copies the current context onto each record (fields a record already has win)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Add the context's fields; keep the record."""
        for key, value in _CONTEXT.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class JsonLines(JsonFormatter):
    """One JSON object a line: time, level, logger, message, the context, the traceback."""

    def __init__(self) -> None:
        super().__init__(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",
        )

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        """The fields, the traceback as the token filter left it (``exc_text``: redacted)."""
        super().add_fields(log_data, record, message_dict)
        if record.exc_text:
            log_data["exc_info"] = record.exc_text


def configure_logging(level: str, log_format: str) -> None:
    """Set up the root logger: discord.py's text format, or JSON lines (``log_format``)."""
    if log_format != "json":
        discord.utils.setup_logging(level=getattr(logging, level), root=True)
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    handler.addFilter(ContextFields())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level))
