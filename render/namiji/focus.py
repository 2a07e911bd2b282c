"""Namiji's turn picture for the player to move: big text and the part that matters, with the
legal route spaces or crate cells ringed and the legal cards named."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.contract import Event
from engine.namiji.components import (
    CLOCKWISE,
    COLUMNS,
    PANORAMA_TYPES,
    cell_index,
    components,
    sheet_index,
)
from engine.namiji.view import NamijiPlayer, NamijiView
from render import focus
from render.extras import PLAIN, Extras
from render.focus import BODY, SMALL, TITLE, Line, Marked, Since
from render.marks import player_marks
from render.namiji import layout
from render.namiji.boards import upgrade_stations
from render.namiji.cards import card_line, card_name, is_card
from render.namiji.centre import draw_centre, draw_final_table, stop_bottom
from render.namiji.highlight import Highlight
from render.namiji.picture import doing_words, picture_palette, render_image, turn_number
from render.namiji.route import boat_centre, draw_boats, nobody_to_act
from render.namiji.static import KEY as STATION_KEY
from render.namiji.static import NUMBER_SIZE, fish_key, inward, static_layer
from render.png import write_png
from render.stand_in import (
    computer_played,
    dressed,
    ended,
    seat_words,
    stand_in_words,
)
from render.theme import Theme, get_theme
from render.words import known, say, speaking
from render.words import language as drawn_language

__all__ = [
    "Targets",
    "clear_of_centre",
    "focus_image",
    "legal_targets",
    "mark_route_target",
    "move_frame",
    "render_focus",
    "route_at_size",
    "turn_words",
]

ARRIVAL = components().arrival
CENTRE_SHOWN = 0.6
"""The share of the centre's width and height a route crop must show to draw its text."""
CENTRE_EDGE = 8
"""How far into the centre a route crop cut short of it goes (its rounded edge shows)."""
STOP_PAD = 16
"""Below the last row of a stop's crop."""
TAG_OFFSET = layout.OUTER_OFFSET + layout.OUTER_RADIUS + 4
"""From a route space's centre to its tag, outwards: beyond the double spaces' outer spots,
clear of the board's numbers and section names inside the loop (P2 #2)."""
TAG_REACH = 24
"""About half a tag's width, in board pixels (framed with its target)."""
SLOT_RADIUS = layout.SLOT_PITCH / 2
"""Half a pontoon slot's box as marked (just outside the slot's own square)."""
SLOT_RING = 0.4
"""A pontoon slot's box is drawn this much thinner than a space's ring."""


@dataclass(frozen=True)
class Targets:
    """What the legal actions point at, read from their notation."""

    spaces: frozenset[tuple[int, int]] = frozenset()
    """(route index, port slot or 0) of every legal ``move``."""
    cells: frozenset[str] = frozenset()
    """Crate cells (``r1c2``) of a legal ``keep`` or ``net``."""
    cards: tuple[str, ...] = ()
    """Fish, cards or nets named by a legal ``fish``, ``pick``, ``rock`` or ``net``."""
    other: tuple[str, ...] = ()
    """Legal actions with no place to ring (draw, stop, release, refuse, end, ...)."""


def legal_targets(legal: Iterable[str]) -> Targets:
    """The route spaces, crate cells and cards that the legal actions name."""
    spaces: set[tuple[int, int]] = set()
    cells: set[str] = set()
    cards: list[str] = []
    other: list[str] = []
    for action in legal:
        words = action.split()
        verb, args = (words[0], words[1:]) if words else ("", [])
        if verb == "move" and args and args[0].isdigit():
            slot = int(args[2]) if len(args) == 3 and args[1] == "slot" else 0
            spaces.add((int(args[0]), slot))
        elif verb == "keep" and args:
            cells.add(args[0])
        elif verb == "net" and len(args) >= 2:
            cells.add(args[1])
            if args[0] not in cards:
                cards.append(args[0])
        elif verb in ("fish", "pick", "rock") and args and args[0] not in cards:
            cards.append(args[0])
        elif action not in other:
            other.append(action)
    return Targets(frozenset(spaces), frozenset(cells), tuple(cards), tuple(other))


