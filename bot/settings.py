"""Settings from the environment and an optional ``.env`` file (the environment wins)."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.store import Shards

from bot.ops.config import OpsConfig, OpsSettingsError, ops_config
from bot.web.config import WebConfig, WebSettingsError, web_config
from bot.workers.render_pool import default_processes
from bot.workers.think_pool import DEFAULT_PROCESSES as DEFAULT_THINK_PROCESSES

DEFAULT_DATABASE = "himiko.sqlite3"
DEFAULT_COMPUTER_PAUSE = 2.0
DEFAULT_SCHEDULER_INTERVAL = 30.0
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: EVENT_LOOP: ``uvloop`` where it is installed (Linux, macOS), else asyncio's own (D135).
EVENT_LOOPS = ("auto", "uvloop", "asyncio")


class SettingsError(Exception):
    """A setting is missing or malformed; ``message`` says which and how to fix it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Settings:
    """Everything the bot needs to start. The token is never shown in repr or logs."""

    token: str = field(repr=False)
    database_path: Path = Path(DEFAULT_DATABASE)
    #: A ``postgresql://`` URL: PostgreSQL instead of the SQLite file (DATABASE_URL).
    database_url: str | None = field(default=None, repr=False)
    log_level: str = "INFO"
    #: EVENT_LOOP: ``auto`` (uvloop if installed), ``uvloop`` (required) or ``asyncio``.
    event_loop: str = "auto"
    dev_guild_id: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    computer_pause: float = DEFAULT_COMPUTER_PAUSE
    sync_commands: bool = True
    scheduler_interval: float = DEFAULT_SCHEDULER_INTERVAL
    #: Worker processes drawing pictures (RENDER_PROCESSES; 0: a thread of the bot's process).
    #: ``load_settings`` defaults to the CPU count less one (1 to 4); built directly, 0.
    render_processes: int = 0
    #: Worker processes where computer players decide (THINK_PROCESSES; 0: a thread of the
    #: bot's process). ``load_settings`` defaults to 1; built directly, 0.
    think_processes: int = 0
    #: THINK_PATIENCE_S: seconds a think worker may give no sign of life before it counts as
    #: hung (killed, the decision made again, D150); None: the pool's default (15 s).
    think_patience: float | None = None
    #: SHARD_COUNT: how many shards the bot has in all (None: no sharding, one process).
    shard_count: int | None = None
    #: SHARD_IDS: the shards this process runs (None: all of them).
    shard_ids: tuple[int, ...] | None = None
    #: WEB_PORT, WEB_HOST, WEB_SECRET, WEB_BASE_URL: the web pages (None: no web server).
    web: WebConfig | None = None
    #: METRICS_PORT, METRICS_HOST, LOG_FORMAT, SENTRY_DSN: health, metrics, logs, error reports.
    ops: OpsConfig = field(default_factory=OpsConfig)

    @property
    def shards(self) -> Shards | None:
        """The shards this process serves (None without sharding: every guild)."""
        if self.shard_count is None:
            return None
        from bot.store import Shards

        ids = range(self.shard_count) if self.shard_ids is None else self.shard_ids
        return Shards(self.shard_count, frozenset(ids))

    @property
    def database(self) -> Path | str:
        """Where the games are stored: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def database_label(self) -> str:
        """The database for messages (a URL without its password)."""
        if self.database_url is None:
            return str(self.database_path)
        from bot.store.postgres import redact

        return redact(self.database_url)


def _database_url(value: str, path: str | None) -> str:
    if path is not None:
        raise SettingsError(
            "Set DATABASE_URL (PostgreSQL) or DATABASE_PATH (SQLite), not both: remove one."
        )
    if not value.startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            "DATABASE_URL must be a PostgreSQL URL, postgresql://USER:PASSWORD@HOST:PORT/DB "
            "(for SQLite set DATABASE_PATH instead)."
        )
    return value


MAX_SHARDS = 4096


def _shards(count: str | None, ids: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS (comma-separated shard numbers from 0 to SHARD_COUNT - 1)."""
    if count is None:
        if ids is not None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all).")
        return None, None
    total = _int("SHARD_COUNT", count)
    if not 1 <= total <= MAX_SHARDS:
        raise SettingsError(f"SHARD_COUNT must be between 1 and {MAX_SHARDS}, not {total}.")
    if ids is None:
        return total, None
    parts = [part.strip() for part in ids.split(",")]
    numbers = [_int("SHARD_IDS", part) for part in parts if part]
    if not numbers or any(not 0 <= n < total for n in numbers):
        raise SettingsError(
            f"SHARD_IDS must list shard numbers from 0 to {total - 1} separated by commas "
            f"(e.g. 0,1), not {ids!r}."
        )
    if len(set(numbers)) != len(numbers):
        raise SettingsError(f"SHARD_IDS lists a shard twice: {ids!r}.")
    return total, tuple(sorted(numbers))


def parse_env_file(text: str) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and ``#`` comments skipped; optional quotes and ``export``."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip()
        if key.startswith("export "):
            key = key[len("export ") :].strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        if key:
            values[key] = value
    return values


