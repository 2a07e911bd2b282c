"""A turn in words: "**Ann** took fleet 6, bought clay, ...", and the final scores.

The words for a game's events come from its presentation (``bot.games``); this module puts them
together the same way for every game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.catalog import LOCALES, Catalog
from bot.games import presentation
from bot.games.base import joined
from bot.names import display_name
from bot.service.results import FinalResult, PlayerInfo
from engine.contract import Event
from engine.games import GAMES

LEVELS = ("easy", "normal", "strong")


def reader_name(catalog: Catalog, locale: str | None, player: PlayerInfo) -> str:
    """A seat's name for a reader: a computer seat's, stored in the game's language
    ("Ordinateur 2 (fort)"), in the reader's ("Computer 2 (strong)"); any other name as it is."""
    if player.user_id is not None:
        return player.name
    for known in LOCALES:
        number = _computer_number(catalog.raw("lobby.computer_name", known), player.name)
        if number is not None:
            return catalog.text("lobby.computer_name", locale, number=number)
        for level in LEVELS:
            named = catalog.raw("lobby.computer_name_level", known).replace(
                "{level}", catalog.raw(f"lobby.level.{level}", known)
            )
            number = _computer_number(named, player.name)
            if number is not None:
                said = catalog.text(f"lobby.level.{level}", locale)
                return catalog.text("lobby.computer_name_level", locale, number=number, level=said)
    return player.name


def you_verbs(table: str) -> dict[str, str]:
    """A ``summary.you_verbs`` text read: "a>as ended" -> {"a": "as", "ended": "ended"}."""
    pairs = (entry.partition(">") for entry in table.split())
    return {third: second or third for third, _, second in pairs}


def second_person(phrase: str, verbs: Mapping[str, str]) -> str | None:
    """``phrase`` with its first word, a verb of ``verbs``, in the second person; None if it
    does not begin with one of them."""
    first, space, rest = phrase.partition(" ")
    second = verbs.get(first)
    return None if second is None else second + space + rest


def split_phrases(text: str) -> list[str]:
    """A list of phrases cut at each ", " outside brackets ("built B07 (2 PP, 3 coins)" stays
    whole)."""
    phrases, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and text.startswith(", ", at):
            phrases.append(text[start:at])
            start = at + 2
    return [*phrases, text[start:]]


def _computer_number(template: str, name: str) -> int | None:
    """The seat number if ``name`` is ``template`` (with ``{number}``) filled in, else None."""
    pattern = re.escape(template).replace(re.escape("{number}"), r"(\d+)")
    found = re.fullmatch(pattern, name)
    return int(found[1]) if found else None


class Summary:
    """Formats one game's events and results with one catalog and locale."""

    def __init__(self, catalog: Catalog, locale: str | None, game: str) -> None:
        self.catalog = catalog
        self.locale = locale
        self.game = game
        self.presentation = presentation(game)

    def t(self, key: str, **params: object) -> str:
        """One catalog text in this summary's locale."""
        return self.catalog.text(key, self.locale, **params)

    def name_of(self, player: PlayerInfo) -> str:
        """A seat's name for this reader (see ``reader_name``)."""
        return reader_name(self.catalog, self.locale, player)

    def actions(
        self, events: Sequence[Event], names: Sequence[str], played: Sequence[str] = ()
    ) -> str:
        """The events of one turn (or part of one) as a comma-separated sentence.

        ``played`` (the actions that caused the events) lets a game tell what made no event of
        its own (a fish put in a crate); by default it is ignored.
        """
        parts, _ = self.presentation.describe(self.t, events, names)
        parts = self.presentation.played(self.t, played, parts)
        return ", ".join(parts) if parts else self._nothing(events)

    def yours(
        self, events: Sequence[Event], names: Sequence[str], played: Sequence[str] = ()
    ) -> str:
        """``actions`` said to the player who played them, in the second person ("you took
        fleet 6, bought clay", "tu as pris la flotte 6, as acheté…", "bierzesz flotę 6…").

        The phrases are the third person's (a turn message's); each one that begins with a
        verb of the turn's player is put in the second person by the verbs of
        ``summary.you_verbs`` and ``<game>.summary.you_verbs`` ("a>as": French "a pris" ->
        "as pris"; a bare word stays as it is), so no phrase is written twice. A phrase of
        someone else ("Bo received 2 coins (Izanami)") stays as it is; when the first one is
        such a phrase, the whole says it in the third person as ``actions`` does.
        """
        parts, _ = self.presentation.describe(self.t, events, names)
        parts = self.presentation.played(self.t, played, parts) or [self._nothing(events)]
        # a phrase may hold several ("kept a boat in the harbor, set aside 1 boat")
        phrases = split_phrases(", ".join(parts))
        verbs = self._you_verbs()
        said = [second_person(phrase, verbs) for phrase in phrases]
        if said[0] is None:
            return ", ".join(phrases)
        # each later phrase of the player's says its subject again where the language needs
        # it (French "…, tu as mis 1 bateau de côté", not "…, as mis"); the last one is
        # joined by "and" ("… et tu as mis …")
        own = [self.t("summary.yours", actions=said[0])]
        own += [
            phrase if mine is None else self.t("summary.yours_again", actions=mine)
            for mine, phrase in zip(said[1:], phrases[1:], strict=True)
        ]
        if len(own) > 1 and said[-1] is not None:
            return joined(self.t, own)
        return ", ".join(own)

    def _nothing(self, events: Sequence[Event]) -> str:
        """What events without words of their own did: "ended the turn" when they ended it
        (an ``end`` action), else "passed"."""
        rules = GAMES.get(self.game)
        if rules is not None and rules.milestones(list(events)).turn_ended:
            return self.t("summary.turn_ended")
        return self.t("summary.nothing")

    def _you_verbs(self) -> dict[str, str]:
        """The third person's first words and their second person's, the bot's and the
        game's (``summary.you_verbs``)."""
        verbs: dict[str, str] = {}
        for key in ("summary.you_verbs", f"{self.game}.summary.you_verbs"):
            if self.catalog.has(key):
                verbs.update(you_verbs(self.t(key)))
        return verbs

    def turn(self, player: str, events: Sequence[Event], names: Sequence[str]) -> str:
        """``**Ann** took fleet 6, ...`` plus what the turn ended (a round, the game)."""
        parts, closing = self.presentation.describe(self.t, events, names)
        actions = ", ".join(parts) if parts else self._nothing(events)
        lines = [self.t("summary.turn", player=display_name(player), actions=actions)]
        return "\n".join(lines + closing)

    def total(self, points: int) -> str:
        """A final total with the game's unit ("23 PP", "23 points") when the game names one."""
        key = f"{self.game}.score.total"
        return self.t(key, count=points) if self.catalog.has(key) else str(points)

    def final(self, final: FinalResult) -> list[str]:
        """One line per seat (rank, name, total, scoring lines), then how a tie was broken; a
        resigned player's line says so and that the computer earned their points."""
        lines = []
        for score in final.scores:
            detail = ", ".join(
                self.t(f"{self.game}.score.{line}", count=value)
                for line, value in score.lines.items()
                if value
            )
            key = "summary.score_resigned" if score.resigned else "summary.score"
            lines.append(
                self.t(
                    key,
                    rank=score.rank,
                    player=display_name(score.name),
                    total=self.total(score.total),
                    detail=detail or self.t("score.none"),
                )
            )
        if final.tie_broken:
            winner = display_name(final.winner.name)
            lines.append(self.t(f"{self.game}.score.tie_break", player=winner))
        return lines