def render_focus(
    view: NamijiView,
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
    view: NamijiView,
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
    view: NamijiView,
    legal: Sequence[str],
    events: Sequence[Event] | None,
    look: Theme,
    since: Since | None = None,
    first_turn: bool = False,
) -> tuple[list[Image.Image | focus.Panel], tuple[Marked, ...]]:
    """The turn picture's parts from the top (text panels and the crop), and the targets."""
    view = nobody_to_act(view)
    if ended():  # nothing is legal once the bot ended the game
        legal = ()
    highlight = Highlight.from_events(events)
    targets = legal_targets(legal)
    marks, area = _marks(view, targets)
    if area == layout.ROUTE_AREA:
        changed = _changed(view, since or ())
        # nothing ringed: where the turn's boat went (the thread's card), else where I stand
        framed = marks or _turn_places(view, legal, events) or _own_boat(view)
        shown = move_frame(framed)
        crop = route_at_size(view, look, highlight, marks, shown, changed)
        fish = _mostly_shown(layout.CENTRE, shown.box) and _fish_in_centre(view)
        kinds = False
        stations = _stations_in(shown.box)
        chips = False
    else:
        at_stop = area == layout.CENTRE
        if at_stop:  # the supplies and the stop, not the empty panel under them (QA)
            area = (*layout.CENTRE[:3], min(layout.CENTRE[3], stop_bottom(view) + STOP_PAD))
        board_picture = render_image(view, highlight=highlight, theme=look, region=area)
        for marked in marks:
            focus.mark_target(board_picture, marked, look, _shape(marked))
        # a player's board is read whole: its right half (trap, panoramas) was cut (QA)
        crop = focus.crop_marked(board_picture, marks, area, theme=look, whole_width=not at_stop)
        fish = _fish_in_centre(view) if at_stop else _fish_in_crate(view, area)
        # a boat board's panorama row, or the bonus cards left in the supplies
        kinds = bool(view.get("bonuses")) if at_stop else True
        chips = not at_stop and _chips_in(view, area)
        # an upgrade's station discs on the boat board's chips (the panoramas' have their line)
        stations = _upgrade_stations_in(view, area) if chips else []
    choosing = [c for c in targets.cards if is_card(c)]
    parts: list[Image.Image | focus.Panel] = [
        focus.text_panel(_title(view, look), look, fill=look.background),
        *focus.choices_panel(view, legal, lambda: _choices(view, targets, look), look),
        *_card_panel(say("n.cards.choose"), choosing, look),
        crop,
        *_key_panel(fish, kinds, stations, look, chips),
        *_card_panel(say("n.cards.title"), _held(view), look),
        focus.text_panel(_scores(view, look), look),
        focus.text_panel(
            _last_turn(view, highlight, look)
            if since is None
            else focus.since_lines(view, since, look, turn_words, first_turn),
            look,
        ),
    ]
    return parts, tuple(marks)


def move_frame(framed: Sequence[Marked]) -> focus.Frame:
    """The part of the route a turn picture shows around the framed places, their tags (beyond
    the route, see ``_tag_place``) included, cut short of a centre it would show a strip of."""
    tags = [Marked("tag", m.tag, *_tag_reach(m), TAG_REACH) for m in framed if m.tag]
    return clear_of_centre(focus.frame([*framed, *tags], layout.ROUTE_AREA), framed)


def _tag_reach(marked: Marked) -> tuple[float, float]:
    """About where a target's tag stands (board pixels), to frame it with the target."""
    x, y, reach = marked.tag_anchor or (marked.x, marked.y, marked.radius)
    dx, dy = marked.tag_side
    return (x + dx * (reach + TAG_REACH), y + dy * (reach + TAG_REACH))


def _shape(marked: Marked) -> str:
    """Route spaces are ringed, crate cells boxed."""
    return "ring" if marked.kind == "space" else "box"


