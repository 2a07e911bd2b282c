"""How a text goes on after a colon: French, Italian and Polish continue in lower case
("… n'est pas possible maintenant : ton tour commence …"), unless a name begins it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.games import PRESENTATIONS, presentation
from render.catalog import Catalog

#: Languages that write the word after a colon in lower case (English keeps a sentence's
#: capital).
LOWER_AFTER_COLON = frozenset({"fr", "it", "pl"})
#: A template whose ``{message}`` follows a colon ("… : {message}").
MESSAGE_AFTER_COLON = re.compile(r":[\s\u00a0\u202f]*\{message\}")


def after_colon(catalog: Catalog, locale: str | None, text: str, names: Iterable[str]) -> str:
    """``text`` as it reads after a colon in ``locale``: its first letter in lower case where
    the language writes so, unless ``text`` begins with one of ``names`` (a player, a card)
    or with an abbreviation ("PP")."""
    if catalog.text("language.code", locale) not in LOWER_AFTER_COLON:
        return text
    if not text[:1].isupper() or text[1:2].isupper():
        return text
    if any(name and text.startswith(name) for name in names):
        return text
    return text[0].lower() + text[1:]


def card_names(catalog: Catalog, locale: str | None, game: str | None) -> list[str]:
    """The names of a game's cards in ``locale`` (proper names a refusal may begin with:
    "Nakatsu donne …"); none for a game that is not presented."""
    if game not in PRESENTATIONS:
        return []
    shown = presentation(str(game))
    words = lambda key, **params: catalog.text(key, locale, **params)  # noqa: E731
    return [
        shown.card_name(words, code)
        for topic in shown.rule_topics
        for code in shown.card_codes(topic)
    ]
