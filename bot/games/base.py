"""The games' presentations: the protocol every game's follows, and small shared pieces."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any, Protocol

from bot.games.typed import Names
from engine.contract import Event, TurnInfo, View

#: A catalog lookup bound to a locale: ``t(key, **params)``.
Texts = Callable[..., str]
#: Discord's longest select option description.
MAX_DESCRIPTION = 100
#: A player's field in words: (texts of the game's language, field, value) -> texts, or None to
#: show the value as it is.
FieldWords = Callable[[Texts, str, object], list[str] | None]
#: A player's running score as shown, and a note on what it leaves out (None: nothing).
Score = tuple[str, str | None]
#: A player's running score from the spectator's view of that player and the page's language,
#: or None for the view's own ``score``.
ShownScore = Callable[[Mapping[str, Any], str], Score | None]
#: A card's text from its name (texts of the page's language, name), or None: not a card.
CardWords = Callable[[Texts, str], str | None]


@dataclass(frozen=True)
class WebExtras:
    """What a game's web page (docs/web.md) shows of it beyond the generic page; all optional.

    ``card_texts``: the prefix of its picture texts that are card texts, shown on hover and tap
    wherever the view names the card (a specialist's power); ``card_words``: instead, a card's
    text made from its name (a text composed of several, e.g. a card's name, points and
    effect); ``field_texts``: the prefix of its
    picture texts naming a player's view fields; ``words``: a player's fields in
    words; ``score``: a player's running score as the spectator's view has it;
    ``score_note_stopped``: the catalog key of what its note says instead once the bot
    stopped the game before the rules' end (a resignation, an abandon: what the note says
    happens "at the end" never does). Without them the page shows the cards' names, the
    fields' own names, the values as they are and the view's ``score``.
    """

    card_texts: str | None = None
    card_words: CardWords | None = None
    field_texts: str | None = None
    words: FieldWords | None = None
    score: ShownScore | None = None
    score_note_stopped: str | None = None


class Presentation(Protocol):
    """How the bot shows one game: summaries, panel groups, rule topics, its texts' folder.

    A game's presentation subclasses this protocol to inherit the defaults of the optional
    hooks (``panel_next``, ``step_key``, ``played``, ``panel_label``, ``panel_description``,
    ``card_codes``, ``card_name``, ``card_help``, ``typed_names``, ``refusal_words``, ``web``);
    see docs/adding-a-game.md.
    """

    #: Panel groups opened next after an action of another group, most likely first (default:
    #: none; the panel then keeps the order of the legal actions).
    panel_next: Sequence[str] = ()
    #: What the game's numbers count (D83): "round" (the bot says "Round 4") or "turn" ("Turn 19").
    counts: str = "round"
    #: The directions of travel the lobby offers, the default first (the engine's ``direction``
    #: setup option; default: none, the game has one way round).
    directions: Sequence[str] = ()
    #: What its web page shows beyond the generic page (default: nothing more).
    web: WebExtras = WebExtras()

    @property
    def key(self) -> str:
        """The game's registry key (and catalog prefix)."""
        ...

    @property
    def rule_topics(self) -> Sequence[str]:
        """``/rules`` topics in reading order (keys ``<game>.rules.<topic>``)."""
        ...

    @property
    def locale(self) -> Traversable:
        """The folder of the game's bot texts, one ``<lang>.json`` per language (usually
        ``bot/games/<game>/locale``)."""
        ...

    def describe(
        self, t: Texts, events: Sequence[Event], names: Sequence[str]
    ) -> tuple[list[str], list[str]]:
        """A turn's events as phrases (joined in one sentence) and lines that follow it."""
        ...

    def panel_group(self, action: str) -> str:
        """The turn-panel group of one legal action."""
        ...

    def panel_group_label(self, t: Texts, group: str) -> str:
        """A group's name for the menu."""
        ...

    def panel_actions(self, preview: Callable[[str], list[str]], legal: list[str]) -> list[str]:
        """The panel's choices from the legal actions (may add whole-turn shortcuts).

        ``preview(text)`` gives the actions legal after ``text`` without playing it.
        """
        ...

    def step_key(self, view: View, step: str) -> str:
        """The catalog key naming the step to play (default ``<game>.step.<step>``); a game
        whose step reads differently by the board (a neutral boat's move) decides here."""
        return f"{self.key}.step.{step}"

    def number(self, info: TurnInfo) -> int:
        """The number of the round or turn being played (D83); default the engine's round."""
        return info.round

    def played(self, t: Texts, actions: Sequence[str], parts: list[str]) -> list[str]:
        """A turn's phrases given the actions that made its events (default: the phrases);
        a game tells here what made no event of its own."""
        return parts

    def panel_label(self, t: Texts, view: View, action: str) -> str:
        """A panel choice in words (default: its notation); ``action`` may be a stage, the
        first words of an action."""
        return action

    def panel_description(self, t: Texts, view: View, action: str) -> str | None:
        """The line under a panel choice (a card's effect, where a move leads), or None
        (default: none); at most ``MAX_DESCRIPTION`` characters are shown."""
        return None

    def card_codes(self, topic: str) -> Sequence[str]:
        """The cards a ``/rules`` topic lists, a line each after its text (default: none)."""
        return ()

    def card_name(self, t: Texts, code: str) -> str:
        """A card's name in words (default: its code)."""
        return code

    def card_help(self, t: Texts, code: str) -> str:
        """What a card does, in one line (default: nothing)."""
        return ""

    def card_label(self, code: str) -> str:
        """How the pictures write a card, which ``/rules card:`` takes too (default: its code)."""
        return code

    def typed_names(self) -> Names | None:
        """The names ``/play`` reads when typed in words, in any language (default: none, only
        the notation; see ``bot.games.typed``)."""
        return None

    def refusal_words(self, t: Texts, key: str, data: Mapping[str, Any]) -> dict[str, object]:
        """An engine refusal's parameters the game says in words, by name (its refusal
        ``key``, ``data`` the engine's parameters; default: none, the engine's are shown)."""
        return {}


def counted(t: Texts, key: str, count: int, **params: object) -> str:
    """The text of ``key`` in the plural form for ``count`` (see bot.catalog)."""
    return t(key, count=count, **params)


def times(t: Texts, name: str, count: int) -> str:
    """A thing and how many: the name alone for one, "silk" and a count for more."""
    return name if count == 1 else t("web.value.counted", name=name, count=count)


def listed(items: list[str]) -> str:
    """Items as a comma-separated list."""
    return ", ".join(items)


def joined(t: Texts, items: Sequence[str], conjunction: str = "and") -> str:
    """Items as a list in words: ``A2, B4 and C1`` (``summary.and``, or ``summary.or``)."""
    if len(items) < 2:
        return "".join(items)
    return t(f"summary.{conjunction}", items=", ".join(items[:-1]), last=items[-1])


def language(t: Texts) -> str:
    """The language ``t`` speaks (``language.code``: "en", "fr"...), to read the pictures'
    own texts of a card (``render.words.say(key, language(t))``) instead of copying them."""
    return t("language.code")
