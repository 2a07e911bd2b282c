"""Namiji in the bot: its events in words, its turn-panel groups and its ``/rules`` topics.

Every text is a catalog key under ``namiji.``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from importlib.resources import files
from typing import Any

from bot.games.base import Presentation, Texts, counted, listed
from bot.names import display_name
from engine.contract import Event, TurnInfo

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
SILENT = ("end_turn", "fish_revealed", "nets_revealed", "rocks_drawn", "game_end")
#: Events said in one phrase with their own fields (``namiji.summary.<type>``).
SIMPLE = ("offering", "draft")


def _k(key: str) -> str:
    return f"{KEY}.{key}"


def fish_name(t: Texts, fish: str) -> str:
    """A fish in words: ``os`` -> "orange saba" ("saba orange" in French)."""
    colour, shape = fish[0], fish[1]
    return t(
        _k("fish.name"),
        colour=t(_k(f"fish.colour.{colour}")),
        shape=t(_k(f"fish.shape.{shape}")),
    )


def boat_to_act_is_neutral(view: Mapping[str, Any]) -> bool:
    """Whether the boat to act now is the neutral boat (2 players: the leader moves it)."""
    boat, boats = view.get("boat_to_act"), view.get("boats", [])
    return isinstance(boat, int) and 0 <= boat < len(boats) and boats[boat].get("seat") is None


def panorama_name(t: Texts, kind: str) -> str:
    """A panorama type in words: ``D`` -> "dolphin"."""
    return t(_k(f"panorama.{kind}"))


def _cell(cell: Any) -> tuple[str, str]:
    """A crate cell ``r2c3`` as its row and column numbers."""
    text = str(cell)
    return text[1], text[3]


def _before_loss(events: Sequence[Event], i: int) -> bool:
    following = events[i + 1] if i + 1 < len(events) else {}
    return events[i].get("type") == "drawn" and following.get("type") == "trap_lost"


class NamijiPresentation(Presentation):
    """Namiji's phrases, panel groups and rule topics."""

    key = KEY
    locale = files(__name__) / "locale"
    rule_topics = RULE_TOPICS
    counts = "turn"

    def number(self, info: TurnInfo) -> int:
        """The turn being played: the engine counts boat moves, so once this turn's boat has
        moved (``in_progress``) the engine's next number is still this turn's (D83)."""
        return info.round - 1 if info.in_progress else info.round

    def describe(
        self, t: Texts, events: Sequence[Event], names: Sequence[str]
    ) -> tuple[list[str], list[str]]:
        """Phrases of a turn (who moved, what was taken), then the end of the game if it came:
        its own section, a line per player (sacred rocks revealed, what the end scored)."""
        reveal = next((i for i, e in enumerate(events) if e["type"] == "rocks_revealed"), None)
        turn, end = (events, []) if reveal is None else (events[:reveal], events[reveal:])
        # A crab drawn that loses the catch is told by the loss ("drew a second crab...").
        told = [e for i, e in enumerate(turn) if not _before_loss(turn, i)]
        parts = [p for p in (self.phrase(t, e, names) for e in told) if p]
        ended = any(e["type"] == "game_end" for e in events)
        return parts, ([t(_k("summary.game_end"))] if ended else []) + self._reveal(t, end, names)

    def _reveal(self, t: Texts, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        """The end's scoring, one line per player: "Ann revealed sacred rocks R02 (1 met),
        scored 6 for sacred rocks and -3 for offerings left"."""
        lines: list[list[str]] = []
        for event in events:
            if event["type"] == "rocks_revealed" or not lines:
                lines.append([])
            phrase = self.phrase(t, event, names)
            if phrase:
                lines[-1].append(phrase)
        return [", ".join(line) for line in lines if line]

    def phrase(self, t: Texts, event: Event, names: Sequence[str]) -> str | None:
        """The words for one event (None for events said elsewhere or not at all)."""
        kind = str(event.get("type"))

        def name(seat: Any) -> str:
            if seat is None or not 0 <= int(seat) < len(names):
                return t(_k("neutral_boat"))
            return display_name(names[int(seat)])

        if kind in SILENT:
            return None
        neutral = event.get("seat") is None
        if kind in ("move", "arrival"):
            key = f"summary.{kind}_neutral" if neutral else f"summary.{kind}"
            return t(_k(key), to=event.get("to"), token=event.get("token"))
        if kind == "score":
            points = int(event["points"])
            return t(_k("summary.score"), why=t(_k(f"score.{event['for']}"), count=points))
        if kind == "crustaceans":
            return counted(t, _k("summary.crustaceans"), len(event.get("tokens", [])))
        if kind in ("trap_lost", "net_refused", "rock_kept", "neutral_pick"):
            return t(_k(f"summary.{kind}"))
        if kind == "drawn":
            return t(_k(f"summary.drawn.{event['token']}"))
        if kind in ("fished", "released"):
            return t(_k(f"summary.{kind}"), fish=fish_name(t, str(event["fish"])))
        if kind == "crate_line":
            line = str(event["line"])
            which = "row" if line[0] == "r" else "column"
            return t(_k(f"summary.crate_{which}"), n=line[1:])
        if kind == "panorama":
            card = str(event["card"])
            return t(_k("summary.panorama"), panorama=panorama_name(t, card[0]), section=card[1:])
        if kind == "panorama_bonus":
            return t(
                _k("summary.panorama_bonus"), panorama=panorama_name(t, str(event["card"])[-1])
            )
        if kind == "pontoon_card":  # the picker is the turn's player, named before the phrase
            return t(_k("summary.pontoon_card"), card=event["card"])
        if kind == "kept":
            row, column = _cell(event["cell"])
            return t(_k("summary.kept"), row=row, column=column)
        if kind == "net_placed":
            row, column = _cell(event["cell"])
            return t(
                _k(f"summary.net.{event['orientation']}"),
                fish=fish_name(t, str(event["net"])),
                row=row,
                column=column,
            )
        if kind == "rocks_revealed":
            met = event.get("met", [])
            cards = listed([str(c) for c in event.get("cards", [])]) or "—"
            player = name(event["seat"])
            return t(_k("summary.rocks_revealed"), player=player, cards=cards, met=len(met))
        if kind in SIMPLE:
            params = {k: v for k, v in event.items() if k not in ("type", "seat")}
            return t(_k(f"summary.{kind}"), **params)
        return None

    def played(self, t: Texts, actions: Sequence[str], parts: list[str]) -> list[str]:
        """The phrases, or "ended the turn" for an `end` that made no other event."""
        if not parts and any(a.split()[:1] == ["end"] for a in actions):
            return [t(_k("summary.end"))]
        return parts

    def step_key(self, view: Mapping[str, Any], step: str) -> str:
        """The catalog key of a step; moving the neutral boat has its own."""
        if step == "move" and boat_to_act_is_neutral(view):
            return _k("step.move_neutral")
        return _k(f"step.{step}")

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

    def panel_label(self, t: Texts, view: Mapping[str, Any], action: str) -> str:
        """A panel choice in words ("Sail to space 9", "Fish the orange saba"); others as typed."""
        words = action.split()
        kind, args = words[0], words[1:]
        if kind == "move" and len(args) in (1, 3):
            which = "_neutral" if boat_to_act_is_neutral(view) else ""
            if len(args) == 1:
                return t(_k(f"panel.do.move{which}"), to=args[0])
            if args[1] == "slot":
                return t(_k(f"panel.do.move{which}_slot"), to=args[0], slot=args[2])
        if kind == "fish" and args == ["hidden"]:
            return t(_k("panel.do.fish_hidden"))
        if kind == "fish" and len(args) == 1 and len(args[0]) == 2:
            return t(_k("panel.do.fish"), fish=fish_name(t, args[0]))
        cell = re.fullmatch(r"r(\d)c(\d)", args[0]) if kind == "keep" and len(args) == 1 else None
        if cell:
            return t(_k("panel.do.keep"), row=cell[1], column=cell[2])
        if kind == "release" and not args:
            return t(_k("panel.do.release"))
        if kind == "end" and not args:
            return t(_k("panel.cat.end"))
        return action
