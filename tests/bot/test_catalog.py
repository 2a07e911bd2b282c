"""The message catalog: every id used in code exists in English, placeholders format."""

from __future__ import annotations

import re
from pathlib import Path

from bot.catalog import Catalog, default_catalog, normalize_locale, placeholders
from bot.cogs.info import RULE_TOPICS
from bot.summary import SIMPLE

BOT = Path(__file__).resolve().parents[2] / "bot"
PREFIXES = (
    "error|lobby|game|play|step|panel|board|log|games|resign|summary|score|end_reason|cmd|rules"
)
LITERAL = re.compile(rf"""["']((?:{PREFIXES})\.[a-z0-9_.]+)["']""")


def _used_ids() -> set[str]:
    found: set[str] = set()
    for path in BOT.rglob("*.py"):
        if "store" in path.parts:
            continue
        found |= {m for m in LITERAL.findall(path.read_text(encoding="utf-8"))}
    return found


def test_every_id_used_in_code_exists() -> None:
    catalog = default_catalog()
    used = _used_ids()
    assert len(used) > 60
    missing = sorted(
        key
        for key in used
        if not key.endswith(".png")
        and not catalog.has(key)
        and not (catalog.has(f"{key}_one") and catalog.has(f"{key}_many"))
    )
    assert missing == []


def test_dynamic_ids_exist() -> None:
    catalog = default_catalog()
    dynamic = [f"rules.{t}" for t in RULE_TOPICS] + [f"rules.topic.{t}" for t in RULE_TOPICS]
    dynamic += [f"summary.{k}" for k in SIMPLE]
    dynamic += [f"step.{s}" for s in ("fleet", "trade", "place", "acted", "recruited")]
    dynamic += [f"end_reason.{r}" for r in ("last_building", "boats", "specialists", "buildings")]
    dynamic += [f"score.{line}" for line in ("coins", "pp_tokens", "buildings", "specialists")]
    codes = ("invalid_notation", "illegal_action", "not_your_turn", "game_over", "undo_not_allowed")
    dynamic += [f"error.engine.{c}" for c in codes]
    dynamic += [f"game.{r}" for r in ("resigned", "cancelled", "abandoned")]
    assert [k for k in dynamic if not catalog.has(k)] == []


def test_placeholders_format_and_locales_agree() -> None:
    catalog = default_catalog()
    english = catalog.tables["en"]
    for key, text in english.items():
        names = placeholders(text)
        formatted = catalog.text(key, "en", **{n: "X" for n in names})
        assert "{" not in formatted.replace("{{", ""), key
    for locale, table in catalog.tables.items():
        for key, text in table.items():
            assert key in english, f"{locale}: unknown id {key}"
            assert placeholders(text) <= placeholders(english[key]), f"{locale}: {key}"


def test_lookup_by_locale_with_english_fallback() -> None:
    catalog = Catalog({"en": {"a": "Hello {name}", "b": "Bye"}, "fr": {"a": "Bonjour {name}"}})
    assert catalog.text("a", "fr", name="Ann") == "Bonjour Ann"
    assert catalog.text("b", "fr") == "Bye"
    assert catalog.text("a", "pl", name="Bo") == "Hello Bo"
    assert catalog.text("a", None) == "Hello {name}"
    assert catalog.text("missing.id") == "missing.id"
    assert normalize_locale("en-US") == "en" and normalize_locale("pl") == "pl"
    assert normalize_locale("it") == "it" and normalize_locale("ja") == "en"


LABELS = (
    "lobby.join",
    "lobby.leave",
    "lobby.start",
    "lobby.cancel",
    "lobby.computers_on",
    "lobby.computers_off",
    "play.confirm",
    "play.cancel",
    "panel.undo",
    "panel.refresh",
    "panel.previous",
    "panel.next",
    "resign.yes",
    "resign.no",
    "game.take_turn",
)


def test_discord_limits() -> None:
    english = default_catalog().tables["en"]
    for key, text in english.items():
        if key.startswith("cmd."):
            assert len(text) <= 100, key
        if key.startswith(("rules.topic.", "panel.cat.")) or key in LABELS:
            assert len(text) <= 80, key
        assert len(text) <= 1800, key