def _read_env_file(path: Path | None) -> dict[str, str]:
    if path is None or not path.is_file():
        return {}
    try:
        return parse_env_file(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"Cannot read {path}: {error}") from error


def _int(name: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {value!r}.") from None


def _url(name: str, value: str, schemes: tuple[str, ...]) -> str:
    if not value.startswith(schemes):
        raise SettingsError(f"{name} must start with {' or '.join(schemes)}, not {value!r}.")
    return value.rstrip("/")


def _seconds(name: str, value: str, low: float, high: float) -> float:
    """A number of seconds between ``low`` and ``high``, or a SettingsError naming ``name``."""
    try:
        seconds = float(value)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, not {value!r}.") from None
    if not low <= seconds <= high:
        raise SettingsError(f"{name} must be between {low:g} and {high:g} seconds.")
    return seconds


def _processes(value: str, name: str = "RENDER_PROCESSES", thread: str = "draw") -> int:
    count = _int(name, value)
    if not 0 <= count <= 64:
        raise SettingsError(f"{name} must be between 0 ({thread} in a thread) and 64.")
    return count


def _flag(name: str, value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise SettingsError(f"{name} must be true or false, not {value!r}.")


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Settings:
    """Read settings from ``env_file`` then ``environ`` (default: os.environ), which wins."""
    values = _read_env_file(env_file)
    source = os.environ if environ is None else environ
    values.update({k: v for k, v in source.items() if v.strip()})

    def get(name: str) -> str | None:
        value = values.get(name, "").strip()
        return value or None

    token = get("DISCORD_TOKEN")
    if token is None:
        raise SettingsError(
            "DISCORD_TOKEN is not set. Put the bot token from the Discord developer portal "
            "in the environment or in .env (see .env.example and docs/bot.md)."
        )
    level = (get("LOG_LEVEL") or "INFO").upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
    loop = (get("EVENT_LOOP") or "auto").lower()
    if loop not in EVENT_LOOPS:
        raise SettingsError(f"EVENT_LOOP must be one of {', '.join(EVENT_LOOPS)}, not {loop!r}.")
    guild = get("DEV_GUILD_ID")
    api = get("DISCORD_API_BASE")
    gateway = get("DISCORD_GATEWAY_URL")
    pause = get("COMPUTER_PAUSE")
    sync = get("SYNC_COMMANDS")
    interval = get("SCHEDULER_INTERVAL_S")
    url = get("DATABASE_URL")
    processes = get("RENDER_PROCESSES")
    thinkers = get("THINK_PROCESSES")
    silence = get("THINK_PATIENCE_S")
    shard_count, shard_ids = _shards(get("SHARD_COUNT"), get("SHARD_IDS"))
    try:
        web = web_config(get)
    except WebSettingsError as error:
        raise SettingsError(str(error)) from None
    try:
        ops = ops_config(get)
    except OpsSettingsError as error:
        raise SettingsError(str(error)) from None
    return Settings(
        token=token,
        database_path=Path(get("DATABASE_PATH") or DEFAULT_DATABASE),
        database_url=None if url is None else _database_url(url, get("DATABASE_PATH")),
        log_level=level,
        event_loop=loop,
        dev_guild_id=None if guild is None else _int("DEV_GUILD_ID", guild),
        api_base=None if api is None else _url("DISCORD_API_BASE", api, ("http://", "https://")),
        gateway_url=None
        if gateway is None
        else _url("DISCORD_GATEWAY_URL", gateway, ("ws://", "wss://")),
        computer_pause=DEFAULT_COMPUTER_PAUSE
        if pause is None
        else _seconds("COMPUTER_PAUSE", pause, 0, 60),
        sync_commands=True if sync is None else _flag("SYNC_COMMANDS", sync),
        scheduler_interval=DEFAULT_SCHEDULER_INTERVAL
        if interval is None
        else _seconds("SCHEDULER_INTERVAL_S", interval, 0.01, 3600),
        render_processes=default_processes() if processes is None else _processes(processes),
        think_processes=DEFAULT_THINK_PROCESSES
        if thinkers is None
        else _processes(thinkers, "THINK_PROCESSES", "think"),
        think_patience=None
        if silence is None
        else _seconds("THINK_PATIENCE_S", silence, 0.1, 3600),
        shard_count=shard_count,
        shard_ids=shard_ids,
        web=web,
        ops=ops,
    )


class RedactToken(logging.Filter):
    """A logging filter that replaces the token wherever it appears in a record."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message, traceback and stack without the token; keep it."""
        if not self._token:
            return True
        if self._token in record.getMessage():
            record.msg = self._scrub(record.getMessage())
            record.args = ()
        if record.exc_info and not record.exc_text:
            record.exc_text = _FORMATTER.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self._scrub(record.stack_info)
        return True

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "[token]")


_FORMATTER = logging.Formatter()


def redact_logs(token: str) -> None:
    """Keep the token out of everything the root logger's handlers write (idempotent)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RedactToken) and f._token == token for f in handler.filters):
            handler.addFilter(RedactToken(token))