def route_at_size(
    view: NamijiView,
    look: Theme,
    hl: Highlight,
    marks: Sequence[Marked],
    shown: focus.Frame,
    changed: Sequence[Marked] = (),
) -> Image.Image:
    """The part of the route a frame shows, drawn at the turn picture's size (as wide, centred):
    the static layer scaled once per game, size and zoom; the centre's part in the frame drawn
    on the board and scaled alone (its text is drawn in place); the boats, the spaces
    ``changed`` since the viewer's last turn, rings and the spaces' numbers at size (where the
    board's own are smaller than the picture's least text)."""
    players = view["players"]
    static_key = (
        look,
        len(players),
        len(view["boats"]),
        bool(view.get("doubles_used")),
        drawn_language(),
        str(view.get("direction", CLOCKWISE)),
    )

    def static() -> Image.Image:
        return static_layer(*static_key)

    canvas = focus.scaled_static(("namiji", *static_key), static, layout.ROUTE_AREA, shown)
    _centre_at_size(canvas, view, look, shown, static)
    draw_boats(canvas, view, look, hl, player_marks(players), stage=focus.Stage(shown))
    for place in changed:
        focus.mark_changed(canvas, shown.placed(place), look, scale=shown.zoom)
    for marked in marks:
        mark_route_target(canvas, shown.placed(marked), look, shown.zoom, marked.radius)
    corner = static().getpixel((0, 0))
    assert isinstance(corner, tuple)
    out = focus.centred(canvas, (int(corner[0]), int(corner[1]), int(corner[2])))
    if shown.zoom * NUMBER_SIZE < SMALL:  # else the board's own numbers read as well
        focus.draw_tags(out, marks, shown, look, (out.width - canvas.width) // 2)
    return out


def mark_route_target(
    canvas: Image.Image, placed: Marked, look: Theme, zoom: float = 1.0, radius: float = 0.0
) -> None:
    """A legal move ringed on a route picture drawn at ``zoom`` (the mark placed on it; its
    board ``radius``, else the placed one's): a space's ring, a pontoon slot boxed thin on its
    edge, clear of the pontoon's name and the slot's digit (P2 #2)."""
    if (radius or placed.radius) == SLOT_RADIUS:
        focus.mark_target(canvas, placed, look, "box", scale=zoom * SLOT_RING)
    else:
        focus.mark_target(canvas, placed, look, _shape(placed), scale=zoom)


def _centre_at_size(
    canvas: Image.Image,
    view: NamijiView,
    look: Theme,
    shown: focus.Frame,
    static: Callable[[], Image.Image],
) -> None:
    """The centre (supplies and the stop, or the final table) where the frame shows most of it:
    drawn on the board, the part in the frame (grown to the frame's grid) scaled onto the
    canvas; a sliver of it (a frame on the route's side) keeps the plain panel, as cut text
    reads as noise (QA)."""
    box = shown.box
    if not _mostly_shown(layout.CENTRE, box):
        return
    board = static().copy()
    if view.get("phase") == "over":
        draw_final_table(board, view, look, player_marks(view["players"]))
    else:
        draw_centre(board, view, look)
    grid = focus.GRID
    x0 = max(box[0], box[0] + (layout.CENTRE[0] - box[0]) // grid * grid)
    y0 = max(box[1], box[1] + (layout.CENTRE[1] - box[1]) // grid * grid)
    x1, y1 = min(box[2], layout.CENTRE[2] + grid), min(box[3], layout.CENTRE[3] + grid)
    zoom = shown.zoom
    at = (round((x0 - box[0]) * zoom), round((y0 - box[1]) * zoom))
    size = (
        min(canvas.width - at[0], math.ceil((x1 - x0) * zoom)),
        min(canvas.height - at[1], math.ceil((y1 - y0) * zoom)),
    )
    exact = (x0, y0, x0 + size[0] / zoom, y0 + size[1] / zoom)
    canvas.paste(board.resize(size, Image.Resampling.BILINEAR, box=exact), at)


def clear_of_centre(shown: focus.Frame, framed: Sequence[Marked]) -> focus.Frame:
    """The frame cut short of the centre where it would show only an empty strip of it (the
    centre's text is drawn only where the frame shows most of it): on the side of the route
    the framed places are on, when they are all on one side."""
    box = shown.box
    centre = layout.CENTRE
    if not framed or _mostly_shown(centre, box) or not focus.overlaps(box, centre):
        return shown
    x0 = min(m.x - m.radius for m in framed)
    y0 = min(m.y - m.ry for m in framed)
    x1 = max(m.x + m.radius for m in framed)
    y1 = max(m.y + m.ry for m in framed)
    area, grid = layout.ROUTE_AREA, focus.GRID
    left, top, right, bottom = box
    if y1 <= centre[1]:  # the top side
        bottom = min(bottom, centre[1] + CENTRE_EDGE)
    elif y0 >= centre[3]:  # the bottom side: the top stays on the area's grid
        top = max(top, area[1] + (centre[3] - CENTRE_EDGE - area[1]) // grid * grid)
    elif x1 <= centre[0]:  # the left side
        right = min(right, centre[0] + CENTRE_EDGE)
    elif x0 >= centre[2]:  # the right side
        left = max(left, area[0] + (centre[2] - CENTRE_EDGE - area[0]) // grid * grid)
    return focus.Frame((left, top, right, bottom), shown.zoom)


def _key_panel(
    fish: bool, panoramas: bool, stations: Sequence[str], look: Theme, chips: bool = False
) -> list[focus.Panel]:
    """What the crop's letters mean, as the board's key says it: the fish tokens', the
    panoramas' (D, O, W), the route's ``stations``, those it shows, and the cards' (M, U, R)
    when it shows a boat board's card ``chips``."""
    lines: list[Line] = []
    if fish:
        lines.append((fish_key(), SMALL, look.ink_soft, False))
    if panoramas:
        kinds = ", ".join(_letter_words(PANORAMA_TYPES))
        lines.append((say("n.key.panoramas", kinds=kinds), SMALL, look.ink_soft, False))
    if stations:
        named = ", ".join(_letter_words(stations))
        lines.append((say("n.key.stations", stations=named), SMALL, look.ink_soft, False))
    if chips:
        lines.append((say("n.key.cards"), SMALL, look.ink_soft, False))
    return [focus.text_panel(lines, look)] if lines else []


def _letter_words(letters: Sequence[str]) -> list[str]:
    """Station letters with their names ("F fishing")."""
    return [f"{letter} {say(f'n.station.{letter}')}" for letter in letters]


def _stations_in(box: focus.Box) -> list[str]:
    """The station letters of the route spaces a crop shows, in the board key's order."""
    comp = components()
    spaces = layout.route_spaces(len(comp.route))[:-1]
    shown = {
        comp.route[s.index]
        for s in spaces
        if not comp.is_port(s.index) and box[0] <= s.x < box[2] and box[1] <= s.y < box[3]
    }
    return [letter for letter in STATION_KEY if letter in shown]


def _fish_in_centre(view: NamijiView) -> bool:
    """Whether the centre shows fish tokens (the bank's face-up fish, a catch, nets shown)."""
    bank = view.get("bank", {})
    return bool(bank.get("face_up") or view.get("catch") or view.get("nets_shown"))


def _board_shown(view: NamijiView, area: focus.Box) -> NamijiPlayer | None:
    """The player whose boat board is ``area``, if it is one."""
    for panel in layout.panels(len(view["players"])):
        if panel.box == area:
            return view["players"][panel.seat]
    return None


def _chips_in(view: NamijiView, area: focus.Box) -> bool:
    """Whether the boat board shown in ``area`` shows a card's face (a pontoon card, a sacred
    rock card: its letter and what it gives)."""
    player = _board_shown(view, area)
    return player is not None and bool(player.get("pontoon") or player.get("rocks"))


def _upgrade_stations_in(view: NamijiView, area: focus.Box) -> list[str]:
    """The stations of the upgrade cards on the boat board in ``area`` (their chips' discs),
    in the board key's order, but the panoramas' (named by their own line)."""
    player = _board_shown(view, area)
    cards = [str(c) for c in player.get("pontoon", [])] if player else []
    shown = {letter for card in cards for letter in upgrade_stations(card)}
    return [letter for letter in STATION_KEY if letter in shown and letter not in PANORAMA_TYPES]


def _fish_in_crate(view: NamijiView, area: focus.Box) -> bool:
    """Whether the boat board shown in ``area`` holds a fish."""
    for panel in layout.panels(len(view["players"])):
        if panel.box == area:
            return any(view["players"][panel.seat].get("crate", []))
    return False


def _mostly_shown(area: focus.Box, box: focus.Box) -> bool:
    """Whether ``box`` shows at least ``CENTRE_SHOWN`` of ``area``'s width and of its height."""
    wide = min(area[2], box[2]) - max(area[0], box[0])
    high = min(area[3], box[3]) - max(area[1], box[1])
    return wide >= CENTRE_SHOWN * (area[2] - area[0]) and high >= CENTRE_SHOWN * (area[3] - area[1])


def _held(view: NamijiView) -> list[str]:
    """The viewer's own pontoon cards and sacred rock cards (others' rock cards are hidden)."""
    viewer = view.get("viewer")
    players = view["players"]
    if not isinstance(viewer, int) or not 0 <= viewer < len(players):
        return []
    player = players[viewer]
    return [str(c) for c in [*player.get("pontoon", []), *player.get("rocks", [])]]


def _card_panel(title: str, cards: Sequence[str], look: Theme) -> list[focus.Panel]:
    """A block naming each card with what it does, or nothing when there are no cards."""
    if not cards:
        return []
    lines: list[Line] = [(title, BODY, look.ink, True)]
    lines += [(card_line(c), SMALL, look.ink, False) for c in cards]
    return [focus.text_panel(lines, look)]


def _marks(view: NamijiView, targets: Targets) -> tuple[list[Marked], tuple[int, int, int, int]]:
    """The targets' places on the board picture, and the area to show."""
    if targets.spaces:
        direction = str(view.get("direction", CLOCKWISE))
        marks = []
        tagged: set[int] = set()
        for index, slot in sorted(targets.spaces):
            (x, y), in_port = boat_centre(index, slot, direction)
            radius = SLOT_RADIUS if in_port else layout.SPACE_RADIUS + 4
            label = f"{index}" + (f" slot {slot}" if slot else "")
            tag = "" if index in tagged else str(index)  # a pontoon's number once
            tagged.add(index)
            place = index if index == ARRIVAL else sheet_index(index, direction)
            marks.append(Marked("space", label, x, y, radius, tag=tag, **_tag_place(place)))
        return marks, layout.ROUTE_AREA
    seat = view.get("current_seat")
    boards = layout.panels(len(view["players"]))
    if targets.cells and isinstance(seat, int) and seat < len(boards):
        left, top, _, _ = boards[seat].box
        x0, y0 = left + layout.CRATE_ORIGIN[0], top + layout.CRATE_ORIGIN[1]
        half = layout.CELL / 2
        marks = []
        for cell in sorted(targets.cells):
            r, c = divmod(cell_index(cell), COLUMNS)
            centre = (x0 + c * layout.CELL + half, y0 + r * layout.CELL + half)
            marks.append(Marked("cell", cell, *centre, half - 1, half - 1))
        return marks, boards[seat].box
    at_stop = isinstance(seat, int) and seat < len(boards) and view.get("phase") != "move"
    if at_stop and (targets.cards or set(targets.other) - {"end"}):  # the stop's choices
        return [], layout.CENTRE
    return [], layout.ROUTE_AREA  # a move, or only the turn's end: where the boat landed


def _own_boat(view: NamijiView) -> list[Marked]:
    """The player to move's boat, to frame the route on (not ringed); none if it has none."""
    direction = str(view.get("direction", CLOCKWISE))
    for boat in view.get("boats", []):
        if boat.get("seat") == view.get("current_seat"):
            (x, y), _ = boat_centre(int(boat["pos"]), int(boat["spot"]), direction)
            return [Marked("boat", "", x, y, layout.SPACE_RADIUS + 4)]
    return []


def _tag_place(index: int) -> dict[str, Any]:
    """Where a space's number goes beside its ring (house-sheet index): outside the loop,
    beyond the double spaces' outer spots (inside it are the board's numbers and section names,
    which the tags covered: P2 #2); a port's or pontoon's above or below its box."""
    comp = components()
    if not comp.is_port(index):
        x, y = inward(index)
        space = layout.route_spaces(len(comp.route))[index]
        return {"tag_side": (-x, -y), "tag_anchor": (space.x, space.y, TAG_OFFSET)}
    corner = (index // (layout.SPACES_PER_SIDE + 1)) % 4
    left, top, right, bottom = layout.port_box(corner)
    side = (0.0, -1.0) if corner < 2 else (0.0, 1.0)
    return {
        "tag_side": side,
        "tag_anchor": ((left + right) / 2, (top + bottom) / 2, 8 + (bottom - top) / 2),
    }


def _title(view: NamijiView, look: Theme) -> list[Line]:
    """The turn, whose turn and what they do (or the result)."""
    players = view["players"]
    if stopped := ended():
        return [
            (stopped, TITLE, look.accent, True),
            (
                f"{say('n.focus.turn_only', turn=turn_number(view))} · {say('c.ended.no_final')}",
                BODY,
                look.ink_light,
                True,
            ),
            (say("c.ended.as_they_stood"), SMALL, look.ink_dim, False),
        ]
    if view.get("phase") == "over":
        best = max(int(p.get("score", 0)) for p in players)
        names = [str(p.get("name", "")) for p in players if int(p.get("score", 0)) == best]
        key = "n.focus.wins" if len(names) == 1 else "n.focus.win"
        result = say(key, names=say("n.and").join(names), best=best)
        return [
            (say("n.focus.over"), TITLE, look.accent, True),
            (result, BODY, look.ink_light, True),
        ]
    seat = view.get("current_seat")
    who = str(players[seat]["name"]) if isinstance(seat, int) else "?"
    turn = turn_number(view)
    lines: list[Line] = [
        (say("n.focus.turn", turn=turn, name=who), TITLE, look.accent, True),
        (say("n.focus.now", doing=doing_words(view, yours=True)), BODY, look.ink_light, True),
    ]
    if isinstance(seat, int) and (stand_in := stand_in_words(seat)):
        lines.append((stand_in, SMALL, look.ink_dim, False))
    return lines


def _choices(view: NamijiView, targets: Targets, look: Theme) -> list[Line]:
    """The fish caught and waiting to be kept or released (a face-down one is named only
    here), what the ringed targets are, the cards to choose from, then the other actions ("Or:
    …" after those; the choice itself without them; nothing when it only repeats the title)."""
    lines: list[Line] = []
    caught = view.get("catch")
    if caught in components().fish:
        lines.append((say("n.focus.caught", fish=_fish(str(caught))), BODY, look.ink, True))
    if targets.spaces:
        direction = str(view.get("direction", CLOCKWISE))
        shown = " · ".join(_space_words(i, s, direction) for i, s in sorted(targets.spaces))
        lines.append((say("n.focus.move_to", spaces=shown), BODY, look.ink, True))
    if targets.cells:
        cells = say("n.focus.cell_sep").join(cell_words(c) for c in sorted(targets.cells))
        lines.append((say("n.focus.cells", cells=cells), BODY, look.ink, True))
    if targets.cards:
        cards = ", ".join(map(_card_or_fish, targets.cards))
        lines.append((say("n.focus.choose", cards=cards), BODY, look.ink, True))
    if targets.other:
        actions = list(dict.fromkeys(_other_words(targets.other)))
        if targets.spaces or targets.cells or targets.cards:
            said = say("n.focus.or", actions=", ".join(actions))
            lines.append((said, SMALL, look.ink_soft, False))
        elif actions != [
            doing_words(view, yours=True)
        ]:  # the one thing to do is the title's: not again
            lines.append((say("n.focus.choose", cards=", ".join(actions)), BODY, look.ink, True))
        return lines
    return lines or [(say("c.focus.nothing"), SMALL, look.ink_soft, False)]


def _space_words(index: int, slot: int, direction: str) -> str:
    """A route space with its station's name, as a phone reads it where the board's letters
    are too small ("14 trap"; a pontoon's slot: "26 (slot 1)")."""
    comp = components()
    place = index if index == ARRIVAL else sheet_index(index, direction)
    station = "" if comp.is_port(place) else f" {say(f'n.station.{comp.route[place]}')}"
    named = f"{index}{station}"
    return say("n.focus.slot", space=named, slot=slot) if slot else named


def cell_words(cell: str) -> str:
    """A crate cell in words, as the game's log says it (``r2c3``: "row 2, column 3")."""
    row, column = divmod(cell_index(cell), COLUMNS)
    return say("n.focus.cell", row=row + 1, column=column + 1)


def _fish(code: str) -> str:
    """A fish in words, as the game names it (``bs``: "blue saba", pl "niebieska saba")."""
    return say(f"n.fish.{code[:2]}")


def _card_or_fish(code: str) -> str:
    """A choosable card (by its name: the card lines say what it does), fish or net, in words."""
    comp = components()
    if is_card(code):
        return card_name(code)
    if code == "hidden":
        return say("n.focus.hidden_fish")
    if code in comp.fish:
        return _fish(code)
    kind, _, fish = code.partition(":")
    if kind == "N" and fish in comp.fish:
        return say("n.focus.net", fish=say(f"n.fish.two.{fish[:2]}"))  # "deux sabas bleus"
    return code


def _other_words(actions: Sequence[str]) -> list[str]:
    """The actions with no place to ring, in words (the panoramas together)."""
    words: list[str] = []
    kinds = [a.split()[1] for a in actions if a.startswith("panorama ") and len(a.split()) == 2]
    for action in actions:
        verb = action.split()[0]
        if verb == "panorama" and kinds:
            named = ", ".join(say(f"n.station.{k}") for k in kinds)
            words.append(say("n.focus.verb.panorama", kinds=named))
        elif known(f"n.focus.verb.{verb}") and verb != "panorama":
            words.append(say(f"n.focus.verb.{verb}"))
        else:
            words.append(action)
    return words


def _scores(view: NamijiView, look: Theme) -> list[Line]:
    """Each player's mark, name, score and offerings; the player to move in bold."""
    players = view["players"]
    marks = player_marks(players)
    current = view.get("current_seat")
    lines: list[Line] = [(say("c.focus.scores"), BODY, look.ink, True)]
    for seat, player in enumerate(players):
        extra = seat_words(seat)
        text = say(
            "n.focus.score_line",
            mark=marks[seat],
            name=player.get("name", ""),
            points=say("n.focus.points", count=int(player.get("score", 0))),
            count=int(player.get("offerings", 0)),
        ) + (f" ({extra})" if extra else "")
        mine = seat == current
        lines.append((("▶ " if mine else "") + text, SMALL, look.ink, mine))
    return lines


def _last_turn(view: NamijiView, hl: Highlight, look: Theme) -> list[Line]:
    """Who played the last turn and what they took, in words."""
    players = view["players"]
    if hl.seat is None or not 0 <= hl.seat < len(players):
        return [(say("c.focus.no_last_turn"), SMALL, look.ink_soft, False)]
    title = say("c.focus.last_turn_computer" if computer_played() else "c.focus.last_turn")
    did = _did(str(players[hl.seat].get("name", "")), hl.seat, hl)
    return [(title, BODY, look.last_turn_ink, True), (did, SMALL, look.ink, False)]


def turn_words(who: str, seat: int, events: Sequence[Event]) -> str:
    """A turn's (or one action's) changes in words, as the pictures tell them ("Ann: ...")."""
    return _did(who, seat, Highlight.from_events(events))


def _did(who: str, seat: int, hl: Highlight) -> str:
    """One turn's changes in words: "Ann: moved a boat, kept a fish, filled column 1 of the
    crate, took a pontoon card"."""
    lines = [
        say("n.focus.crate_row" if line[0] == "r" else "n.focus.crate_column", n=line[1:])
        for line in sorted(hl.lines.get(seat, ()))
    ]
    done = [
        say(f"n.focus.{key}")
        for key, shown in (
            ("moved", bool(hl.boats)),
            ("fished", seat in hl.fished and seat not in hl.kept),  # kept: said as kept
            ("kept", seat in hl.kept),
            ("net_placed", seat in hl.nets),
        )
        if shown
    ]
    done += lines
    done += [
        say(f"n.focus.{key}")
        for key, shown in (
            ("card", seat in hl.cards),
            ("panorama", seat in hl.panoramas),
            ("trap", seat in hl.trap),
            ("offering", seat in hl.offering),
            ("rock", seat in hl.rocks),
            ("arrival", seat in hl.arrival),
        )
        if shown
    ]
    return say("c.focus.did", name=who, done=", ".join(done) or say("n.focus.no_change"))


def _turn_places(
    view: NamijiView, legal: Sequence[str], events: Sequence[Event] | None
) -> list[Marked]:
    """Where the turn's boats went, to frame the route on, on a picture for everyone (the
    thread's turn card); else none."""
    if not events or not focus.for_everyone(view, legal):
        return []
    return _changed(view, ((0, tuple(events)),))


def _changed(view: NamijiView, since: Since) -> list[Marked]:
    """The spaces where the boats the others' turns since the viewer's last one moved stand."""
    moved: set[int] = set()
    for _, events in since:
        moved |= Highlight.from_events(events).boats
    direction = str(view.get("direction", CLOCKWISE))
    marks = []
    for index, boat in enumerate(view["boats"]):
        if index in moved:
            (x, y), in_port = boat_centre(int(boat["pos"]), int(boat["spot"]), direction)
            radius = layout.SLOT_PITCH / 2 if in_port else layout.SPACE_RADIUS + 4
            marks.append(Marked("space", str(boat["pos"]), x, y, radius))
    return marks
