"""``/rules`` topics in the reader's language (issue 38 leftovers): a bare ``/rules`` listed the
topics by their English values (`move`, `double`, `rock_cards`), an unknown topic and an unknown
card named them so too, and a title typed in French ("Pêche et casier") was refused. Now every
topic is named by its title in the reader's language, and a title typed in any of the four
languages opens its topic. On the Discord double, through the synced command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.catalog import LOCALES, default_catalog
from bot.games import PRESENTATIONS
from bot.games.typed import fold
from bot.views.rules import rule_topics, topic_of
from tests.bot.test_words_per_language import shown
from tests.e2e.harness import CHANNEL, TIMEOUT, WATCHER, himiko_env, run

DISCORD = {"fr": "fr", "it": "it", "pl": "pl"}
BOT = Path(__file__).resolve().parents[2] / "bot"
#: The games this bot ships (the test-only games other tests register have no Discord texts).
SHIPPED = sorted(key for key in PRESENTATIONS if (BOT / "games" / key).is_dir())
MENTION = re.compile(r"`/rules topic:([^`]+)`")


def _title(game: str, topic: str, lang: str) -> str:
    prefix = "" if topic == "commands" else f"{game}."
    return default_catalog().text(f"{prefix}rules.topic.{topic}", lang)


def _keys_in_backticks(text: str, game: str) -> list[str]:
    """The topics' English values written as code in ``text``."""
    return [k for k in rule_topics(game) if f"`{k}`" in text or f"topic:{k}`" in text]


@pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL
def test_the_topics_are_named_and_read_in_the_readers_language(tmp_path: Path) -> None:
    """fr, it, pl: a bare ``/rules`` lists every topic by its title; a title typed (any case,
    no accents) opens that topic; an unknown topic or card lists titles; the autocomplete
    offers titles whose values are the topics."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            for lang, locale in DISCORD.items():
                for game in SHIPPED:
                    rec = await double.slash(
                        WATCHER, CHANNEL, "rules", {"game": game}, locale=locale
                    )
                    said = (await rec.reply(TIMEOUT)).content
                    for topic in rule_topics(game):
                        assert _title(game, topic, lang) in said, (lang, game, topic)
                    assert _keys_in_backticks(said, game) == [], (lang, game, said)
                    offered = await double.autocomplete(
                        WATCHER,
                        CHANNEL,
                        "rules",
                        {"game": game, "topic": ""},
                        "topic",
                        locale=locale,
                    )
                    assert {(c["name"], c["value"]) for c in offered} == {
                        (_title(game, k, lang)[:100], k) for k in rule_topics(game)
                    }
                typed = fold(_title("namiji", "fishing", lang)).upper()  # "PECHE ET CASIER"
                rec = await double.slash(
                    WATCHER, CHANNEL, "rules", {"game": "namiji", "topic": typed}, locale=locale
                )
                reply = (await rec.reply(TIMEOUT)).content
                assert reply.startswith(f"**{_title('namiji', 'fishing', lang)}**\n"), reply
                rec = await double.slash(
                    WATCHER, CHANNEL, "rules", {"game": "namiji", "topic": "zzz"}, locale=locale
                )
                refused = (await rec.reply(TIMEOUT)).content
                assert "`zzz`" in refused and _title("namiji", "trap", lang) in refused
                assert _keys_in_backticks(refused, "namiji") == [], refused
                rec = await double.slash(
                    WATCHER, CHANNEL, "rules", {"game": "namiji", "card": "X9"}, locale=locale
                )
                refused = (await rec.reply(TIMEOUT)).content
                kinds = ("meals", "upgrades", "rock_cards")
                assert MENTION.findall(refused) == [_title("namiji", k, lang) for k in kinds]
            # the autocomplete's value, the topic's key, still opens it (any reader)
            rec = await double.slash(
                WATCHER, CHANNEL, "rules", {"game": "namiji", "topic": "rock_cards"}, locale="pl"
            )
            said = (await rec.reply(TIMEOUT)).content
            assert said.startswith("**Karty świętej skały**\n")

    run(body, timeout=120)


@pytest.mark.parametrize(
    ("game", "typed", "topic"),
    [
        ("namiji", "pesca", "fishing"),  # "Pesca e cassetta" (Italian play-through PN 12)
        ("namiji", "PÊCHE", "fishing"),
        ("yamatai", "speci", "specialists"),  # the title that begins so before "5. Recruit a s…"
        ("yamatai", "costruzione", "buildings"),
        ("yamatai", "s", None),  # several titles begin with it: the list of topics instead
        ("yamatai", " ", None),
    ],
)
def test_a_topic_is_found_by_the_beginning_of_a_word_of_its_title(
    game: str, typed: str, topic: str | None
) -> None:
    """A few letters typed find the one topic whose title (in any language) begins so, else
    the one with a word beginning so; several, or none, find nothing."""
    assert topic_of(game, typed) == topic


@pytest.mark.parametrize("game", SHIPPED)
def test_each_title_names_one_topic_in_every_language(game: str) -> None:
    """A title typed in any language finds its own topic, never another's."""
    for topic in rule_topics(game):
        for lang in LOCALES:
            assert topic_of(game, _title(game, topic, lang)) == topic, (lang, topic)
        assert topic_of(game, topic) == topic
    assert topic_of(game, "no such topic") is None


@pytest.mark.parametrize("lang", ["fr", "it", "pl"])
def test_every_rules_topic_a_text_mentions_is_named_in_its_language(lang: str) -> None:
    """ "(`/rules topic:notation`)" in the opening message and a refusal: the topic's title in
    the reader's language instead, which ``/rules`` reads."""
    mentioned = {
        key: found for key, text in shown(lang).items() if (found := MENTION.findall(text))
    }
    assert mentioned, lang
    for key, topics in mentioned.items():
        for typed in topics:
            titles = {_title(game, topic, lang) for game in SHIPPED for topic in rule_topics(game)}
            assert typed in titles, (key, typed)
            assert all(topic_of(game, typed) is not None for game in SHIPPED), typed
