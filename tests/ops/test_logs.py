"""LOG_FORMAT=json: one JSON object a line, the work's context, the token never written."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.lobby_state import LobbyState
from bot.ops.answers import Answers, click_name
from bot.ops.logs import ContextFields, JsonLines, log_context
from bot.settings import RedactToken
from bot.views.lobby import LobbyButton
from bot.views.panel import RefreshButton

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


def test_a_click_is_logged_with_its_game_if_it_has_one() -> None:
    stream = io.StringIO()
    answers = Answers(None, _logger(stream))
    lobby = LobbyButton("join", LobbyState("yamatai", 2, False, (1,), ("Ann",)))
    for item in (RefreshButton(12), lobby):
        interaction = SimpleNamespace(guild_id=7, channel_id=8, extras={})
        asyncio.run(answers.click(cast(Any, interaction), item, lambda: asyncio.sleep(0)))
    refresh, join = map(json.loads, stream.getvalue().splitlines())
    assert (refresh["game"], refresh["click"], refresh["outcome"]) == (12, "panel:refresh", "ok")
    assert "game" not in join and join["click"] == "lobby:join"
