"""``/rules`` names and explains every card (issue 21, item 1): a topic per kind of card,
``/rules card:`` with autocomplete by code or by name in the user's language, a clear error for an
unknown card, and a bare ``/rules`` that says which topics exist."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from bot.games.base import Texts
from bot.present import MAX_CONTENT
from tests.e2e.harness import CHANNEL, TIMEOUT, WATCHER, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: Each kind of card, its topic and a card of it: (game, topic, code).
KINDS = (
    ("namiji", "meals", "M6"),
    ("namiji", "upgrades", "U11"),
    ("namiji", "rock_cards", "R12"),
    ("yamatai", "specialists", "Riu"),
    ("yamatai", "buildings", "P3"),
)
LOCALES = {"en": "en-US", "fr": "fr", "it": "it", "pl": "pl"}


def _words(lang: str) -> Texts:
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, lang, **params)


def test_a_topic_per_kind_of_card_lists_each_card_by_name_with_its_effect(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            for lang, locale in LOCALES.items():
                t = _words(lang)
                for game, topic, _code in KINDS:
                    shown = presentation(game)
                    rec = await double.slash(
                        WATCHER, CHANNEL, "rules", {"topic": topic, "game": game}, locale=locale
                    )
                    reply = await rec.reply(TIMEOUT)
                    assert reply.ephemeral and len(reply.content) < MAX_CONTENT, (lang, topic)
                    for card in shown.card_codes(topic):
                        name, text = shown.card_name(t, card), shown.card_help(t, card)
                        assert f"**{name}**" in reply.content and text in reply.content, card

    run(body)


def test_a_card_is_explained_and_found_by_code_or_by_name_in_the_users_language(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            rec = await double.slash(WATCHER, CHANNEL, "rules", {"game": "namiji", "card": "u11"})
            reply = (await rec.reply(TIMEOUT)).content
            assert "**Other view** (upgrade card)" in reply and "another type" in reply
            # by its Polish name, from the card's autocomplete
            offered = await double.autocomplete(
                WATCHER,
                CHANNEL,
                "rules",
                {"game": "namiji", "card": "połów"},
                "card",
                timeout=TIMEOUT,
                locale="pl",
            )
            assert {"name": "Podwójny połów", "value": "U1"} in offered
            assert all("połów" in c["name"].lower() for c in offered)
            rec = await double.slash(
                WATCHER, CHANNEL, "rules", {"game": "namiji", "card": "U1"}, locale="pl"
            )
            reply = (await rec.reply(TIMEOUT)).content
            assert "**Podwójny połów** (karta ulepszenia)" in reply and "dwa razy" in reply
            # a Yamatai specialist and a building tile, by name, wherever /rules is asked
            rec = await double.slash(
                WATCHER, CHANNEL, "rules", {"game": "namiji", "card": "riu"}, locale="fr"
            )
            reply = (await rec.reply(TIMEOUT)).content
            assert "**Riu** (Spécialiste)" in reply and "deux bateaux de plus" in reply
            offered = await double.autocomplete(
                WATCHER, CHANNEL, "rules", {"card": "pala"}, "card", timeout=TIMEOUT
            )
            assert [c["value"] for c in offered] == ["P1", "P2", "P3", "P4"]
            rec = await double.slash(WATCHER, CHANNEL, "rules", {"card": "P3"})
            reply = (await rec.reply(TIMEOUT)).content
            assert "**Palace\u00a03** (building tile)" in reply and "7 PP" in reply
            # a standard tile as the board writes it ("#07 = building 7"), in any case
            said = []
            for typed in ("B07", "#07", "b07"):
                rec = await double.slash(WATCHER, CHANNEL, "rules", {"card": typed})
                said.append((await rec.reply(TIMEOUT)).content)
            assert "(building tile)" in said[0] and said[1] == said[2] == said[0]

    run(body)


def test_an_unknown_card_says_how_to_find_one_and_a_bare_rules_lists_the_topics(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            rec = await double.slash(WATCHER, CHANNEL, "rules", {"game": "namiji", "card": "X9"})
            reply = await rec.reply(TIMEOUT)
            assert reply.ephemeral and "There is no card `X9`" in reply.content
            for title in ("Meal cards", "Upgrade cards", "Sacred rock cards"):  # by title
                assert f"`/rules topic:{title}`" in reply.content
            assert "Traceback" not in reply.content
            rec = await double.slash(WATCHER, CHANNEL, "rules", {"card": "X9"}, locale="pl")
            reply = await rec.reply(TIMEOUT)
            said = reply.content
            assert "Nie ma karty `X9`" in said and "`/rules topic:Specjaliści`" in said
            # QA: a bare /rules did not say which topics exist
            rec = await double.slash(WATCHER, CHANNEL, "rules", {"game": "namiji"})
            said = (await rec.reply(TIMEOUT)).content
            assert said.startswith("**Overview**")
            t = _words("en")
            for topic in presentation("namiji").rule_topics:
                assert t(f"namiji.rules.topic.{topic}") in said, topic
            assert "`/rules card:`" in said
            # the topic option works as before
            rec = await double.slash(WATCHER, CHANNEL, "rules", {"topic": "notation"})
            assert "fleet 4" in (await rec.reply(TIMEOUT)).content

    run(body)
