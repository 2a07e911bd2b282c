"""Yamatai's turn picture for the player to move: big text and the board part that matters,
with the legal spots, islands, fleets, tiles or specialists of the current step ringed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.contract import Event
from engine.yamatai.board import Board, load_board
from engine.yamatai.view import YamataiSpot, YamataiTile, YamataiView
from render import focus
from render.extras import PLAIN, Extras
from render.focus import BODY, SMALL, TITLE, Line, Marked, Since
from render.png import write_png
from render.stand_in import (
    computer_played,
    dressed,
    ended,
    seat_words,
    stand_in_words,
    winners,
    without_turn,
)
from render.text import draw_text
from render.theme import Theme, get_theme
from render.words import known, say, speaking
from render.words import language as drawn_language
from render.yamatai.archipelago import draw_archipelago, island_centre, spot_centre
from render.yamatai.header import step_shown, step_words
from render.yamatai.highlight import Highlight
from render.yamatai.layout import Layout, Rect, layout
from render.yamatai.picture import picture_palette, render_image, seat_marks
from render.yamatai.signs import boat_letters, tile_words
from render.yamatai.static import island_label_xy, static_layer
from render.yamatai.tracks import (
    card_slots,
    end_words,
    fleet_slots,
    fleet_text,
    fleet_track_area,
    power_words,
)

__all__ = ["Targets", "focus_image", "legal_targets", "map_at_size", "render_focus", "shown_box"]

SPOT_VERBS = ("place", "slide", "remove")
ISLAND_VERBS = ("collect", "sacred", "kachiko", "ebisu")


@dataclass(frozen=True)
class Targets:
    """What the legal actions point at, read from their notation."""

    spots: frozenset[str] = frozenset()
    islands: frozenset[str] = frozenset()
    fleets: frozenset[int] = frozenset()
    tiles: frozenset[str] = frozenset()
    specialists: frozenset[str] = frozenset()
    other: tuple[str, ...] = ()
    """Legal actions with no place to ring (buy, sell, keep, end, look, ...), in order."""


def legal_targets(legal: Iterable[str]) -> Targets:
    """The spots, islands, fleets, tiles and specialists that the legal actions name."""
    spots: set[str] = set()
    islands: set[str] = set()
    fleets: set[int] = set()
    tiles: set[str] = set()
    specialists: set[str] = set()
    other: list[str] = []
    for action in legal:
        words = action.split()
        verb, args = (words[0], words[1:]) if words else ("", [])
        if verb == "place" and len(args) == 2:
            spots.add(args[1])
        elif verb in SPOT_VERBS[1:] or (verb == "swap" and args[:1] == ["boats"]):
            spots.update(a for a in args if a.isdigit())
        elif verb in ISLAND_VERBS or (verb == "swap" and args[:1] == ["tokens"]):
            islands.update(a for a in args if not a.isdigit() and a != "tokens")
        elif verb == "build" and len(args) == 2:
            tiles.add(args[0])
            islands.add(args[1])
        elif verb == "fleet" and args and args[0].isdigit():
            fleets.add(int(args[0]))
        elif verb == "reserve" and args:
            tiles.add(args[0])
        elif verb == "recruit" and args:
            specialists.add(args[0])
        elif action not in other:
            other.append(action)
    return Targets(
        frozenset(spots),
        frozenset(islands),
        frozenset(fleets),
        frozenset(tiles),
        frozenset(specialists),
        tuple(other),
    )


def render_focus(
    view: YamataiView,
    *,
    legal: Sequence[str],
    events: Sequence[Event] | None = None,
    extras: Extras = PLAIN,
) -> bytes:
    """The turn picture of a view for the player to move, as PNG bytes, drawn with ``extras``
    (its language, theme and the bot's extras); ``extras.since``: the others' turns since the
    viewer's last one, told and marked (``first_turn``: since the game began, the viewer has
    had no turn)."""
    look = get_theme(extras.theme)
    with speaking(extras.language), dressed(extras):
        parts, _ = _focus_parts(view, legal, events, look, extras.since, extras.first_turn)
        return write_png(focus.stack_mapped(parts, look, picture_palette(look)))


def focus_image(
    view: YamataiView,
    *,
    legal: Sequence[str],
    events: Sequence[Event] | None = None,
    extras: Extras = PLAIN,
) -> tuple[Image.Image, tuple[Marked, ...]]:
    """The turn picture as an RGB image, and the targets ringed on the board picture."""
    with speaking(extras.language), dressed(extras):
        look = get_theme(extras.theme)
        parts, marks = _focus_parts(view, legal, events, look, extras.since, extras.first_turn)
        return focus.stack(parts, look), marks


def _focus_parts(
    view: YamataiView,
    legal: Sequence[str],
    events: Sequence[Event] | None,
    look: Theme,
    since: Since | None = None,
    first_turn: bool = False,
) -> tuple[list[Image.Image | focus.Panel], tuple[Marked, ...]]:
    """The turn picture's parts from the top (text panels and the crop), and the targets."""
    view = without_turn(view)
    if ended():  # nothing is legal once the bot ended the game
        legal = ()
    highlight = Highlight.from_events(events) if events is not None else Highlight.from_view(view)
    lay = layout(str(view.get("board", "default")), len(view["players"]))
    targets = legal_targets(legal)
    marks, area = _marks(view, lay, targets)
    if area == lay.map:
        shown = focus.frame(marks or _turn_places(view, lay, legal, events), area.box)
        changed = _changed(view, lay, since or ())
        crop = map_at_size(view, lay, look, highlight, marks, shown, changed)
    else:
        board_picture = render_image(view, highlight=highlight, theme=look, region=area.box)
        for marked in marks:
            focus.mark_target(board_picture, marked, look, _shape(marked))
        whole = _card_row(lay, area)  # a row of cards is shown whole: no card cut, no stray letter
        crop = focus.crop_marked(board_picture, () if whole else marks, area.box)
    parts: list[Image.Image | focus.Panel] = [
        focus.text_panel(_title(view, look, targets), look, fill=look.background),
        *focus.choices_panel(
            view, legal, lambda: _choices(view, targets, look, {m.kind for m in marks}), look
        ),
        crop,
        focus.text_panel(_scores(view, look), look),
        focus.text_panel(_fleets(view, look), look),
        focus.text_panel(
            _last_turn(view, highlight, look)
            if since is None
            else focus.since_lines(view, since, look, turn_words, first_turn),
            look,
        ),
    ]
    return parts, tuple(marks)


