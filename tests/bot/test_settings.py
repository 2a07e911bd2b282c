"""Settings: .env parsing, the environment winning, clear errors, a token never shown."""

from __future__ import annotations

import asyncio
import io
import logging
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import discord.utils
import pytest
import uvloop

from bot.__main__ import EXIT_LOGIN, EXIT_SETTINGS, main, new_event_loop
from bot.settings import (
    RedactToken,
    Settings,
    SettingsError,
    load_settings,
    parse_env_file,
    redact_logs,
)

TOKEN = "MTIz.secret-token.value"


def test_env_file_lines() -> None:
    text = """
# a comment
DISCORD_TOKEN = "abc def"
export LOG_LEVEL=debug
DEV_GUILD_ID=42  # my server
EMPTY=
not a line
"""
    assert parse_env_file(text) == {
        "DISCORD_TOKEN": "abc def",
        "LOG_LEVEL": "debug",
        "DEV_GUILD_ID": "42",
        "EMPTY": "",
    }


def test_file_then_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "DISCORD_TOKEN=from-file\nDATABASE_PATH=file.db\nDEV_GUILD_ID=1\nCOMPUTER_PAUSE=0\n"
        "DISCORD_API_BASE=http://127.0.0.1:9/api/v10/\nDISCORD_GATEWAY_URL=ws://127.0.0.1:9/\n"
    )
    settings = load_settings({"DISCORD_TOKEN": "from-env", "LOG_LEVEL": "warning"}, env)
    assert settings.token == "from-env"
    assert settings.database_path == Path("file.db")
    assert settings.log_level == "WARNING"
    assert settings.dev_guild_id == 1
    assert settings.computer_pause == 0
    assert settings.api_base == "http://127.0.0.1:9/api/v10"
    assert settings.gateway_url == "ws://127.0.0.1:9"
    assert "from-env" not in repr(settings)


