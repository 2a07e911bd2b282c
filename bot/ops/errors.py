"""Error reports to Sentry (``SENTRY_DSN``): unexpected errors, without anything of a player's.

``sentry-sdk`` with its logging, asyncio and aiohttp integrations: a record logged at ERROR
(an interaction that failed unexpectedly, a task that died) becomes an event, with the records
before it as breadcrumbs. What leaves the process is scrubbed first (``scrub``): the log
message's template without its values (names, ids and typed text are values), exceptions by
type and stack without their message, no local variables, no request (a web page's address is
a secret), no user; the work's context (guild, channel, game, command or click: ids and names
of commands) as tags. No performance tracing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from importlib import metadata
from typing import Any

import sentry_sdk
from sentry_sdk.integrations.aiohttp import AioHttpIntegration
from sentry_sdk.integrations.asyncio import AsyncioIntegration
from sentry_sdk.integrations.logging import LoggingIntegration
from sentry_sdk.transport import Transport

from bot.ops.logs import current_context

__all__ = ["scrub", "scrub_breadcrumb", "start_error_reports"]

#: An exception's message is replaced by this (it may quote a player's name or words).
REMOVED = "[removed]"
#: The event fields that may carry what a player wrote or who they are.
_DROPPED = ("request", "user", "extra", "message")
#: The context fields sent as tags (ids and command names only).
_TAGS = ("guild", "channel", "game", "command", "click")


def _release() -> str | None:
    try:
        return f"himiko@{metadata.version('himiko')}"
    except metadata.PackageNotFoundError:
        return None


def scrub(event: dict[str, Any], hint: Mapping[str, Any]) -> dict[str, Any]:
    """The event without player data: see the module's docstring (Sentry's ``before_send``)."""
    for key in _DROPPED:
        event.pop(key, None)
    entry = event.get("logentry")
    if isinstance(entry, dict):
        event["logentry"] = {"message": str(entry.get("message", ""))}
    for exception in (event.get("exception") or {}).get("values") or []:
        if exception.get("value"):
            exception["value"] = REMOVED
    tags = event.setdefault("tags", {})
    for key, value in current_context().items():
        if key in _TAGS:
            tags[key] = str(value)
    return event


def scrub_breadcrumb(crumb: dict[str, Any], hint: Mapping[str, Any]) -> dict[str, Any]:
    """A breadcrumb as its log message's template, without values (``before_breadcrumb``)."""
    record = hint.get("log_record")
    if isinstance(record, logging.LogRecord):
        crumb["message"] = str(record.msg)
    crumb.pop("data", None)
    return crumb


def start_error_reports(dsn: str, *, transport: Transport | None = None) -> None:
    """Report unexpected errors to ``dsn`` from now on (inside the running event loop, which
    the asyncio integration watches); ``transport``: where events go instead (tests)."""
    sentry_sdk.init(
        dsn=dsn,
        transport=transport,
        release=_release(),
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        integrations=[
            LoggingIntegration(level=logging.INFO, event_level=logging.ERROR),
            AsyncioIntegration(),
            AioHttpIntegration(),
        ],
        before_send=scrub,  # type: ignore[arg-type]
        before_breadcrumb=scrub_breadcrumb,
    )


def stop_error_reports() -> None:
    """Send what is queued (a few seconds at most) and report nothing more."""
    client = sentry_sdk.get_client()
    if client.is_active():
        client.close(timeout=2.0)
