"""Namiji in the bot: its events in words, its turn-panel groups and its ``/rules`` topics.

Every text is a catalog key under ``namiji.``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games.base import Event, Texts, counted, listed
from bot.names import display_name

KEY = "namiji"
RULE_TOPICS = (
    "overview",
    "move",
    "double",
    "pontoon",
    "fishing",
    "nets",
    "trap",
    "whirlpool",
    "rock",
    "panoramas",
    "scoring",
    "two_players",
    "notation",
)
#: Events that make no phrase of their own (told by the turn's other events).
SILENT = ("end_turn", "fish_revealed", "drawn", "nets_revealed", "rocks_drawn", "game_end")
#: Events said in one phrase with their own fields (``namiji.summary.<type>``).
SIMPLE = ("offering", "panorama", "panorama_bonus", "crate_line", "fished", "released")


def _k(key: str) -> str:
    return f"{KEY}.{key}"


class NamijiPresentation:
    """Namiji's phrases, panel groups and rule topics."""

    key = KEY
    rule_topics = RULE_TOPICS

    def describe(
        self, t: Texts, events: Sequence[Event], names: Sequence[str]
    ) -> tuple[list[str], list[str]]:
        """Phrases of a turn (who moved, what was taken), then the end of the game if it came."""
        parts = [p for p in (self.phrase(t, e, names) for e in events) if p]
        ended = any(e["type"] == "game_end" for e in events)
        return parts, [t(_k("summary.game_end"))] if ended else []

    def phrase(self, t: Texts, event: Event, names: Sequence[str]) -> str | None:
        """The words for one event (None for events said elsewhere or not at all)."""
        kind = str(event.get("type"))

        def name(seat: Any) -> str:
            if seat is None or not 0 <= int(seat) < len(names):
                return t(_k("neutral_boat"))
            return display_name(names[int(seat)])

        if kind in SILENT:
            return None
        if kind == "move":
            return t(_k("summary.move"), boat=name(event.get("seat")), to=event["to"])
        if kind == "arrival":
            return t(_k("summary.arrival"), boat=name(event.get("seat")), token=event["token"])
        if kind == "score":
            return t(_k("summary.score"), points=f"{int(event['points']):+d}", why=event["for"])
        if kind == "crustaceans":
            return counted(t, _k("summary.crustaceans"), len(event.get("tokens", [])))
        if kind == "trap_lost":
            return t(_k("summary.trap_lost"))
        if kind == "net_refused":
            return t(_k("summary.net_refused"))
        if kind == "rock_kept":
            return t(_k("summary.rock_kept"))
        if kind == "draft":
            return t(_k("summary.draft"), pontoon=event["pontoon"], cards=event["cards"])
        if kind == "pontoon_card":
            return t(_k("summary.pontoon_card"), player=name(event.get("seat")), card=event["card"])
        if kind == "neutral_pick":
            return t(_k("summary.neutral_pick"))
        if kind == "rocks_revealed":
            met = event.get("met", [])
            cards = listed([str(c) for c in event.get("cards", [])]) or "—"
            player = name(event["seat"])
            return t(_k("summary.rocks_revealed"), player=player, cards=cards, met=len(met))
        if kind in SIMPLE:
            params = {k: v for k, v in event.items() if k not in ("type", "seat")}
            return t(_k(f"summary.{kind}"), **params)
        return t(_k("summary.other"), action=kind)

    def panel_group(self, action: str) -> str:
        """One group per verb: ``move``, ``fish``, ``keep`` (with ``release``), ``net``..."""
        verb = action.split()[0]
        return {"release": "keep", "refuse": "net", "stop": "draw"}.get(verb, verb)

    def panel_group_label(self, t: Texts, group: str) -> str:
        """A group's name in the menu."""
        return t(_k(f"panel.cat.{group}"))

    def panel_actions(self, preview: Callable[[str], list[str]], legal: list[str]) -> list[str]:
        """The legal actions as they are (a station's choices come one at a time)."""
        return legal
