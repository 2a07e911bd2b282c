"""The web server's settings: WEB_PORT (none: no server), WEB_HOST, WEB_SECRET, WEB_BASE_URL,
WEB_MAX_CONNECTIONS, WEB_REQUEST_TIMEOUT_S."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

DEFAULT_HOST = "127.0.0.1"
MIN_SECRET = 16  # characters: the addresses are only as unguessable as the secret
MAX_CONNECTIONS = 256  # open at once: well under the 1,024 files a process gets by default
REQUEST_TIMEOUT = 10.0  # seconds for a request to arrive whole (and for an idle keep-alive)


class WebSettingsError(ValueError):
    """A web setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class WebConfig:
    """Where the web pages are served and how their addresses are signed."""

    port: int
    secret: str = field(repr=False)
    host: str = DEFAULT_HOST
    base_url: str | None = None  # the public address in links (behind a reverse proxy)
    max_connections: int = MAX_CONNECTIONS  # WEB_MAX_CONNECTIONS; more are refused with a 503
    request_timeout: float = REQUEST_TIMEOUT  # WEB_REQUEST_TIMEOUT_S

    @property
    def public_url(self) -> str:
        """The address links start with: WEB_BASE_URL, else this server's own."""
        if self.base_url is not None:
            return self.base_url
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def web_config(get: Callable[[str], str | None]) -> WebConfig | None:
    """The web settings from ``get(NAME)`` (None when unset), or None without WEB_PORT."""
    port_text = get("WEB_PORT")
    if port_text is None:
        return None
    try:
        port = int(port_text)
    except ValueError:
        raise WebSettingsError(f"WEB_PORT must be a port number, not {port_text!r}.") from None
    if not 1 <= port <= 65535:
        raise WebSettingsError(f"WEB_PORT must be between 1 and 65535, not {port}.")
    secret = get("WEB_SECRET")
    if secret is None:
        raise WebSettingsError(
            "WEB_PORT is set but WEB_SECRET is not: set WEB_SECRET to a long random text "
            "(e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(32))'); it signs "
            "the web pages' addresses."
        )
    if len(secret) < MIN_SECRET:
        raise WebSettingsError(f"WEB_SECRET must be at least {MIN_SECRET} characters long.")
    base = get("WEB_BASE_URL")
    if base is not None and not base.startswith(("http://", "https://")):
        raise WebSettingsError(f"WEB_BASE_URL must start with http:// or https://, not {base!r}.")
    host = get("WEB_HOST") or DEFAULT_HOST
    cap_text = get("WEB_MAX_CONNECTIONS") or str(MAX_CONNECTIONS)
    if not cap_text.isdigit() or not 1 <= int(cap_text) <= 100_000:
        raise WebSettingsError(
            f"WEB_MAX_CONNECTIONS must be a number from 1 to 100000, not {cap_text!r}."
        )
    return WebConfig(
        port,
        secret,
        host,
        None if base is None else base.rstrip("/"),
        max_connections=int(cap_text),
        request_timeout=_request_timeout(get("WEB_REQUEST_TIMEOUT_S")),
    )


def _request_timeout(text: str | None) -> float:
    """WEB_REQUEST_TIMEOUT_S: seconds for a request to arrive whole (0.5-3600, default 10)."""
    if text is None:
        return REQUEST_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0.5 <= seconds <= 3600:  # also false for nan
        raise WebSettingsError(
            f"WEB_REQUEST_TIMEOUT_S must be a number of seconds from 0.5 to 3600, not {text!r}."
        )
    return seconds
