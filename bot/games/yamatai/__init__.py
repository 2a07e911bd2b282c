"""Yamatai in the bot: its events in words, its turn-panel groups and its ``/rules`` topics.

Every text is a catalog key under ``yamatai.``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from importlib.resources import files
from typing import Any

from bot.games.base import (
    Presentation,
    Score,
    Texts,
    WebExtras,
    counted,
    joined,
    language,
    listed,
    times,
)
from bot.games.typed import AS_TYPED, Names
from bot.games.yamatai.refused import refusal_words, tokens_listed
from bot.games.yamatai.typed import BOAT_WORDS, CULTURE_WORDS, VERBS, typed_names
from bot.names import display_name
from engine.contract import Event, View
from engine.yamatai.components import load_components
from render.words import say
from render.yamatai.signs import tile_label

KEY = "yamatai"
#: Event types that say something on their own (one phrase each, ``yamatai.summary.<type>``).
SIMPLE = ("reserve", "look", "arrange", "sacred", "kachiko")
#: Event types that never make a phrase of their own.
SILENT = ("turn", "round_start", "place", "end_turn", "round_end", "game_end")
RULE_TOPICS = (
    "overview",
    "turn",
    "fleet",
    "trade",
    "place",
    "collect_build",
    "end_turn",
    "recruit",
    "round",
    "game_end",
    "scoring",
    "specialists",
    "buildings",
    "notation",
)
#: ``/rules`` topics that list a kind of card, a line per card (specialists, building tiles).
CARD_TOPICS = ("specialists", "buildings")
#: Panel groups named without detail (``yamatai.panel.cat.<group>``).
PLAIN_GROUPS = ("fleet", "trade", "collect", "build", "keep", "end")
#: After an action whose group is done, the panel opens the first of these still legal: the
#: mandatory steps in turn order, then the optional ones (powers are never guessed).
PANEL_NEXT = ("place", "collect", "build", "keep", "recruit", "trade", "fleet")
#: The boat types a player's ``boats`` and ``set_aside`` hold (the web page counts them by type).
BOATS = frozenset({"bamboo", "wood", "stone", "clay", "gold"})
HIDDEN_SCORE = "y.focus.hidden_score"  # the pictures' note on what "+?" stands for


def _k(key: str) -> str:
    return f"{KEY}.{key}"


def boat_name(t: Texts, boat: str) -> str:
    """A boat type in words: ``wood`` -> "wood boat" (``yamatai.boat.<type>``)."""
    return t(_k(f"boat.{boat}"))


def a_boat(t: Texts, boat: str) -> str:
    """One boat of a type in words: "a wood boat"."""
    return t(_k("summary.a_boat"), boat=boat_name(t, boat))


def boats_counted(t: Texts, boats: Sequence[str]) -> str:
    """Boats in words, counted by type: "a wood boat and 2 clay boats"."""
    return joined(t, [counted(t, _k(f"summary.boats.{b}"), n) for b, n in Counter(boats).items()])


def culture_name(t: Texts, culture: str) -> str:
    """A culture token's name: ``silk`` -> "silk" in English, "soie" in French."""
    return t(_k(f"culture.{culture}"))


def tile_name(t: Texts, code: str) -> str:
    """A building tile by the number its picture draws: ``B07`` (drawn "#07") is "building 7",
    ``B03`` "trading post 3", ``T2`` "torii 2", ``P4`` "palace 4" (``yamatai.tile.<kind>``);
    a code that is no tile stays as it is."""
    return _tile_words(t, code, "tile")


def _tile_object(t: Texts, code: str) -> str:
    """A tile's name as the object of a verb: with its article (French "le bâtiment n° 7",
    "l'échoppe n° 3") or in its case (Polish "faktorię nr 3"): ``yamatai.tile_object.<kind>``."""
    return _tile_words(t, code, "tile_object")