def shown_box(
    view: YamataiView, *, legal: Sequence[str], events: Sequence[Event] | None = None
) -> focus.Box | None:
    """The part of the board picture (x0, y0, x1, y1) the turn picture shows for ``legal``: the
    map's frame, or a whole row of cards (the building tiles, the specialists); None for the
    fleet track, cut around the fleets to choose."""
    view = without_turn(view)
    lay = layout(str(view.get("board", "default")), len(view["players"]))
    marks, area = _marks(view, lay, legal_targets(() if ended() else legal))
    if area == lay.map:
        return focus.frame(marks or _turn_places(view, lay, legal, events), area.box).box
    return area.box if _card_row(lay, area) else None


def _card_row(lay: Layout, area: Rect) -> bool:
    """Whether ``area`` is a row of cards (building tiles or specialists)."""
    return area in (lay.buildings, lay.specialists)


def _shape(marked: Marked) -> str:
    """Spots and islands are ringed, cards and tiles boxed."""
    return "ring" if marked.kind in ("spot", "island") else "box"


def map_at_size(
    view: YamataiView,
    lay: Layout,
    look: Theme,
    hl: Highlight,
    marks: Sequence[Marked],
    shown: focus.Frame,
    changed: Sequence[Marked] = (),
) -> Image.Image:
    """The part of the map a frame shows, drawn at the turn picture's size (as wide, centred):
    the static layer scaled once per board, theme, players, language and zoom, the pieces, the
    places ``changed`` since the viewer's last turn and the marks' rings on it."""
    board_name = str(view.get("board", "default"))
    players = view["players"]
    language = drawn_language()
    canvas = focus.scaled_static(
        ("yamatai", board_name, look, len(players), language),
        lambda: static_layer(board_name, look, len(players), language),
        lay.map.box,
        shown,
    )
    board = load_board(board_name)
    stage = focus.Stage(shown)
    draw_archipelago(canvas, view, board, lay, look, hl, seat_marks(players), stage=stage)
    for place in changed:
        focus.mark_changed(canvas, shown.placed(place), look, scale=shown.zoom)
    for marked in marks:
        focus.mark_target(canvas, shown.placed(marked), look, _shape(marked), scale=shown.zoom)
    _label_ringed_islands(canvas, board, lay, look, marks, shown)
    focus.draw_tags(canvas, marks, shown, look, 0)
    return focus.centred(canvas, look.background)


