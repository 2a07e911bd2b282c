"""Namiji in the bot: its events in words, its turn-panel groups and its ``/rules`` topics.

Every text is a catalog key under ``namiji.``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.resources import files
from typing import Any

from bot.games.base import Presentation, Texts, WebExtras, counted, language, listed, times
from bot.games.namiji.typed import typed_names
from bot.games.typed import Names
from bot.names import display_name
from engine.contract import Event, TurnInfo, View
from engine.namiji.components import CELLS, CLOCKWISE, DIRECTIONS, components
from render.namiji.cards import card_text, is_card
from render.words import say, speaking

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
    "meals",
    "upgrades",
    "rock_cards",
    "notation",
)
#: ``/rules`` topics that list a kind of card, a line per card.
CARD_TOPICS = ("meals", "upgrades", "rock_cards")
#: Events that make no phrase of their own (told by the turn's other events).
SILENT = ("end_turn", "fish_revealed", "nets_revealed", "rocks_drawn", "game_end")
#: Events said in one phrase with their own fields (``namiji.summary.<type>``).
SIMPLE = ("offering",)
#: A player's fields as the web page reads them: a fish, a net, a crate line, a panorama kind,
#: a panorama bonus.
FISH = re.compile(r"[bgo][fst]")
NET = re.compile(r"([bgo][fst]) r(\d+)c(\d+) ([hv])")
LINE = re.compile(r"([rc])(\d+)")
PANORAMA = re.compile(r"[DOW]")
BONUS = re.compile(r"B([DOW])")
ARRIVAL = re.compile(r"A(\d+)")
CRUSTACEANS = {"CB": "web.value.crab", "SH": "web.value.shrimp"}
LINES = {"r": "web.value.row", "c": "web.value.column"}


def _k(key: str) -> str:
    return f"{KEY}.{key}"


def fish_name(t: Texts, fish: str) -> str:
    """A fish in words: ``os`` -> "orange saba" ("saba orange" in French, "pomarańczowa saba"
    in Polish: a fish's name each, its colour agreeing with its shape)."""
    return t(_k(f"fish.{fish}"))


def two_fish(t: Texts, fish: str) -> str:
    """Two fish of a kind, as a net holds them, after the language's "two": ``os`` -> "orange
    saba", French "sabas orange" (deux sabas orange)."""
    return t(_k(f"fish.two.{fish}"))


def meal_name(t: Texts, code: str) -> str:
    """A meal card's dish in the reader's language: ``M6`` -> "maki" (French "makis")."""
    return t(_k(f"meal.{code}"))


def boat_to_act_is_neutral(view: View) -> bool:
    """Whether the boat to act now is the neutral boat (2 players: the leader moves it)."""
    boat, boats = view.get("boat_to_act"), view.get("boats", [])
    return isinstance(boat, int) and 0 <= boat < len(boats) and boats[boat].get("seat") is None


def panorama_name(t: Texts, kind: str) -> str:
    """A panorama type in words: ``D`` -> "dolphin"."""
    return t(_k(f"panorama.{kind}"))


def _cell(cell: object) -> tuple[str, str]:
    """A crate cell ``r2c3`` as its row and column numbers."""
    text = str(cell)
    return text[1], text[3]


def _before_loss(events: Sequence[Event], i: int) -> bool:
    following = events[i + 1] if i + 1 < len(events) else {}
    return events[i].get("type") == "drawn" and following.get("type") == "trap_lost"


def _draws_grouped(events: Sequence[Event]) -> list[Event]:
    """The events with equal crustacean draws in a row made one, with their ``count`` ("drew 4
    shrimps", not "drew a shrimp" four times)."""
    grouped: list[Event] = []
    for event in events:
        last = grouped[-1] if grouped else {}
        same = ("drawn", event.get("token"), event.get("seat"))
        if (
            event.get("type") == "drawn"
            and (last.get("type"), last.get("token"), last.get("seat")) == same
        ):
            grouped[-1] = {**last, "count": int(last.get("count", 1)) + 1}
        else:
            grouped.append(event)
    return grouped


def _drawn(t: Texts, drawn: list[str]) -> str:
    """The trap's draws so far: how many, and how many crabs among them."""
    if not drawn:
        return t(_k("panel.about.drawn_none"))
    crabs = drawn.count("CB")
    if not crabs:
        return t(_k("panel.about.drawn_no_crab"), drawn=len(drawn))
    return counted(t, _k("panel.about.drawn_crabs"), crabs, drawn=len(drawn))


def _meal_text(t: Texts, code: str) -> str:
    """A meal card in the pictures' words, its dish in the reader's: "meal (maki), 5 pts at
    once"."""
    with speaking(language(t)):
        points = say("n.board.points", count=components().meals[code])
        return say("n.cards.meal", name=meal_name(t, code), points=points)


def web_words(t: Texts, field: str, value: object) -> list[str] | None:
    """A player's field on the web page (``t``: the game's language): fish, nets, crate lines,
    crustaceans and panoramas by name, the arrival token by its points; None for a field shown
    as it is (numbers, cards)."""
    say_field = _WEB_FIELDS.get(field)
    if say_field is None or not isinstance(value, list | dict | str):
        return None
    try:
        return say_field(t, value)
    except (KeyError, ValueError, TypeError):  # a value of another shape: shown as it is
        return None


def _each(pattern: re.Pattern[str], items: Iterable[object]) -> list[re.Match[str]]:
    """Every item matched by ``pattern`` (ValueError if one is not)."""
    found = [pattern.fullmatch(str(item)) for item in items]
    if None in found:
        raise ValueError(items)
    return [m for m in found if m is not None]


def _crate(t: Texts, cells: list[str]) -> list[str]:
    fish = Counter(m[0] for m in _each(FISH, (c for c in cells if c)))
    return [times(t, fish_name(t, f), n) for f, n in fish.items()]


def _nets(t: Texts, nets: list[str]) -> list[str]:
    """Each net in words, its place in brackets: the page lists a field's values with commas."""
    return [
        t(
            _k("web.net"),
            fish=two_fish(t, m[1]),
            row=m[2],
            column=m[3],
            direction=t(_k(f"web.net.{m[4]}")),
        )
        for m in _each(NET, nets)
    ]


def _arrival(t: Texts, token: str) -> list[str]:
    """The arrival token by its points (``A5``: "5 points"); none yet: nothing."""
    if not token:
        return []
    found = ARRIVAL.fullmatch(token)
    if found is None:
        raise ValueError(token)
    return [counted(t, _k("web.arrival"), int(found[1]))]


def _lines(t: Texts, lines: list[str]) -> list[str]:
    return [t(LINES[m[1]], n=m[2]) for m in _each(LINE, lines)]


def _trap(t: Texts, caught: list[str]) -> list[str]:
    return [times(t, t(CRUSTACEANS[c]), n) for c, n in Counter(caught).items()]


def _panoramas(t: Texts, kinds: dict[str, int]) -> list[str]:
    _each(PANORAMA, kinds)
    return [times(t, panorama_name(t, k), int(n)) for k, n in kinds.items() if n]


def _bonuses(t: Texts, bonuses: list[str]) -> list[str]:
    return [panorama_name(t, m[1]) for m in _each(BONUS, bonuses)]


def web_card(t: Texts, code: str) -> str | None:
    """A pontoon or sacred rock card's text on the web page, in the pictures' words: its name
    and what it does ("Crab catcher: at the end, 4 pts if crabs ≥ 3"; a meal: its dish and
    points); None for anything else."""
    if not is_card(code):  # most strings of a view: asked before any text is looked up
        return None
    with speaking(language(t)):
        if code in components().meals:  # a meal's text names its dish
            return _meal_text(t, code)
        text = card_text(code)
        if text is None:
            return text
        return say("n.cards.line", card=card_name(t, code), text=text)


_WEB_FIELDS: dict[str, Callable[[Texts, Any], list[str]]] = {
    "crate": _crate,
    "nets": _nets,
    "lines": _lines,
    "trap": _trap,
    "panoramas": _panoramas,
    "bonuses": _bonuses,
    "arrival": _arrival,
}


class NamijiPresentation(Presentation):
    """Namiji's phrases, panel groups, rule topics and web page extras."""

    key = KEY
    locale = files(__name__) / "locale"
    rule_topics = RULE_TOPICS
    counts = "turn"
    directions = DIRECTIONS
    web = WebExtras(card_words=web_card, field_texts="n.cat.", words=web_words)

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
        parts = [p for p in (self.phrase(t, e, names) for e in _draws_grouped(told)) if p]
        ended = any(e["type"] == "game_end" for e in events)
        return parts, ([t(_k("summary.game_end"))] if ended else []) + self._reveal(t, end, names)

    def _reveal(self, t: Texts, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        """The end's scoring, one line per player: "Ann revealed the sacred rock card “Tidy
        crate” (objective met), scored 6 for sacred rocks, lost 3 for offerings left"."""
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

        def name(seat: int | None) -> str:
            if seat is None or not 0 <= int(seat) < len(names):
                return t(_k("neutral_boat"))
            return display_name(names[int(seat)])

        if kind in SILENT:
            return None
        neutral = event.get("seat") is None
        if kind in ("move", "arrival"):
            key = f"summary.{kind}_neutral" if neutral else f"summary.{kind}"
            token = str(event.get("token") or "").removeprefix("A")  # A7: the token worth 7
            return t(_k(key), to=event.get("to"), token=token)
        if kind == "score":  # a penalty (offerings left) is said as points lost
            points = int(event["points"])
            said = "summary.score" if points >= 0 else "summary.score_lost"
            return t(_k(said), why=t(_k(f"score.{event['for']}"), count=abs(points)))
        if kind == "crustaceans":
            return counted(t, _k("summary.crustaceans"), len(event.get("tokens", [])))
        if kind in ("trap_lost", "net_refused", "rock_kept", "neutral_pick"):
            return t(_k(f"summary.{kind}"))
        if kind == "drawn":  # equal draws in a row are one event with their count
            return counted(t, _k(f"summary.drawn.{event['token']}"), int(event.get("count", 1)))
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
            return _pontoon_card(t, str(event["card"]))
        if kind == "kept":
            row, column = _cell(event["cell"])
            return t(_k("summary.kept"), row=row, column=column)
        if kind == "net_placed":
            row, column = _cell(event["cell"])
            return t(
                _k(f"summary.net.{event['orientation']}"),
                fish=two_fish(t, str(event["net"])),
                row=row,
                column=column,
            )
        if kind == "rocks_revealed":
            return _rocks(t, name(event["seat"]), event)
        if kind == "draft":  # P1: pontoon 1
            pontoon = str(event["pontoon"]).removeprefix("P")
            return t(_k("summary.draft"), pontoon=pontoon, cards=event["cards"])
        if kind in SIMPLE:
            params = {k: v for k, v in event.items() if k not in ("type", "seat")}
            return t(_k(f"summary.{kind}"), **params)
        return None

    def played(self, t: Texts, actions: Sequence[str], parts: list[str]) -> list[str]:
        """The phrases, or "ended the turn" for an `end` that made no other event."""
        if not parts and any(a.split()[:1] == ["end"] for a in actions):
            return [t(_k("summary.end"))]
        return parts

    def step_key(self, view: View, step: str) -> str:
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

    def panel_label(self, t: Texts, view: View, action: str) -> str:
        """A panel choice in words ("Sail to space 9", "Fish the orange saba"); anything else,
        however it is typed (half a net, a made-up cell), as typed."""
        words = action.split()
        if not words:
            return action
        kind, args = words[0].lower(), words[1:]
        lower = [a.lower() for a in args]  # fish, cells and nets as the engine reads them
        if kind == "move" and len(args) in (1, 3) and args[0].isdigit():
            which = "_neutral" if boat_to_act_is_neutral(view) else ""
            if len(args) == 1:
                return t(_k(f"panel.do.move{which}"), to=args[0])
            if args[1] == "slot" and args[2].isdigit():
                return t(_k(f"panel.do.move{which}_slot"), to=args[0], slot=args[2])
        if kind == "fish" and lower == ["hidden"]:
            return t(_k("panel.do.fish_hidden"))
        if kind == "fish" and len(lower) == 1 and lower[0] in components().fish:
            return t(_k("panel.do.fish"), fish=fish_name(t, lower[0]))
        if kind == "keep" and len(lower) == 1 and lower[0] in CELLS:
            row, column = _cell(lower[0])
            return t(_k("panel.do.keep"), row=row, column=column)
        if kind == "release" and not args:
            return t(_k("panel.do.release"))
        if kind in ("refuse", "draw", "stop", "offer") and not args:
            return t(_k(f"panel.do.{kind}"))
        if kind == "end" and not args:
            return t(_k("panel.cat.end"))
        if kind == "net":
            return _net(t, lower) or action
        return _card(t, view, kind, args) or action

    def panel_description(self, t: Texts, view: View, action: str) -> str | None:
        """A card's effect (from the pictures' own card texts), the station a move leads to,
        the trap's draws so far, an offering's effect on the end penalty, a section's points."""
        words = action.split()
        kind, args = words[0], words[1:]
        if kind in ("pick", "rock") and len(args) == 1:  # its effect: the label names it
            if args[0] in components().meals:
                return _meal_text(t, args[0])
            with speaking(language(t)):
                return card_text(args[0]) or self.card_help(t, args[0])
        if kind == "move" and args and args[0].isdigit():
            return _space(t, view, int(args[0]))
        if kind in ("draw", "stop") and not args:
            return _drawn(t, [str(d) for d in view.get("drawn", [])])
        if kind == "offer" and not args:
            left = _own(view).get("offerings")
            penalty = components().penalty_by_left
            if isinstance(left, int) and 0 < left < len(penalty):
                return t(_k("panel.about.offer"), now=penalty[left], after=penalty[left - 1])
        if kind == "panorama" and len(args) == 1:
            section = _section(view, args[0])
            if section:
                bonus = components().panorama_bonus
                return counted(t, _k("panel.about.panorama"), section, bonus=bonus)
        return None

    def card_codes(self, topic: str) -> Sequence[str]:
        """The meals, upgrades or sacred rock cards, in their number's order."""
        comp = components()
        cards: dict[str, list[str]] = {
            "meals": list(comp.meals),
            "upgrades": list(comp.upgrades),
            "rock_cards": list(comp.rocks),
        }
        return sorted(cards.get(topic, []), key=lambda code: int(code[1:]))

    def card_name(self, t: Texts, code: str) -> str:
        """A meal's dish, an upgrade's or a sacred rock's name."""
        return card_name(t, code)

    def typed_names(self) -> Names:
        """Its names typed in words, in any language (``typed.py``)."""
        return typed_names()

    def card_help(self, t: Texts, code: str) -> str:
        """The card's effect in the picture's own words, then its code marked as the notation
        ("fishing: resolve the fishing effect twice (notation: `U1`)"); a meal's dish in the
        reader's words."""
        with speaking(language(t)):
            text = _meal_text(t, code) if code in components().meals else card_text(code)
        if text is None:
            return code
        return t(_k("rules.card_help"), text=text, code=code)


def _own(view: View) -> Mapping[str, Any]:
    """The acting player's part of the view (empty when the view does not say)."""
    seat, players = view.get("current_seat"), view.get("players", [])
    if isinstance(seat, int) and 0 <= seat < len(players):
        found: Mapping[str, Any] = players[seat]
        return found
    return {}


def _section(view: View, kind: str) -> int | None:
    """The section of panorama ``kind`` the acting player would take next (None if unknown)."""
    taken = _own(view).get("panoramas", {}).get(kind)
    return taken + 1 if isinstance(taken, int) else None


def _net(t: Texts, args: list[str]) -> str | None:
    """A net, or a stage of one: "Net of two blue tai: row 1, columns 1 and 2"; None for what
    is no net (``net`` alone, an unknown fish or cell, a third word not ``h`` or ``v``)."""
    kind = args[0].removeprefix("n:") if args else ""
    if kind not in components().fish or len(args) > 3:
        return None
    fish = two_fish(t, kind)
    if len(args) == 1:
        return t(_k("panel.do.net_kind"), fish=fish)
    if args[1] not in CELLS:
        return None
    row, column = _cell(args[1])
    if len(args) == 2:
        return t(_k("panel.do.net_from"), fish=fish, row=row, column=column)
    if args[2] not in ("h", "v"):
        return None
    start, where = (column, "h") if args[2] == "h" else (row, "v")
    return t(_k(f"panel.do.net.{where}"), fish=fish, row=row, column=column, next=int(start) + 1)


def _card(t: Texts, view: View, kind: str, args: list[str]) -> str | None:
    """Taking a card in words: a pontoon card or a sacred rock by its name, a panorama."""
    if len(args) != 1:
        return None
    code, comp = args[0], components()
    if kind == "pick" and code in comp.meals:
        return t(_k("panel.do.meal"), name=meal_name(t, code), count=comp.meals[code])
    if kind == "pick" and code in comp.upgrades:
        return t(_k("panel.do.upgrade"), name=card_name(t, code))
    if kind == "rock" and code in comp.rocks:
        return t(_k("panel.do.rock"), name=card_name(t, code))
    if kind == "panorama" and code in comp.sections:
        section, panorama = _section(view, code), panorama_name(t, code)
        if section is None:
            return t(_k("panel.do.panorama"), panorama=panorama)
        total = comp.sections[code]
        return t(
            _k("panel.do.panorama_section"), panorama=panorama, section=section, sections=total
        )
    return None


def card_name(t: Texts, code: str) -> str:
    """A card's name in words: a meal's dish, an upgrade's or a sacred rock's name (house names,
    D97); any other code as it is."""
    comp = components()
    if code in comp.meals:
        return meal_name(t, code)
    if code in comp.upgrades or code in comp.rocks:
        return t(_k(f"card.{code}"))
    return code


def _rocks(t: Texts, player: str, event: Event) -> str:
    """The sacred rock cards a player reveals at the end, by name, and the objectives met, in
    the plural form for their number: "Ann revealed the sacred rock card “Tidy crate”
    (objective met)", "... 2 sacred rock cards: ... (1 of 2 objectives met)"; none: "Ann had
    no sacred rock card"."""
    cards = [str(c) for c in event.get("cards", [])]
    if not cards:
        return t(_k("summary.rocks_none"), player=player)
    met = len(event.get("met", []))
    if len(cards) == 1:
        said_met = t(_k("summary.rock_met" if met else "summary.rock_not_met"))
    else:
        said_met = counted(t, _k("summary.rocks_met"), met, total=len(cards))
    named = listed([t(_k("summary.rock_name"), name=card_name(t, c)) for c in cards])
    return counted(
        t, _k("summary.rocks_revealed"), len(cards), player=player, cards=named, met=said_met
    )


def _pontoon_card(t: Texts, code: str) -> str:
    """A pontoon card taken, by its name: "took the upgrade “Double catch” (pontoon card)"."""
    comp = components()
    if code in comp.meals:
        return t(_k("summary.pontoon_meal"), name=meal_name(t, code))
    if code in comp.upgrades:
        return t(_k("summary.pontoon_upgrade"), name=card_name(t, code))
    return t(_k("summary.pontoon_card"), card=code)


def _space(t: Texts, view: View, index: int) -> str | None:
    """What a route space holds: a station's effect, a pontoon or the arrival port."""
    route = components(str(view.get("direction") or CLOCKWISE)).route
    if not 0 <= index < len(route):
        return None
    letter = route[index]
    if letter[0] == "P":
        station = t(_k("panel.about.pontoon"))
    elif letter == "S":
        station = t(_k("panel.about.port"))
    else:
        station = say(f"n.station.{letter}", language(t))
    return t(_k("panel.about.space"), station=station)
