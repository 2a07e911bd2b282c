"""The operations settings: all optional, a wrong value one clear SettingsError (exit 2)."""

from __future__ import annotations

import pytest

from bot.ops.config import MetricsConfig, OpsConfig
from bot.settings import SettingsError, load_settings

TOKEN = {"DISCORD_TOKEN": "t"}


def test_without_them_nothing_changes() -> None:
    settings = load_settings(TOKEN, env_file=None)
    assert settings.ops == OpsConfig()
    assert settings.ops.metrics is None and not settings.ops.json_logs
    assert settings.ops.sentry_dsn is None


def test_each_is_read() -> None:
    dsn = "https://key@o1.ingest.sentry.io/123"
    settings = load_settings(
        {**TOKEN, "METRICS_PORT": "9100", "LOG_FORMAT": "JSON", "SENTRY_DSN": dsn},
        env_file=None,
    )
    assert settings.ops.metrics == MetricsConfig(9100, "127.0.0.1")
    assert settings.ops.json_logs and settings.ops.sentry_dsn == dsn
    assert dsn not in repr(settings)  # the DSN holds the project's key
    hosted = load_settings({**TOKEN, "METRICS_PORT": "9100", "METRICS_HOST": "::"}, None)
    assert hosted.ops.metrics == MetricsConfig(9100, "::")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"METRICS_PORT": "nine"}, "METRICS_PORT must be a port number, not 'nine'."),
        ({"METRICS_PORT": "0"}, "METRICS_PORT must be between 1 and 65535, not 0."),
        ({"METRICS_HOST": "0.0.0.0"}, "METRICS_HOST is set but METRICS_PORT is not"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json, not 'xml'."),
        ({"SENTRY_DSN": "my-secret-dsn"}, "SENTRY_DSN is not a Sentry DSN"),
    ],
)
def test_a_wrong_value_is_one_clear_line(values: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as raised:
        load_settings({**TOKEN, **values}, env_file=None)
    assert raised.value.message.startswith(message)
    assert "\n" not in raised.value.message
    assert "my-secret-dsn" not in raised.value.message