def _label_ringed_islands(
    canvas: Image.Image,
    board: Board,
    lay: Layout,
    look: Theme,
    marks: Sequence[Marked],
    shown: focus.Frame,
) -> None:
    """A ringed island's label again, over its ring (the ring passes where the label is)."""
    size = max(1, round(look.island_label_size * shown.zoom))
    halo = max(1, round(3 * shown.zoom))
    draw = ImageDraw.Draw(canvas)
    for marked in marks:
        if marked.kind == "island" and marked.label in board.island_labels:
            at = shown.point(island_label_xy(board, lay, board.island_labels.index(marked.label)))
            draw_text(
                draw,
                at,
                marked.label,
                look.island_label,
                size,
                halo=look.island_label_halo,
                halo_width=halo,
            )


def _hidden(spot: YamataiSpot) -> str:
    """The number of a spot a boat stands on (it covers the printed number), else ""."""
    return str(spot["label"]) if spot.get("boat") else ""


def _marks(view: YamataiView, lay: Layout, targets: Targets) -> tuple[list[Marked], Rect]:
    """The targets' places on the board picture, and the area to show (map first)."""
    board = load_board(str(view.get("board", "default")))
    scale = lay.transform.scale
    on_map = [
        # a boat on a ringed spot hides its number: the number goes on a badge beside the ring
        Marked("spot", str(s["label"]), *spot_centre(board, lay, i), 24, tag=_hidden(s))
        for i, s in enumerate(view["spots"])
        if str(s["label"]) in targets.spots
    ] + [
        Marked("island", str(isl["label"]), *island_centre(board, lay, i), 0.5 * scale)
        for i, isl in enumerate(view["islands"])
        if str(isl["label"]).upper() in {t.upper() for t in targets.islands}
    ]
    if on_map:
        return on_map, lay.map
    track = list(view.get("fleet_track", []))
    fleets = [
        _boxed("fleet", str(e["fleet"]), slot)
        for slot, e in zip(fleet_slots(lay.fleet, len(track)), track, strict=False)
        if e.get("fleet") in targets.fleets
    ]
    if fleets:  # the track alone: a crop from the marks would cut the turn order's column
        return fleets, fleet_track_area(lay.fleet)
    row = list(view.get("building_row", []))
    tiles = [
        _boxed("tile", str(t["id"]), slot)
        for slot, t in zip(card_slots(lay.buildings, len(row)), row, strict=False)
        if str(t["id"]).upper() in {t.upper() for t in targets.tiles}
    ]
    if tiles:
        return tiles, lay.buildings
    cards = list(view.get("specialist_track", []))
    wanted = {s.lower() for s in targets.specialists}
    specialists = [
        _boxed("specialist", str(c["name"]), slot)
        for slot, c in zip(card_slots(lay.specialists, len(cards)), cards, strict=False)
        if c is not None and str(c["name"]).lower() in wanted
    ]
    return specialists, (lay.specialists if specialists else lay.map)


def _boxed(kind: str, label: str, slot: Rect) -> Marked:
    """A card-shaped target: its centre and half its size (the box, drawn inwards, mostly
    outside the card: it would hide the ends of the card's lines)."""
    centre = ((slot.x0 + slot.x1) / 2, (slot.y0 + slot.y1) / 2)
    return Marked(kind, label, *centre, slot.width / 2 + 6, slot.height / 2 + 6)