def _tile_words(t: Texts, code: str, key: str) -> str:
    tile = load_components().buildings.get(code)
    if tile is None:
        return code
    return t(_k(f"{key}.{tile.kind}"), number=int(code[1:]))


def web_score(player: Mapping[str, Any], lang: str) -> Score:
    """A running score as the spectator's view has it: without the PP of face-down building
    tiles (R34), "+?" standing for them, and the pictures' note saying so."""
    total = player.get("score", {}).get("total", 0)
    if not player.get("hidden_tiles"):
        return (str(total), None)
    return (f"{total}+?", say(HIDDEN_SCORE, lang))


def web_words(t: Texts, field: str, value: object) -> list[str] | None:
    """A player's field on the web page (``t``: the game's language): boats by type and count,
    culture tokens and building tiles by name; None for a field shown as it is (numbers,
    names)."""
    if field in ("boats", "set_aside") and isinstance(value, list) and set(value) <= BOATS:
        return [counted(t, _k(f"summary.boats.{b}"), n) for b, n in Counter(value).items()]
    if field == "tokens" and isinstance(value, dict):
        return [times(t, culture_name(t, str(c)), n) for c, n in value.items() if n]
    if field == "reserved" and isinstance(value, list):
        return [_reserved(t, tile) for tile in value if isinstance(tile, dict)]
    if field == "tiles" and isinstance(value, list):
        return [tile_name(t, str(tile)) for tile in value]
    return None


def _reserved(t: Texts, tile: dict[str, Any]) -> str:
    """A reserved building tile: its name, prestige points and the boats it takes."""
    boats = Counter(b for b in tile.get("boats", []) if b in BOATS)
    needs = ", ".join(counted(t, _k(f"summary.boats.{b}"), n) for b, n in boats.items())
    points = f"{tile.get('pp', 0)} PP ({needs})"
    return t(_k("panel.tile_points"), tile=tile_name(t, str(tile.get("id", "?"))), points=points)


