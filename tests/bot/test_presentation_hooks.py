"""The optional hooks of a game's presentation, declared in the protocol with their defaults."""

from __future__ import annotations

from bot.games import PRESENTATIONS
from bot.summary import Summary
from render.catalog import Catalog
from tests.nim.presentation import NimPresentation


def test_a_game_without_hooks_gets_the_defaults() -> None:
    """Nim overrides none: its step key, panel labels, phrases and next groups are the defaults."""
    nim = NimPresentation()
    assert nim.step_key({}, "take") == "nim.step.take"
    assert nim.panel_label(str, {}, "take 2 from B") == "take 2 from B"
    assert nim.played(str, ["take 2 from B"], ["took 2"]) == ["took 2"]
    assert nim.panel_next == ()


def test_every_presentation_names_its_texts_folder() -> None:
    """Each presented game's texts come from its own folder, in English at least."""
    for shown in PRESENTATIONS.values():
        catalog = Catalog.load(shown.locale)
        assert catalog.has(f"{shown.key}.rules.topic.{shown.rule_topics[0]}"), shown.key


def test_the_summary_asks_the_played_hook() -> None:
    """A game's ``played`` hook is called for every turn's phrases (no ``getattr`` lookup)."""

    class Told(NimPresentation):
        def played(self, t: object, actions: object, parts: list[str]) -> list[str]:
            return [*parts, "told"]

    summary = Summary(Catalog.load(NimPresentation.locale), "en", "nim")
    summary.presentation = Told()
    assert summary.actions([], ["Ann", "Bo"], ["take 1 from A"]) == "told"