def _title(view: YamataiView, look: Theme, targets: Targets) -> list[Line]:
    """Round, whose turn and the step in words (or the result)."""
    players = view["players"]
    outcome = view.get("outcome")
    if stopped := ended():
        round_words = say("y.focus.round", round=view.get("round", ""))
        return [
            (stopped, TITLE, look.accent, True),
            (f"{round_words} · {say('c.ended.no_final')}", BODY, look.ink_light, True),
            (say("c.ended.as_they_stood"), SMALL, look.ink_dim, False),
        ]
    if view.get("over") and outcome:
        winner = players[winners([int(outcome["winner"])])[0]]
        reasons = end_words(outcome.get("end_reasons", []))
        return [
            (say("y.focus.over", round=view.get("round", "")), TITLE, look.accent, True),
            (say("y.focus.wins", name=winner["name"]), BODY, look.ink_light, True),
            *(
                [(say("y.final.reason", reasons=reasons), SMALL, look.ink_dim, False)]
                if reasons
                else []
            ),
        ]
    seat = view.get("current_seat")
    who = str(players[seat]["name"]) if isinstance(seat, int) else "?"
    lines: list[Line] = [
        (say("y.focus.turn", round=view.get("round", ""), name=who), TITLE, look.accent, True),
        (say("y.focus.now", step=_step_now(view, targets)), BODY, look.ink_light, True),
    ]
    if isinstance(seat, int) and (stand_in := stand_in_words(seat)):
        lines.append((stand_in, SMALL, look.ink_dim, False))
    return lines


def _step_now(view: YamataiView, targets: Targets) -> str:
    """The step the player is at, in the player's words; at the recruiting step (rulebook step
    5, optional) with no specialist to recruit, only the turn's end is left to name (a fleet's
    power, "reserve", is any step's: the choices name it)."""
    if step_shown(view) == "stored" and not targets.specialists:
        return say("y.focus.step.recruited")
    return step_words(view, yours=True)


def _choices(view: YamataiView, targets: Targets, look: Theme, shown: Set[str]) -> list[Line]:
    """What the ringed targets are (the kinds ``shown`` on the picture's crop) and the others
    the choice names (a build's tiles while the map is shown), then the other legal actions by
    verb (and the tiles a fleet's "look" drew, which only their player sees, while they wait to
    be put back)."""
    named = [
        ("spot", sorted(targets.spots, key=int)),
        ("island", sorted(targets.islands)),
        ("fleet", [str(f) for f in sorted(targets.fleets)]),
        ("tile", [tile_words(t) for t in sorted(targets.tiles)]),
        ("specialist", sorted(targets.specialists)),
    ]
    lines: list[Line] = []
    for key, on_picture in (("c.focus.ringed", True), ("c.focus.elsewhere", False)):
        said = " · ".join(
            say(f"y.focus.{kind}s", items=", ".join(items), count=len(items))
            for kind, items in named
            if items and (kind in shown) == on_picture
        )
        if said:
            lines.append(
                (say(key, targets=said), BODY if on_picture else SMALL, look.ink, on_picture)
            )
    verbs: dict[str, list[str]] = {}
    for action in targets.other:
        verb, _, rest = action.partition(" ")
        verbs.setdefault(verb, []).append(rest)
    for verb, rests in verbs.items():
        lines.append((_verb_line(verb, rests), SMALL, look.ink_soft, False))
        if verb == "arrange":
            looked = (view.get("turn") or {}).get("looked") or []
            lines += [(_looked_tile(tile), SMALL, look.ink, False) for tile in looked]
    if not lines:
        lines.append((say("c.focus.nothing"), SMALL, look.ink_soft, False))
    return lines


def _looked_tile(tile: YamataiTile) -> str:
    """A tile drawn by "look" in words: its name (as the panel and the ringed line say it), its
    boats, its PP and kind."""
    boats = " + ".join(say(f"y.boat.{boat}") for boat in tile.get("boats", []))
    shown = {"tile": tile_words(str(tile.get("id", ""))), "boats": boats, "pp": tile.get("pp", 0)}
    kind = f"y.key.{tile.get('kind')}"
    if known(kind):
        return say("y.focus.looked_kind", kind=say(kind), **shown)
    return say("y.focus.looked", **shown)