def test_database_url_selects_postgresql_and_hides_its_password() -> None:
    url = "postgresql://bot:s3cret@db.example:5432/himiko"
    settings = load_settings({"DISCORD_TOKEN": "x", "DATABASE_URL": url}, None)
    assert settings.database == url
    assert settings.database_label == "postgresql://bot:***@db.example:5432/himiko"
    assert "s3cret" not in repr(settings)
    assert load_settings({"DISCORD_TOKEN": "x"}, None).database == Path("himiko.sqlite3")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must be a PostgreSQL URL"),
        (
            {"DATABASE_URL": "postgresql://x/y", "DATABASE_PATH": "a.db"},
            "Set DATABASE_URL (PostgreSQL) or DATABASE_PATH (SQLite), not both",
        ),
    ],
)
def test_database_url_mistakes_are_explained(extra: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as error:
        load_settings({"DISCORD_TOKEN": "x", **extra}, None)
    assert error.value.message.startswith(message)


def test_defaults(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": "x"}, tmp_path / "missing.env")
    assert settings.database_path == Path("himiko.sqlite3")
    assert settings.dev_guild_id is None and settings.api_base is None
    assert settings.gateway_url is None and settings.sync_commands
    assert settings.scheduler_interval == 30.0
    quick = load_settings({"DISCORD_TOKEN": "x", "SCHEDULER_INTERVAL_S": "0.5"}, None)
    assert quick.scheduler_interval == 0.5


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be a whole number"),
        ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "x", "EVENT_LOOP": "trio"}, "EVENT_LOOP must be one of"),
        ({"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "ftp://x"}, "DISCORD_API_BASE must start"),
        ({"DISCORD_TOKEN": "x", "DISCORD_GATEWAY_URL": "http://x"}, "must start with ws://"),
        ({"DISCORD_TOKEN": "x", "COMPUTER_PAUSE": "soon"}, "COMPUTER_PAUSE must be a number"),
        ({"DISCORD_TOKEN": "x", "SCHEDULER_INTERVAL_S": "often"}, "SCHEDULER_INTERVAL_S must"),
        ({"DISCORD_TOKEN": "x", "SCHEDULER_INTERVAL_S": "0"}, "SCHEDULER_INTERVAL_S must be"),
    ],
)
def test_bad_settings_say_what_to_fix(tmp_path: Path, values: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(values, tmp_path / "none.env")
    assert words in caught.value.message


@pytest.mark.parametrize(
    ("setting", "uv"), [(None, True), ("uvloop", True), ("UVLOOP", True), ("asyncio", False)]
)
def test_the_bot_runs_on_uvloop_unless_asyncio_is_asked(setting: str | None, uv: bool) -> None:
    choice = load_settings({"DISCORD_TOKEN": "x", "EVENT_LOOP": setting or ""}, None).event_loop
    loop = new_event_loop(choice)
    try:
        assert isinstance(loop, uvloop.Loop) is uv
        assert loop.run_until_complete(asyncio.sleep(0, "ran")) == "ran"
    finally:
        loop.close()


def test_discord_py_reads_and_writes_its_json_with_orjson() -> None:
    # a dependency for speed (D140): discord.py picks orjson up when it is installed
    assert discord.utils.HAS_ORJSON
    payload = {"id": str(2**63 - 1), "content": "Séance à 20 h", "flags": 64, "nonce": None}
    assert discord.utils._from_json(discord.utils._to_json(payload)) == payload


def test_without_uvloop_auto_falls_back_and_uvloop_asked_is_explained(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as on Windows: the import fails
    loop = new_event_loop("auto")
    try:
        assert isinstance(loop, asyncio.BaseEventLoop)
    finally:
        loop.close()
    _clear_env(monkeypatch, tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("EVENT_LOOP", "uvloop")
    level = logging.getLogger().level  # main() sets the root logger's level: put it back
    try:
        assert main() == EXIT_SETTINGS
    finally:
        logging.getLogger().setLevel(level)
        logging.getLogger().handlers.clear()
    err = capsys.readouterr().err
    assert "EVENT_LOOP is uvloop but uvloop is not installed" in err and "Traceback" not in err


def test_token_is_redacted_from_logs() -> None:
    record = logging.LogRecord("x", logging.INFO, "f", 1, "token is %s", (TOKEN,), None)
    assert RedactToken(TOKEN).filter(record)
    assert TOKEN not in record.getMessage() and "[token]" in record.getMessage()


def test_token_is_redacted_from_tracebacks_and_stacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactToken(TOKEN))
    logger = logging.getLogger("himiko.test.redact")
    logger.addHandler(handler)
    try:
        try:
            raise RuntimeError(f"bad header Authorization: Bot {TOKEN}")
        except RuntimeError:
            logger.exception("request failed")
        logger.warning("where", stack_info=True, extra={"x": TOKEN})
        logger.error("again %s", TOKEN, stack_info=True)
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert "request failed" in text and "Traceback" in text and "[token]" in text
    assert TOKEN not in text


def test_run_installs_the_redaction(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import bot.app

    handler = logging.NullHandler()
    logging.getLogger().addHandler(handler)

    def stop(settings: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(bot.app, "create_bot", stop)
    try:
        with pytest.raises(KeyboardInterrupt):
            asyncio.run(bot.app.run(Settings(token=TOKEN, database_path=tmp_path / "d")))
        assert any(isinstance(f, RedactToken) for f in handler.filters)
        redact_logs(TOKEN)  # idempotent
        assert len([f for f in handler.filters if isinstance(f, RedactToken)]) == 1
    finally:
        logging.getLogger().removeHandler(handler)


def _clear_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)


def test_missing_token_exits_with_a_message(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _clear_env(monkeypatch, tmp_path)
    assert main() == EXIT_SETTINGS
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "Traceback" not in err


class _Reject(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def rejecting_api() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Reject)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    finally:
        server.shutdown()
        server.server_close()


def test_rejected_token_exits_with_a_message(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    rejecting_api: str,
) -> None:
    _clear_env(monkeypatch, tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DISCORD_API_BASE", rejecting_api)
    monkeypatch.setenv("LOG_LEVEL", "CRITICAL")
    level = logging.getLogger().level  # main() sets the root logger's level: put it back
    try:
        assert main() == EXIT_LOGIN
    finally:
        logging.getLogger().setLevel(level)
        from bot.app import apply_endpoints
        from bot.settings import Settings

        apply_endpoints(Settings(token="x"))
        logging.getLogger().handlers.clear()
    captured = capsys.readouterr()
    assert "rejected DISCORD_TOKEN" in captured.err
    assert "Traceback" not in captured.err and TOKEN not in captured.err + captured.out


def test_shards_default_to_one_process_serving_every_guild() -> None:
    settings = load_settings({"DISCORD_TOKEN": "x"}, None)
    assert settings.shard_count is None and settings.shards is None
    every = load_settings({"DISCORD_TOKEN": "x", "SHARD_COUNT": "3"}, None)
    assert every.shards is not None and every.shards.ids == {0, 1, 2} and every.shards.everything


def test_shard_ids_pick_this_process_shards() -> None:
    settings = load_settings({"DISCORD_TOKEN": "x", "SHARD_COUNT": "4", "SHARD_IDS": " 3, 1"}, None)
    assert settings.shard_ids == (1, 3)
    assert settings.shards is not None and settings.shards.ids == {1, 3}
    assert settings.shards.owns(1 << 22) and not settings.shards.owns(2 << 22)


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be between 1 and"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS must list shard numbers from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": ","}, "SHARD_IDS must list shard numbers from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "SHARD_IDS lists a shard twice"),
    ],
)
def test_shard_setting_mistakes_are_explained(values: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError) as error:
        load_settings({"DISCORD_TOKEN": "x", **values}, None)
    assert error.value.message.startswith(words), error.value.message
