"""Nim in the bot: its events in words, one panel group per pile, two rule topics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib.resources import files

from bot.games.base import Presentation, Texts
from engine.contract import Event


class NimPresentation(Presentation):
    """Nim's phrases, panel groups and rule topics."""

    key = "nim"
    locale = files("tests.nim") / "locale"
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