def _goods(rest: str) -> str:
    """A choice's boats or culture tokens in words (``bamboo wood`` -> ``bambou, bois``)."""
    words = []
    for word in rest.split():
        for kind in ("boat", "culture"):
            if known(f"y.{kind}.{word}"):
                words.append(say(f"y.{kind}.{word}"))
                break
    return " + ".join(words)


def _verb_line(verb: str, rests: Sequence[str]) -> str:
    """One kind of unringed choice in words: buy, sell, keep, a specialist's power, look,
    arrange, end (tile codes stay off the picture: the panel names them)."""
    if verb in ("end", "look", "arrange"):
        return say(f"y.focus.verb.{verb}")
    items = ", ".join(dict.fromkeys(g for g in map(_goods, rests) if g))
    if verb in ("buy", "sell", "keep"):
        return say(f"y.focus.verb.{verb}", items=items)
    return say("y.focus.verb.power", name=verb.capitalize(), items=items)


def _scores(view: YamataiView, look: Theme) -> list[Line]:
    """Each player's mark, name, score, coins and stand-in; the player to move first; what the
    "+?" of face-down building tiles means, if a score has it."""
    players = view["players"]
    marks = seat_marks(players)
    current = view.get("current_seat")
    # a projection: reserved tiles and unused boats cost points (the rulebook's scoring)
    lines: list[Line] = [(say("y.focus.scores"), BODY, look.ink, True)]
    for seat, player in enumerate(players):
        score = player.get("score", {})
        hidden = "+?" if player.get("hidden_tiles") else ""
        extra = seat_words(seat)
        text = say(
            "y.focus.score_line",
            mark=marks[seat],
            name=player["name"],
            total=f"{score.get('total', 0)}{hidden}",
            coins=player.get("coins", 0),
        ) + (f" ({extra})" if extra else "")
        mine = seat == current
        lines.append((("▶ " if mine else "") + text, SMALL, look.ink, mine))
    if any(player.get("hidden_tiles") for player in players):  # what "+?" stands for
        lines.append((say("y.focus.hidden_score"), SMALL, look.ink_soft, False))
    return lines


def _fleets(view: YamataiView, look: Theme) -> list[Line]:
    """The face-up fleets: number, boats and power (in full when choosing one, else in a word)."""
    letters = boat_letters()
    choosing = (view.get("turn") or {}).get("step") == "fleet"
    shown = []
    for entry in view.get("fleet_track", []):
        if entry.get("face_up") and entry.get("fleet"):
            boats = "".join(letters.get(b, "?") for b in entry.get("boats", []))
            power = fleet_text(entry) if choosing else power_words(entry.get("power"))
            line = say("y.focus.fleet", fleet=entry["fleet"], boats=boats, power=power)
            shown.append(line.replace("\n", " "))
    if not shown:
        return [(say("y.focus.no_fleets"), SMALL, look.ink_soft, False)]
    title: Line = (say("y.focus.fleets_title"), BODY, look.ink, True)
    if choosing:
        return [title, *((line, SMALL, look.ink, False) for line in shown), _boat_key(look)]
    return [title, (" · ".join(shown), SMALL, look.ink, False), _boat_key(look)]


def _boat_key(look: Theme) -> Line:
    """What the fleets' boat letters stand for ("Boats: G bamboo · W wood · ...")."""
    key = " · ".join(f"{letter} {say(f'y.boat.{boat}')}" for boat, letter in boat_letters().items())
    return (say("y.focus.boat_key", key=key), SMALL, look.ink_soft, False)


def _last_turn(view: YamataiView, hl: Highlight, look: Theme) -> list[Line]:
    """What the last turn did, in words (it stays readable after the round's track slid)."""
    players = view["players"]
    if hl.seat is None or not 0 <= hl.seat < len(players):
        return [(say("c.focus.no_last_turn"), SMALL, look.ink_soft, False)]
    who = str(players[hl.seat]["name"])
    title = say("c.focus.last_turn_computer" if computer_played() else "c.focus.last_turn")
    return [(title, BODY, look.last_turn_ink, True), (_did(who, hl), SMALL, look.ink, False)]


def turn_words(who: str, seat: int, events: Sequence[Event]) -> str:
    """A turn's (or one action's) changes in words, as the pictures tell them ("Ann: ...")."""
    return _did(who, Highlight.from_events(events))


