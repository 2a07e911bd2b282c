"""LOG_FORMAT=json: one JSON object a line, the work's context, the token never written."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot.ops.answers import click_name
from bot.ops.logs import ContextFields, JsonLines, log_context
from bot.settings import RedactToken

TOKEN = "secret-token-123"


def _logger(stream: io.StringIO) -> logging.Logger:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    handler.addFilter(ContextFields())
    handler.addFilter(RedactToken(TOKEN))
    logger = logging.getLogger("tests.ops.json")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger


def test_a_record_is_one_json_line_with_its_context_and_no_token() -> None:
    stream = io.StringIO()
    logger = _logger(stream)
    with log_context(guild=7, game=3, command="play"):
        logger.info("posted %s", "a turn")
        try:
            raise RuntimeError(f"refused {TOKEN}")
        except RuntimeError:
            logger.exception("failed with %s", TOKEN)
    logger.info("outside")
    lines = stream.getvalue().splitlines()
    first, second, third = map(json.loads, lines)
    assert first["message"] == "posted a turn" and first["level"] == "INFO"
    assert (first["guild"], first["game"], first["command"]) == (7, 3, "play")
    assert first["logger"] == "tests.ops.json" and "time" in first
    assert second["message"] == "failed with [token]"
    assert "RuntimeError: refused [token]" in second["exc_info"]
    assert TOKEN not in stream.getvalue()
    assert "guild" not in third


def test_an_unknown_context_field_is_refused() -> None:
    with pytest.raises(ValueError, match="name"), log_context(name="Hana"):
        pass


@pytest.mark.parametrize(
    ("custom_id", "name"),
    [
        ("himiko:lobby:join:yamatai:2:0:@", "lobby:join"),
        ("himiko:panel:do:12:3:0badc0de", "panel:do"),
        ("himiko:rematch:12", "rematch"),
        ("himiko:seq:ok:1:2:3:0badc0de", "seq:ok"),
        ("himiko:open:12:1.0:4", "open"),
        ("other", "other"),
        ("12:34", "unknown"),
    ],
)
def test_a_click_is_named_by_its_custom_id_words(custom_id: str, name: str) -> None:
    assert click_name(custom_id) == name
