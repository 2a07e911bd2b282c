"""The operations settings: METRICS_PORT, METRICS_HOST, LOG_FORMAT, SENTRY_DSN (all optional)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

DEFAULT_METRICS_HOST = "127.0.0.1"
LOG_FORMATS = ("text", "json")


class OpsSettingsError(ValueError):
    """An operations setting is malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class MetricsConfig:
    """Where ``/healthz``, ``/readyz`` and ``/metrics`` are served (port 0: any free one)."""

    port: int
    host: str = DEFAULT_METRICS_HOST


@dataclass(frozen=True)
class OpsConfig:
    """The operations kit's settings; the defaults change nothing in how the bot runs."""

    #: METRICS_PORT and METRICS_HOST: the health and metrics server (None: none).
    metrics: MetricsConfig | None = None
    #: LOG_FORMAT: ``text`` (people) or ``json`` (one object a line, for a log system).
    log_format: str = "text"
    #: SENTRY_DSN: where unexpected errors are reported (None: nowhere).
    sentry_dsn: str | None = field(default=None, repr=False)

    @property
    def json_logs(self) -> bool:
        """Whether the log is written as JSON lines."""
        return self.log_format == "json"


def ops_config(get: Callable[[str], str | None]) -> OpsConfig:
    """The operations settings from ``get(NAME)`` (None when unset)."""
    return OpsConfig(
        metrics=_metrics(get("METRICS_PORT"), get("METRICS_HOST")),
        log_format=_log_format(get("LOG_FORMAT")),
        sentry_dsn=_sentry_dsn(get("SENTRY_DSN")),
    )


def _metrics(port_text: str | None, host: str | None) -> MetricsConfig | None:
    if port_text is None:
        if host is not None:
            raise OpsSettingsError(
                "METRICS_HOST is set but METRICS_PORT is not: set METRICS_PORT (e.g. 9100) to "
                "serve /healthz, /readyz and /metrics, or remove METRICS_HOST."
            )
        return None
    try:
        port = int(port_text)
    except ValueError:
        raise OpsSettingsError(f"METRICS_PORT must be a port number, not {port_text!r}.") from None
    if not 1 <= port <= 65535:
        raise OpsSettingsError(f"METRICS_PORT must be between 1 and 65535, not {port}.")
    return MetricsConfig(port, host or DEFAULT_METRICS_HOST)


def _log_format(value: str | None) -> str:
    chosen = (value or "text").lower()
    if chosen not in LOG_FORMATS:
        raise OpsSettingsError(f"LOG_FORMAT must be text or json, not {value!r}.")
    return chosen


def _sentry_dsn(value: str | None) -> str | None:
    if value is None:
        return None
    from sentry_sdk.utils import BadDsn, Dsn

    try:
        Dsn(value)
    except BadDsn as error:
        # the DSN itself is not repeated: it is a credential of the Sentry project
        raise OpsSettingsError(
            f"SENTRY_DSN is not a Sentry DSN ({error}); copy it again from the Sentry "
            "project's settings (Client Keys), e.g. https://KEY@o1.ingest.sentry.io/123."
        ) from None
    return value