def _did(who: str, hl: Highlight) -> str:
    """One turn in words, the whole of it: "Ann: took fleet 4; bought a clay boat; placed boats
    on spots 12, 13; kept a gold boat in the harbor" (the picture shows only part of it)."""
    done: list[str] = []
    if hl.fleet is not None:
        done.append(say("y.focus.took_fleet", fleet=hl.fleet))
    for kind, key in (("buy", "y.focus.bought"), ("sell", "y.focus.sold")):
        if boats := [boat for done_kind, boat in hl.traded if done_kind == kind]:
            done.append(say(key, boats=_boats(boats)))
    # a boat placed then moved in the same turn is told where it ended, once: as placed
    for key, spots in (
        ("y.focus.placed", hl.placed),
        ("y.focus.moved", hl.moved - hl.placed),
        ("y.focus.removed", hl.removed),
    ):
        if spots:
            shown = ", ".join(sorted(spots, key=_number))
            done.append(say(key, items=shown, count=len(spots)))
    if hl.built:
        done.append(say("y.focus.built", island=hl.built))
    if hl.collected:
        tokens = ", ".join(
            say("y.focus.token_on", culture=say(f"y.culture.{c}"), island=i)
            for i, c in hl.collected
        )
        done.append(say("y.focus.collected", tokens=tokens, count=len(hl.collected)))
    if hl.sacred:
        done.append(say("y.focus.sacred", islands=", ".join(sorted(hl.sacred))))
    if hl.unsacred:
        done.append(say("y.focus.unsacred", islands=", ".join(sorted(hl.unsacred))))
    if hl.swapped:
        done.append(say("y.focus.swapped", islands=", ".join(sorted(hl.swapped))))
    if hl.exchanged:
        done.append(say("y.focus.exchanged", names=", ".join(hl.exchanged)))
    if hl.looked:
        done.append(say("y.focus.looked_at"))
    if hl.reserved:
        done.append(say("y.focus.reserved", tile=tile_words(hl.reserved, "tile_object")))
    if hl.kept:
        done.append(say("y.focus.kept", boats=_boats(hl.kept)))
    if hl.set_aside:
        done.append(say("y.focus.set_aside", count=hl.set_aside))
    if hl.recruited:
        done.append(say("y.focus.recruited", name=hl.recruited))
    return say(
        "c.focus.did", name=who, done=say("c.focus.then").join(done) or say("y.focus.no_change")
    )


def _boats(boats: Sequence[str]) -> str:
    """Boats one by one in words: "a clay boat, a gold boat"."""
    return ", ".join(say(f"y.focus.a_boat.{boat}") for boat in boats)


def _turn_places(
    view: YamataiView, lay: Layout, legal: Sequence[str], events: Sequence[Event] | None
) -> list[Marked]:
    """The places the turn changed, to frame the map on, on a picture for everyone (the
    thread's turn card); else none: the whole map."""
    if not events or not focus.for_everyone(view, legal):
        return []
    return _changed(view, lay, ((0, tuple(events)),))


def _changed(view: YamataiView, lay: Layout, since: Since) -> list[Marked]:
    """The spots and islands the others' turns since the viewer's last one changed (boats
    placed or moved, buildings, tokens taken, sacred grounds, swapped tokens)."""
    spots: set[str] = set()
    islands: set[str] = set()
    for _, events in since:
        hl = Highlight.from_events(events)
        spots |= hl.placed | hl.moved
        islands |= {i for i, _ in hl.collected} | hl.sacred | hl.unsacred | hl.swapped
        if hl.built:
            islands.add(hl.built)
    board = load_board(str(view.get("board", "default")))
    wanted, size = {i.upper() for i in islands}, 0.5 * lay.transform.scale
    return [
        Marked("spot", str(s["label"]), *spot_centre(board, lay, i), 24)
        for i, s in enumerate(view["spots"])
        if str(s["label"]) in spots
    ] + [
        Marked("island", str(isl["label"]), *island_centre(board, lay, i), size)
        for i, isl in enumerate(view["islands"])
        if str(isl["label"]).upper() in wanted
    ]


def _number(label: str) -> int:
    return int(label) if label.isdigit() else 0
