"""Nim in the bot: its events in words, one panel group per pile, two rule topics."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.games.base import Texts
from engine.contract import Event

TEXTS = {
    "nim.step.take": "take 1 to 3 stones from one pile",
    "nim.summary.take": "took {count} from pile {pile}",
    "nim.summary.won": "took the last stone",
    "nim.panel.cat.pile": "Pile {pile}",
    "nim.score.last_take": "{count} for the last stone",
    "nim.score.tie_break": "Tie broken: {player}",
    "nim.end_reason.last_take": "the last stone was taken",
    "nim.rules.topic.overview": "Overview",
    "nim.rules.overview": "Take 1 to 3 stones from one pile: `take 2 from B`. The last stone wins.",
    "nim.rules.topic.notation": "Action notation",
    "nim.rules.notation": "`take N from PILE`, piles A, B and C.",
}


class NimPresentation:
    """Nim's phrases, panel groups and rule topics."""

    key = "nim"
    rule_topics = ("overview", "notation")

    def describe(
        self, t: Texts, events: Sequence[Event], names: Sequence[str]
    ) -> tuple[list[str], list[str]]:
        """One phrase per take, one for the win."""
        phrases = [
            t("nim.summary.take", count=e["count"], pile=e["pile"])
            if e["type"] == "take"
            else t("nim.summary.won")
            for e in events
        ]
        return phrases, []

    def panel_group(self, action: str) -> str:
        """``pile:A``."""
        return f"pile:{action.split()[-1]}"

    def panel_group_label(self, t: Texts, group: str) -> str:
        """``Pile A``."""
        return t("nim.panel.cat.pile", pile=group.partition(":")[2])

    def panel_actions(self, preview: Callable[[str], list[str]], legal: list[str]) -> list[str]:
        """The legal actions as they are."""
        return legal
