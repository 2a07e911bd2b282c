"""The web view's small parts: addresses, settings, texts, the rate limit, plain summaries."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.catalog import placeholders
from bot.web import links
from bot.web.config import REQUEST_TIMEOUT, WebConfig, WebSettingsError, web_config
from bot.web.limits import RateLimit
from bot.web.pages import script_json, sparkline
from bot.web.replay import plain
from bot.web.texts import DIRECTORY, web_catalog
from render.catalog import read_folder as read_texts

WEB = Path(__file__).resolve().parents[2] / "bot" / "web"


def test_tokens_are_per_secret_kind_and_id() -> None:
    token = links.token("s" * 20, "game", 7)
    assert token == links.token("s" * 20, "game", 7)  # stateless: every process agrees
    assert len(token) == 22 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    others = {
        links.token("t" * 20, "game", 7),
        links.token("s" * 20, "game", 8),
        links.token("s" * 20, "league", 7),
    }
    assert token not in others and len(others) == 3
    assert links.valid("s" * 20, "game", 7, token)
    assert not links.valid("s" * 20, "game", 8, token)
    assert not links.valid("s" * 20, "game", 7, token[:-1] + ("A" if token[-1] != "A" else "B"))


def test_page_url_under_the_base_url() -> None:
    url = links.page_url("https://himiko.example/games/", "s" * 20, 42)
    assert url == f"https://himiko.example/games/g/42/{links.token('s' * 20, 'game', 42)}"
    assert links.league_url("http://h:1", "s" * 20, 3).startswith("http://h:1/l/3/")


def _config(**values: str) -> WebConfig | None:
    return web_config(values.get)


def test_web_settings() -> None:
    assert _config() is None  # no WEB_PORT: no server
    config = _config(WEB_PORT="8080", WEB_SECRET="x" * 16)
    assert config == WebConfig(8080, "x" * 16, "127.0.0.1", None)
    assert config.public_url == "http://127.0.0.1:8080"
    assert "x" * 16 not in repr(config)
    behind = _config(
        WEB_PORT="8080", WEB_SECRET="x" * 16, WEB_HOST="::1", WEB_BASE_URL="https://a.b/h/"
    )
    assert behind is not None and behind.public_url == "https://a.b/h"
    assert WebConfig(80, "x" * 16, "::1").public_url == "http://[::1]:80"
    assert config.request_timeout == REQUEST_TIMEOUT == 10.0
    patient = _config(WEB_PORT="8080", WEB_SECRET="x" * 16, WEB_REQUEST_TIMEOUT_S="2.5")
    assert patient is not None and patient.request_timeout == 2.5


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ({"WEB_PORT": "8080"}, "WEB_SECRET is not"),
        ({"WEB_PORT": "web", "WEB_SECRET": "x" * 16}, "WEB_PORT must be a port number"),
        ({"WEB_PORT": "0", "WEB_SECRET": "x" * 16}, "between 1 and 65535"),
        ({"WEB_PORT": "70000", "WEB_SECRET": "x" * 16}, "between 1 and 65535"),
        ({"WEB_PORT": "80", "WEB_SECRET": "short"}, "at least 16"),
        ({"WEB_PORT": "80", "WEB_SECRET": "x" * 16, "WEB_BASE_URL": "h.example"}, "http://"),
        *(
            (
                {"WEB_PORT": "80", "WEB_SECRET": "x" * 16, "WEB_REQUEST_TIMEOUT_S": bad},
                "0.5 to 3600",
            )
            for bad in ("soon", "0.1", "3601", "nan", "-5")
        ),
    ],
)
def test_bad_web_settings_say_what_to_fix(values: dict[str, str], says: str) -> None:
    with pytest.raises(WebSettingsError, match=says):
        _config(**values)


def test_web_texts_in_every_language_with_the_same_placeholders() -> None:
    tables = read_texts(DIRECTORY)
    assert set(tables) == {"en", "fr", "it", "pl"}
    for lang, table in tables.items():
        assert table.keys() == tables["en"].keys(), lang
        for key, text in table.items():
            assert placeholders(text) == placeholders(tables["en"][key]), (lang, key)


def test_every_text_id_the_web_code_uses_exists() -> None:
    catalog = web_catalog()
    used = set()
    for path in WEB.glob("*.py"):
        used |= set(re.findall(r"""["']((?:web|league)\.[a-z0-9_.]+)["']""", path.read_text()))
    assert len(used) > 30
    texts = {k for k in used if not k.endswith((".", ".css", ".js"))}
    assert sorted(k for k in texts if not catalog.has(k)) == []
    for status in ("active_round", "active_turn", "finished", "abandoned"):
        assert catalog.has(f"web.status.{status}")
    assert catalog.has("web.round") and catalog.has("web.turn")
    for column in ("rank", "player", "points", "played", "rating", "change"):
        assert catalog.has(f"league.column.{column}")


def test_rate_limit_refills_with_time() -> None:
    now = [0.0]
    limit = RateLimit(burst=2, per_second=1.0, clock=lambda: now[0])
    assert [limit.allow("a"), limit.allow("a"), limit.allow("a")] == [True, True, False]
    assert limit.allow("b")  # another client has its own bucket
    assert limit.retry_after("a") == 1
    now[0] = 1.0
    assert limit.allow("a") and not limit.allow("a")


def test_summaries_lose_discords_markdown() -> None:
    assert plain("**Ann** took fleet 6") == "Ann took fleet 6"
    assert plain(r"**\*Ann\_** took") == "*Ann_ took"


def test_json_in_a_script_element_cannot_close_it() -> None:
    text = script_json({"name": "</script><script>alert(1)</script>&"})
    assert "<" not in text and ">" not in text and "&" not in text


def test_rating_chart_is_an_inline_svg_line() -> None:
    svg = sparkline([1.0, 2.5, 2.0])
    assert svg.startswith("<svg") and svg.count(",") == 4  # 0 before the first game, then 3
