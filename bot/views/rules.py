"""The rules in words: ``/rules`` topics, and the Rules button of a game's cards.

Custom id: ``himiko:rules:<game key>`` (a turn card's Rules button: the game's overview and the
list of ``/rules`` topics, privately, in the reader's language).
"""

from __future__ import annotations

import re
from typing import ClassVar, Self, cast

from discord import ui

from bot.catalog import LOCALES, default_catalog
from bot.context import Himiko
from bot.custom_ids import RULES
from bot.games import PRESENTATIONS, presentation
from bot.games.base import Texts
from bot.games.typed import fold
from bot.internals import Interaction
from bot.present import guarded, send, t
from bot.service import ServiceError
from bot.views.base import PersistentItem, button

#: The ``/rules`` topic every game shares (keys ``rules.topic.commands``, ``rules.commands``).
COMMANDS_TOPIC = "commands"
OVERVIEW = "overview"


def rule_topics(game: str) -> list[str]:
    """A game's ``/rules`` topics, then the bot's commands."""
    return [*presentation(game).rule_topics, COMMANDS_TOPIC]


def texts_of(interaction: Interaction) -> Texts:
    """The catalog's texts in the reader's language, as the games' presentations take them."""
    return lambda k, **p: t(interaction, k, **p)


def _title_key(game: str, topic: str) -> str:
    prefix = "" if topic == COMMANDS_TOPIC else f"{game}."
    return f"{prefix}rules.topic.{topic}"


def topic_title(interaction: Interaction, game: str, topic: str) -> str:
    """A ``/rules`` topic's title in the reader's language."""
    return t(interaction, _title_key(game, topic))


def card_kind(interaction: Interaction, game: str, topic: str) -> str:
    """What kind of card a card of ``topic`` is, as said beside its name: the game's words for
    one card of it when it has them ("upgrade card", ``<game>.rules.kind.<topic>``), else the
    topic's title."""
    key = f"{game}.rules.kind.{topic}"
    if default_catalog().has(key):
        return t(interaction, key)
    return topic_title(interaction, game, topic)


def topic_of(game: str, typed: str) -> str | None:
    """The ``/rules`` topic of ``game`` that ``typed`` names: its key (the autocomplete's
    value) or its title in any of the bot's languages, case, accents and spaces ignored; else
    the one topic whose title begins so, else the one with a word beginning so ("pesca" for
    "Pesca e cassetta"); None if it names none, or several that way."""
    wanted, catalog = fold(typed), default_catalog()
    titles = {
        topic: {fold(catalog.text(_title_key(game, topic), lang)) for lang in LOCALES}
        for topic in rule_topics(game)
    }
    for topic, said in titles.items():
        if wanted in {fold(topic), fold(topic.replace("_", " ")), *said}:
            return topic
    if not wanted:
        return None
    for begins in (str.startswith, _word_begins):  # "speci": Specialists before "Recruit a s…"
        begun = [t for t, said in titles.items() if any(begins(s, wanted) for s in said)]
        if len(begun) == 1:
            return begun[0]
    return None


def _word_begins(title: str, wanted: str) -> bool:
    """Whether a word of ``title`` (or a run of words) begins with ``wanted``."""
    return f" {wanted}" in f" {title}"


def topics_listed(interaction: Interaction, game: str, topics: list[str] | None = None) -> str:
    """A game's ``/rules`` topics (or the ones given) by their titles in the reader's
    language, as ``/rules topic:`` takes them too."""
    shown = rule_topics(game) if topics is None else topics
    return " · ".join(topic_title(interaction, game, topic) for topic in shown)


def rule_text(interaction: Interaction, game: str, topic: str) -> str:
    """A ``/rules`` topic: its title and text, then a line per card of its kind, if any."""
    prefix = "" if topic == COMMANDS_TOPIC else f"{game}."
    lines = [
        f"**{topic_title(interaction, game, topic)}**",
        t(interaction, f"{prefix}rules.{topic}"),
    ]
    shown, words = presentation(game), texts_of(interaction)
    lines += [
        t(
            interaction,
            "rules.card_line",
            name=shown.card_name(words, c),
            help=shown.card_help(words, c),
        )
        for c in shown.card_codes(topic)
    ]
    return "\n".join(lines)


def overview_text(interaction: Interaction, game: str) -> str:
    """A game's overview and the ``/rules`` topics to read next (what a bare ``/rules`` says)."""
    listed = topics_listed(interaction, game)
    return (
        rule_text(interaction, game, OVERVIEW)
        + "\n\n"
        + t(interaction, "rules.more", topics=listed)
    )


class RulesButton(ui.DynamicItem[ui.Button[ui.View]], template=RULES.template):
    """On a game's cards: its rules' overview and topics, privately, for anyone who reads."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game: str, label: str = "Rules") -> None:
        self.game = game
        super().__init__(button(RULES.format(game=game), "📖 " + label))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(match["game"])

    async def callback(self, interaction: Interaction) -> None:
        """Answer privately with the game's overview and the topics ``/rules`` explains."""
        await guarded(interaction, lambda: self._answer(interaction))

    async def _answer(self, interaction: Interaction) -> None:
        if self.game not in PRESENTATIONS:  # a game this bot no longer runs
            raise ServiceError("error.no_game")
        await send(interaction, overview_text(interaction, self.game))


def rules_button(bot: Himiko, game: str, locale: str | None) -> ui.Item[ui.View]:
    """A card's Rules button for ``game``, labelled in ``locale``."""
    item = bot.bound(RulesButton)(game, bot.catalog.text("card.rules", locale))
    return cast(ui.Item[ui.View], item)


RULES_ITEMS: tuple[type[PersistentItem], ...] = (RulesButton,)