class YamataiPresentation(Presentation):
    """Yamatai's phrases, panel groups, rule topics and web page extras."""

    key = KEY
    locale = files(__name__) / "locale"
    rule_topics = RULE_TOPICS
    panel_next = PANEL_NEXT
    web = WebExtras(
        card_texts="y.specialist.",
        field_texts="y.col.",
        words=web_words,
        score=web_score,
        score_note_stopped=_k("web.hidden_score_stopped"),
    )

    def describe(
        self, t: Texts, events: Sequence[Event], names: Sequence[str]
    ) -> tuple[list[str], list[str]]:
        """Phrases of a turn (boats placed counted together), then the round or game end."""
        parts: list[str] = []
        placed: list[tuple[str, str]] = []
        for event in events:
            if event.get("type") == "place":
                placed.append((str(event["boat"]), str(event["spot"])))
                continue
            if placed:
                parts.append(self._placed(t, placed))
                placed = []
            text = self.phrase(t, event, names)
            if text:
                parts.append(text)
        if placed:
            parts.append(self._placed(t, placed))
        return parts, self._closing(t, events, names)

    @staticmethod
    def _placed(t: Texts, placed: list[tuple[str, str]]) -> str:
        """Boats placed, by type: "placed a clay boat on spot 25 and 2 wood boats on spots..."."""
        spots: dict[str, list[str]] = {}
        for boat, spot in placed:
            spots.setdefault(boat, []).append(spot)
        groups = [
            counted(
                t,
                _k("summary.boats_on"),
                len(on),
                boats=boats_counted(t, [boat] * len(on)),
                spots=joined(t, on),
            )
            for boat, on in spots.items()
        ]
        return t(_k("summary.placed"), boats=joined(t, groups))

    def _closing(self, t: Texts, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        lines = []
        for event in events:
            if event.get("type") == "round_end":
                lines.append(t(_k("summary.round_end"), round=event["round"]))
            elif event.get("type") == "round_start" and event.get("turn_order"):
                order = listed([display_name(names[int(s)]) for s in event["turn_order"]])
                lines.append(t(_k("summary.round_start"), round=event["round"], order=order))
            elif event.get("type") == "game_end":
                reasons = [t(_k(f"end_reason.{r}")) for r in event.get("reasons", [])]
                lines.append(t(_k("summary.game_end"), reasons=listed(reasons)))
        return lines

    def phrase(self, t: Texts, event: Event, names: Sequence[str]) -> str | None:
        """The words for one event (None for events said elsewhere or not at all)."""
        kind = str(event.get("type"))

        def name(seat: int) -> str:
            return display_name(names[int(seat)]) if 0 <= int(seat) < len(names) else str(seat)

        def gains(coins: int = 0, pp: int = 0) -> str:
            parts = []
            if coins:
                parts.append(counted(t, _k("summary.gain_coins"), coins))
            if pp:
                parts.append(counted(t, _k("summary.gain_pp"), pp))
            return t(_k("summary.gains"), gains=listed(parts)) if parts else ""

        if kind in SILENT:
            return None
        if kind == "fleet":
            text = t(_k("summary.fleet"), fleet=event["fleet"])
            missing = [boat_name(t, b) for b in event.get("missing", [])]
            if missing:
                text += t(_k("summary.fleet_missing"), boats=joined(t, missing, "or"))
            return text
        if kind in ("buy", "sell", "slide"):
            params = {k: v for k, v in event.items() if k in ("from", "to")}
            return t(_k(f"summary.{kind}"), boat=a_boat(t, event["boat"]), **params)
        if kind == "collect":
            tokens = [
                t(
                    _k("summary.token_on"),
                    culture=culture_name(t, tok["culture"]),
                    island=tok["island"],
                )
                for tok in event.get("tokens", [])
            ]
            return t(_k("summary.collect"), tokens=joined(t, tokens), count=len(tokens))
        if kind == "build":
            # The tile lies face down (R34): the thread learns where and what figure, not which.
            figure = t(_k(f"summary.figure.{event['figure']}"))
            return t(_k("summary.build"), figure=figure, island=event["island"]) + gains(
                int(event.get("coins", 0)), int(event.get("pp_tokens", 0))
            )
        if kind == "recruit":
            return t(_k("summary.recruit"), specialist=event["specialist"]) + gains(
                int(event.get("coins", 0))
            )
        if kind == "remove":
            return counted(t, _k("summary.remove"), len(event.get("boats", [])))
        if kind == "ananda":
            return counted(t, _k("summary.ananda"), int(event["coins"]), player=name(event["to"]))
        if kind == "izanami":
            return counted(
                t, _k("summary.izanami"), int(event["coins"]), player=name(event["seat"])
            )
        if kind == "harbor":
            kept, aside = list(event.get("kept", [])), list(event.get("set_aside", []))
            said = [t(_k("summary.kept"), boats=boats_counted(t, kept))] if kept else []
            said += [counted(t, _k("summary.set_aside"), len(aside))] if aside else []
            return ", ".join(said) or None
        if kind in ("raijin", "nakatsu"):
            boats = {k: boats_counted(t, event[k]) for k in ("gave", "took")}
            return t(_k(f"summary.{kind}"), **boats)
        if kind in ("michimata", "hetsuka", "ebisu"):
            culture = culture_name(t, event["culture"])
            coins = int(event.get("coins", 0))
            return t(
                _k(f"summary.{kind}"), culture=culture, island=event.get("island"), count=coins
            )
        if kind in ("swap_tokens", "swap_boats"):
            field = "islands" if kind == "swap_tokens" else "spots"
            return t(_k(f"summary.{kind}"), **{field: joined(t, [str(x) for x in event[field]])})
        if kind == "reserve":
            return t(_k("summary.reserve"), tile=_tile_object(t, str(event["tile"])))
        if kind in SIMPLE:
            return t(_k(f"summary.{kind}"), **{k: v for k, v in event.items() if k != "type"})
        return None

    def panel_group(self, action: str) -> str:
        """``fleet``, ``trade``, ``place:clay``, ``recruit:Riu``, ``swap_boats``, ``keep``..."""
        words = action.split()
        kind = words[0]
        if kind in ("buy", "sell"):
            return "trade"
        if kind in ("place", "recruit") and len(words) > 1:
            return f"{kind}:{words[1]}"
        if kind == "swap" and len(words) > 1:
            return f"swap_{words[1]}"
        return kind

    def panel_group_label(self, t: Texts, group: str) -> str:
        """A group's name in the menu."""
        kind, _, detail = group.partition(":")
        if kind in PLAIN_GROUPS:
            return t(_k(f"panel.cat.{kind}"))
        if kind == "place":
            return t(_k("panel.cat.place"), boat=a_boat(t, detail))
        if kind == "recruit":
            return t(_k("panel.cat.recruit"), detail=detail)
        return t(_k("panel.cat.power"), detail=t(_k(f"power.{group}")))

    def panel_actions(self, preview: Callable[[str], list[str]], legal: list[str]) -> list[str]:
        """Each ``keep ...`` followed by ``keep ...; end`` when nothing but ending can follow.

        The harbor (step 4) is its own action; when no specialist can be recruited after it, the
        panel offers to store the boats and end the turn in one choice.
        """
        keeps = [a for a in legal if a.startswith("keep ")]
        if not keeps:
            return legal
        after = preview(keeps[0])
        if any(a.startswith("recruit ") for a in after) or "end" not in after:
            return legal
        result: list[str] = []
        for action in legal:
            result += [action, f"{action}; end"] if action in keeps else [action]
        return result

    def panel_label(self, t: Texts, view: View, action: str) -> str:
        """A panel choice in words ("Collect rice on A2 and tea on B4"); powers keep notation.

        ``action`` may be the first words of an action (a stage of a staged choice).
        """
        words = action.split()
        if not words or not _names_known(words[0], action.removesuffix("; end").split()[1:]):
            return action  # nothing, or a boat or token no game has ("keep bamb", typed)
        kind, args = words[0], words[1:]
        if action.endswith("; end") and kind == "keep":
            return t(_k("panel.do.keep_end"), boats=boats_counted(t, action[:-5].split()[1:]))
        if ";" in action:
            return action
        if kind == "fleet" and args:
            return self._fleet(t, view, args)
        if kind in ("buy", "sell") and len(args) == 1:
            return t(_k(f"panel.do.{kind}"), boat=a_boat(t, args[0]))
        if kind == "place" and len(args) == 2:
            return t(_k("panel.do.place"), boat=a_boat(t, args[0]), spot=args[1])
        if kind == "collect" and args:
            cultures = {str(i["label"]): str(i.get("token") or "") for i in view.get("islands", [])}
            tokens = [self._token_on(t, cultures.get(island, ""), island) for island in args]
            return t(_k("panel.do.collect"), tokens=joined(t, tokens))
        if kind == "build" and len(args) == 2:
            return t(_k("panel.do.build"), tile=_tile_object(t, args[0]), island=args[1])
        if kind == "build" and len(args) == 1:
            return t(_k("panel.do.build_tile"), tile=_tile_object(t, args[0]))
        if kind == "keep" and args:
            return t(_k("panel.do.keep"), boats=boats_counted(t, args))
        if kind == "recruit" and len(args) > 1:
            paid = tokens_listed(t, list(args[1:]))
            return t(_k("panel.do.recruit"), specialist=args[0], tokens=paid)
        if kind == "recruit" and len(args) == 1:  # a stage: the payment is chosen next
            return t(_k("panel.do.recruit_who"), specialist=args[0])
        if kind == "end" and not args:
            return t(_k("panel.cat.end"))
        return self._power(t, view, kind, args) or action

    def panel_description(self, t: Texts, view: View, action: str) -> str | None:
        """A building tile's points and boats (its label names it); a specialist's points and
        power; a fleet's power in full (the powers' texts are the pictures' own)."""
        words = action.split()
        kind, args = words[0], words[1:]
        if kind == "recruit" and args:
            return self.card_help(t, args[0]) or None
        if kind in ("build", "reserve") and args and args[0] in load_components().buildings:
            return self.card_help(t, args[0])
        if kind == "fleet" and args and args[0].isdigit():
            return say(f"y.fleet.{args[0]}", language(t))
        if kind == "arrange":  # the tiles looked at, each with what it is (QA: codes only)
            tiles = {c: tile_name(t, c) for c in args if c in load_components().buildings}
            full = " · ".join(
                t(_k("panel.tile_points"), tile=n, points=f"{_tile_pp(c)} PP, {_boats(t, c)}")
                for c, n in tiles.items()
            )
            short = " · ".join(
                t(_k("panel.tile_points"), tile=n, points=f"{_tile_pp(c)} PP")
                for c, n in tiles.items()
            )
            return (full if len(full) <= 100 else short) or None
        return None

    def card_codes(self, topic: str) -> Sequence[str]:
        """The specialists (by name) or the building tiles (by code), in the data's order."""
        comp = load_components()
        cards = {"specialists": list(comp.specialists), "buildings": list(comp.buildings)}
        return cards.get(topic, [])

    def card_name(self, t: Texts, code: str) -> str:
        """A specialist's name, or a building tile's ("Palace 3", as ``tile_name`` names it)."""
        if code not in load_components().buildings:
            return code
        name = tile_name(t, code)
        return name[:1].upper() + name[1:]

    def card_label(self, code: str) -> str:
        """A standard building tile as the pictures write it ("#07" for ``B07``); any other
        card by its code (a torii's or palace's picture label is its number alone)."""
        label = tile_label(code)
        return label if label.startswith("#") else code

    def typed_names(self) -> Names:
        """Its names typed in words, in any language (``typed.py``)."""
        return typed_names()

    def refusal_words(self, t: Texts, key: str, data: Mapping[str, Any]) -> dict[str, object]:
        """A refusal's boats, culture tokens and building tiles in words (``refused``)."""
        return refusal_words(t, key, data)

    def card_help(self, t: Texts, code: str) -> str:
        """A tile's PP and boats; a specialist's PP and power ("" for another code)."""
        comp = load_components()
        lang = language(t)
        if code in comp.specialists:
            power = say(f"y.specialist.{code}", lang)
            return t(_k("panel.about.specialist"), pp=comp.specialists[code].pp, power=power)
        tile = comp.buildings.get(code)
        if tile is None:
            return ""
        return t(_k("panel.about.tile"), pp=tile.pp, boats=listed(_tile_boats(t, code)))

    @staticmethod
    def _fleet(t: Texts, view: View, args: list[str]) -> str:
        """``Take fleet 7: a stone boat and a bamboo boat · remove up to 2 boats``."""
        track = view.get("fleet_track", [])
        fleet: Mapping[str, Any] = next((f for f in track if str(f.get("fleet")) == args[0]), {})
        boats = [str(b) for b in fleet.get("boats", [])]
        if not boats:  # a fleet the view does not show: its number is enough
            return t(_k("panel.do.fleet"), fleet=args[0])
        if len(args) == 2:  # fleet 10 and the boat chosen with it: that is its power
            return t(
                _k("panel.do.fleet_boats"), fleet=args[0], boats=boats_counted(t, [*boats, args[1]])
            )
        power = t(_k(f"power.{fleet.get('power')}"))
        return t(
            _k("panel.do.fleet_power"), fleet=args[0], boats=boats_counted(t, boats), power=power
        )

    def _power(self, t: Texts, view: View, kind: str, args: list[str]) -> str | None:
        """A fleet or specialist power in words (None for an action it does not know)."""
        cultures = {str(i["label"]): str(i.get("token") or "") for i in view.get("islands", [])}

        def token(island: str) -> str:  # the object of a verb: "le jeton riz de A3"
            culture = cultures.get(island, "")
            if not culture:
                return island
            return t(_k("panel.token"), culture=culture_name(t, culture), island=island)

        if kind == "swap" and len(args) == 3 and args[0] == "tokens":
            return t(_k("panel.do.swap_tokens"), first=token(args[1]), second=token(args[2]))
        if kind == "swap" and len(args) == 3 and args[0] == "boats":
            return t(_k("panel.do.swap_boats"), spots=joined(t, args[1:]))
        if kind == "swap" and len(args) == 2:  # a stage: the second token or boat comes next
            if args[0] == "tokens":
                return t(_k("panel.do.swap_tokens_from"), first=token(args[1]))
            return t(_k("panel.do.swap_boats_from"), spot=args[1])
        if kind == "remove" and args:
            return counted(t, _k("panel.do.remove"), len(args), spots=joined(t, args))
        if kind == "slide" and len(args) == 2:
            return t(_k("panel.do.slide"), start=args[0], to=args[1])
        if kind in ("sacred", "kachiko") and len(args) == 1:
            return t(_k(f"panel.do.{kind}"), island=args[0])
        if kind == "reserve" and len(args) == 1:
            return t(_k("panel.do.reserve"), tile=_tile_object(t, args[0]))
        if kind == "look" and not args:
            return t(_k("panel.do.look"))
        if kind == "arrange":
            top, _, bottom = " ".join(args).partition("/")
            none = t(_k("panel.do.arrange_none"))
            return t(
                _k("panel.do.arrange"),
                top=joined(t, [tile_name(t, c) for c in top.split()]) or none,
                bottom=joined(t, [tile_name(t, c) for c in bottom.split()]) or none,
            )
        if kind in ("raijin", "nakatsu") and args:
            return t(_k(f"panel.do.{kind}"), boats=boats_counted(t, args))
        if kind in ("michimata", "hetsuka") and len(args) == 1:
            return t(_k(f"panel.do.{kind}"), culture=culture_name(t, args[0]))
        if kind == "ebisu" and len(args) == 1:
            return t(_k("panel.do.ebisu"), token=token(args[0]))
        return None

    @staticmethod
    def _token_on(t: Texts, culture: str, island: str) -> str:
        if not culture:
            return island
        return t(_k("summary.token_on"), culture=culture_name(t, culture), island=island)


def _names_known(kind: str, args: Sequence[str]) -> bool:
    """Whether each argument of a ``kind`` action where a boat or a culture token belongs
    (``typed.VERBS``) names one in the notation."""
    kinds = list(VERBS.get(kind, ()))
    if kinds and kinds[-1].startswith("*"):  # it takes every argument left
        kinds += [kinds[-1]] * len(args)
    known = {"boat": BOAT_WORDS, "culture": CULTURE_WORDS}
    return all(
        arg in known[wanted.lstrip("*")]
        for wanted, arg in zip(kinds, args, strict=False)
        if wanted != AS_TYPED
    )


def _tile_pp(code: str) -> int:
    """A building tile's prestige points."""
    return load_components().buildings[code].pp


def _boats(t: Texts, code: str) -> str:
    """The boats a building tile takes, in one line ("bambou" times 2, "or")."""
    return ", ".join(_tile_boats(t, code))


def _tile_boats(t: Texts, code: str) -> list[str]:
    """The boats a building tile takes, in words, counted as culture tokens are ("bambou"
    times 2, "or"; ``yamatai.boat_counted``)."""
    comp = load_components()
    lang = language(t)
    return [
        say(f"y.boat.{b}", lang)
        if n == 1
        else t(_k("boat_counted"), name=say(f"y.boat.{b}", lang), count=n)
        for b, n in zip(comp.boat_names, comp.buildings[code].needs, strict=True)
        if n
    ]
