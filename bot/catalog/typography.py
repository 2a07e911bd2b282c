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


#: Each language's quotation marks: outer open, outer close, inner open, inner close (a quote
#: inside a quote: Polish „… »…« …”, French « … “…” … », Italian «… “…” …», English's
#: single marks inside its double ones).
QUOTES = {
    "en": ("\u201c", "\u201d", "\u2018", "\u2019"),
    "fr": ("\u00ab", "\u00bb", "\u201c", "\u201d"),
    "it": ("\u00ab", "\u00bb", "\u201c", "\u201d"),
    "pl": ("\u201e", "\u201d", "\u00bb", "\u00ab"),
}
#: The spaces French puts inside its guillemets (none inside the inner quotes).
QUOTE_SPACES = " \u00a0\u202f"


def nested_quotes(text: str, language: str) -> str:
    """``text`` with each quote inside a quote in the language's inner marks ("Weź ulepszenie
    „Skorupiak”" quoted reads „Weź ulepszenie »Skorupiak«”, not „… „Skorupiak””)."""
    marks = QUOTES.get(language)
    if marks is None or text.count(marks[0]) < 2:
        return text
    opening, closing, inner_opening, inner_closing = marks
    out: list[str] = []
    depth, skip_space = 0, False
    for char in text:
        if skip_space and char in QUOTE_SPACES:
            continue
        skip_space = False
        if char == opening:
            depth += 1
            if depth > 1:
                out.append(inner_opening)
                skip_space = True
                continue
        elif char == closing and depth > 0:
            depth -= 1
            if depth > 0:
                while out and out[-1] in QUOTE_SPACES:
                    out.pop()
                out.append(inner_closing)
                continue
        out.append(char)
    return "".join(out)
