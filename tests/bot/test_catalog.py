"""The message catalog: every id used in code exists in English, placeholders format."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import (
    Catalog,
    base_id,
    catalog_of,
    default_catalog,
    normalize_locale,
    placeholders,
    plural_categories,
)
from bot.games import PRESENTATIONS, presentation
from bot.service.history import replay_turns
from bot.service.results import PlayerInfo
from bot.service.tables import final_result as _final
from bot.summary import Summary
from bot.views.rules import rule_topics
from engine import games
from engine.players import random_player

BOT = Path(__file__).resolve().parents[2] / "bot"
PREFIXES = (
    "error|lobby|game|play|step|panel|board|log|games|resign|summary|score|end_reason|cmd|rules"
    "|server"
)
LITERAL = re.compile(rf"""["']((?:{PREFIXES})\.[a-z0-9_.]+)["']""")


def _used_ids() -> set[str]:
    """Ids written in the code; in ``bot/games/<game>/`` they carry the game's prefix."""
    found: set[str] = set()
    for path in BOT.rglob("*.py"):
        if "store" in path.parts:
            continue
        ids = set(LITERAL.findall(path.read_text(encoding="utf-8")))
        parts = path.relative_to(BOT).parts
        game = parts[1] if len(parts) > 2 and parts[0] == "games" else None
        found |= {f"{game}.{i}" for i in ids} if game else ids
    return found


def test_every_id_used_in_code_exists() -> None:
    catalog = default_catalog()
    used = _used_ids()
    assert len(used) > 60
    missing = sorted(key for key in used if not key.endswith(".png") and not catalog.has(key))
    assert missing == []


def test_dynamic_ids_exist() -> None:
    catalog = default_catalog()
    dynamic = []
    for game in PRESENTATIONS:
        for topic in rule_topics(game):
            prefix = "" if topic == "commands" else f"{game}."
            dynamic += [f"{prefix}rules.{topic}", f"{prefix}rules.topic.{topic}"]
    codes = ("invalid_notation", "illegal_action", "not_your_turn", "game_over", "undo_not_allowed")
    dynamic += [f"error.engine.{c}" for c in codes]
    dynamic += [f"game.{r}" for r in ("resigned", "cancelled", "abandoned")]
    assert [k for k in dynamic if not catalog.has(k)] == []


class Recording(Catalog):
    """A catalog that remembers every id it was asked for and did not have."""

    def __init__(self, base: Catalog) -> None:
        super().__init__(base.tables)
        self.missing: set[str] = set()

    def raw(self, key: str, locale: str | None = None, count: Any = None) -> str:
        if not self.has(key):
            self.missing.add(key)
        return super().raw(key, locale, count)


def test_every_text_a_game_produces_exists() -> None:
    """Random games of every presented game: steps, panel groups, summaries, final scores."""
    catalog = Recording(default_catalog())

    def t(key: str, **params: Any) -> str:
        return catalog.text(key, "en", **params)

    for game in PRESENTATIONS:
        rules = games.rules_for(game)
        shown = presentation(game)
        for players in (rules.min_players, rules.max_players):
            match = games.new(game, [f"Player {i}" for i in range(players)], seed=5 + players)
            while (seat := match.current_seat) is not None:
                t(f"{game}.step.{match.turn_info.step}")
                for action in match.legal_actions():
                    shown.panel_group_label(t, shown.panel_group(action))
                match.play(random_player(match.view(seat), seat), seat=seat)
            summary = Summary(catalog, "en", game)
            for turn in replay_turns(match):
                summary.turn(match.players[turn.seat], turn.events, match.players)
            infos = tuple(
                PlayerInfo(seat=s, name=n, user_id=None, colour="red")
                for s, n in enumerate(match.players)
            )
            assert match.outcome is not None
            summary.final(_final(infos, match.outcome))
            for reason in match.outcome.termination:
                t(f"{game}.end_reason.{reason}")
    assert catalog.missing == set()


def test_placeholders_format_and_locales_agree() -> None:
    catalog = default_catalog()
    english = catalog.tables["en"]
    for key, text in english.items():
        names = placeholders(text)
        formatted = catalog.text(key, "en", **{n: "X" for n in names})
        assert "{" not in formatted.replace("{{", ""), key
    allowed: dict[str, set[str]] = {}
    for key, text in english.items():
        allowed.setdefault(base_id(key), set()).update(placeholders(text))
    for locale, table in catalog.tables.items():
        for key, text in table.items():
            base = base_id(key)
            assert base in allowed, f"{locale}: unknown id {key}"
            assert placeholders(text) <= allowed[base] | {"count"}, f"{locale}: {key}"


def test_plural_forms_follow_each_language() -> None:
    """Polish has one, few and many; French counts 0 and 1 as one; English falls back to other."""
    catalog = Catalog(
        {
            "en": {"boats_one": "{count} boat", "boats_other": "{count} boats", "x": "X"},
            "fr": {"boats_one": "{count} bateau", "boats_other": "{count} bateaux"},
            "pl": {
                "boats_one": "{count} łódź",
                "boats_few": "{count} łodzie",
                "boats_many": "{count} łodzi",
                "boats_other": "{count} łodzi",
            },
        }
    )
    assert [catalog.text("boats", "en", count=n) for n in (1, 2)] == ["1 boat", "2 boats"]
    assert catalog.text("boats", "fr", count=0) == "0 bateau"
    assert [catalog.text("boats", "pl", count=n) for n in (1, 3, 5, 22, 25)] == [
        "1 łódź",
        "3 łodzie",
        "5 łodzi",
        "22 łodzie",
        "25 łodzi",
    ]
    assert catalog.text("boats", "it", count=1) == "1 boat"  # no Italian table: English
    assert catalog.has("boats") and not catalog.has("boats_few")
    assert base_id("a.boats_few") == "a.boats" and base_id("a.set_aside") == "a.set_aside"
    assert plural_categories("pl") == {"one", "few", "many", "other"}


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
        if ".rules.topic." in f".{key}" or ".panel.cat." in f".{key}" or key in LABELS:
            assert len(text) <= 80, key
        assert len(text) <= 1800, key


def test_every_id_exists_in_every_language_with_its_plural_forms() -> None:
    """fr, it and pl each have every English id, whole or split into all their plural forms."""
    shipped = [p for p in PRESENTATIONS.values() if (BOT / "games" / p.key).is_dir()]
    assert len(shipped) == 2
    catalog = catalog_of(shipped)  # the shipped files (not the test-only games' additions)
    english = {base_id(key) for key in catalog.tables["en"] if not key.startswith("_")}
    for locale in ("fr", "it", "pl"):
        forms: dict[str, set[str]] = {}
        for key in catalog.tables[locale]:
            base = base_id(key)
            forms.setdefault(base, set()).add(key.removeprefix(base).removeprefix("_"))
        assert sorted(english - set(forms)) == [], locale
        split = {b: f for b, f in forms.items() if "" not in f}
        short = {b: f for b, f in split.items() if not plural_categories(locale) <= f}
        assert short == {}, locale


def test_the_seats_option_lists_each_game_in_every_language() -> None:
    """``/new seats`` names each offered game's seats from the registry, English and translated
    (the catalog no longer names the games)."""
    import asyncio

    from discord import Locale, app_commands

    from bot.cogs.lobby import seat_ranges
    from bot.translator import CatalogTranslator, text

    described = text("cmd.new.seats", games=seat_ranges())
    assert described.message.startswith("How many seats (Yamatai 2-4, Namiji 2-5")
    translator = CatalogTranslator(default_catalog())
    where: app_commands.TranslationContext[Any, int] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, 0
    )
    french = asyncio.run(translator.translate(described, Locale.french, where))
    assert french is not None and french.startswith("Nombre de places (Yamatai 2-4, Namiji 2-5")
    assert asyncio.run(translator.translate(described, Locale.american_english, where)) is None


@pytest.mark.parametrize(
    ("locale", "one", "two"),
    [("it", "unisciti", "unitevi"), ("pl", "dołącz ", "dołączcie"), ("fr", "rejoins", "rejoignez")],
)
def test_a_rematch_invites_one_player_in_the_singular(locale: str, one: str, two: str) -> None:
    """QA: the Italian rematch invite told one player "unitevi" (you all join)."""
    said = default_catalog().text("rematch.invite", locale, players="<@1>", count=1)
    assert one in said and two not in said
    assert two in default_catalog().text("rematch.invite", locale, players="<@1> <@2>", count=2)
