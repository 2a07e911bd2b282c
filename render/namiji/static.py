"""The static layer: sea, the route loop with its stations, ports, frames and the key.

Drawn once per (theme, player count, boats, double spaces open) at 2x and reduced, then copied."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.namiji.components import CLOCKWISE, components, sheet_index
from render.namiji import layout, palette
from render.text import draw_text
from render.theme import RGB, Theme
from render.words import say

SS = 2  # supersampling of the static layer

#: The key under the supplies: station letters (``n.station.<letter>`` names them).
KEY = ("F", "N", "C", "T", "R", "D", "O", "W")
SECTION_LABEL_INSET = 62
LABEL_SIZE = 18
NUMBER_INSET = 44  # a space's number, inside the loop (the notation's `move 17`)
NUMBER_SIZE = 15
PORT_NUMBER_INSET = 27  # the port's or a pontoon's number, diagonally inside its corner
KEY_HEIGHT = 135  # the key's part of the centre panel, from its foot
FISH_COLOURS = ("b", "o", "g")
FISH_SHAPES = ("t", "s", "f")

__all__ = ["KEY", "KEY_HEIGHT", "fish_key", "inward", "number_at", "static_layer"]


def fish_key(language: str | None = None) -> str:
    """What a fish token's two letters mean ("fish: b blue, o orange, g green  ·  t tai, ..."),
    in ``language`` (None: the language being drawn)."""
    colours = ", ".join(f"{c} {say(f'n.fish.colour.{c}', language)}" for c in FISH_COLOURS)
    shapes = ", ".join(f"{s} {say(f'n.fish.shape.{s}', language)}" for s in FISH_SHAPES)
    return say("n.key.fish", language, colours=colours, shapes=shapes)


def _s(value: float) -> float:
    """A full-size coordinate at supersampled size."""
    return value * SS


def _box(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A full-size box at supersampled size."""
    return (box[0] * SS, box[1] * SS, box[2] * SS, box[3] * SS)


def _disc(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    r: float,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """A disc at full-size coordinates."""
    draw.ellipse(_box((x - r, y - r, x + r, y + r)), fill=fill, outline=outline, width=width)


def _section_label(
    big: Image.Image, at: tuple[float, float], text: str, theme: Theme, vertical: bool
) -> None:
    """A section's name inside the loop, turned along the vertical sides."""
    size = 15 * SS
    label = Image.new("RGBA", (size * 8, size * 2), (0, 0, 0, 0))
    draw_text(
        ImageDraw.Draw(label),
        (label.width / 2, label.height / 2),
        text,
        theme.ink_dim,
        size,
        "bold",
        scale=SS,
    )
    if vertical:
        label = label.rotate(90, expand=True)
    big.paste(
        label, (round(_s(at[0]) - label.width / 2), round(_s(at[1]) - label.height / 2)), label
    )


def pontoon_slots(players: int) -> int:
    """Boat slots used at each pontoon for this many players."""
    return components().slots.get(players, 5)


def number_at(index: int) -> tuple[float, float]:
    """Where the number of the space at house-sheet index ``index`` is drawn: inside the loop."""
    comp = components()
    space = layout.route_spaces(len(comp.route))[index]
    if comp.is_port(index):
        corner = (index // (layout.SPACES_PER_SIDE + 1)) % 4
        (x, y), (dx, dy) = layout.CORNERS[corner], _INWARD[corner]
        return (x + dx * PORT_NUMBER_INSET, y + dy * PORT_NUMBER_INSET)
    return (space.x - space.out[0] * NUMBER_INSET, space.y - space.out[1] * NUMBER_INSET)


_INWARD = ((1, 1), (-1, 1), (-1, -1), (1, -1))  # from each corner of the loop towards its centre


def inward(index: int) -> tuple[float, float]:
    """The unit vector from the space at house-sheet index ``index`` into the loop."""
    comp = components()
    if comp.is_port(index):
        dx, dy = _INWARD[(index // (layout.SPACES_PER_SIDE + 1)) % 4]
        return (dx * 0.7071, dy * 0.7071)
    out = layout.route_spaces(len(comp.route))[index].out
    return (-out[0], -out[1])


def pontoon_number(corner: int, direction: str) -> int:
    """The pontoon at a corner (1-3) of the picture, numbered in the order it is reached (the
    texts' "ponton 1", "pomost 1")."""
    return corner if direction == CLOCKWISE else 4 - corner


@lru_cache(maxsize=16)
def static_layer(
    theme: Theme,
    players: int,
    boats: int,
    doubles_open: bool,
    language: str = "en",
    direction: str = CLOCKWISE,
) -> Image.Image:
    """The board without pieces (cached; copy it before drawing); the house sheet's loop, with
    the spaces numbered, the sections and the pontoons named in the ``direction`` sailed."""
    comp = components()
    big = Image.new("RGB", (layout.WIDTH * SS, layout.HEIGHT * SS), theme.background)
    draw = ImageDraw.Draw(big)
    draw.rectangle(_box(layout.ROUTE_AREA), fill=palette.SEA)
    spaces = layout.route_spaces(len(comp.route))
    forwards = direction == CLOCKWISE
    loop = [(_s(x), _s(y)) for x, y in layout.CORNERS]
    draw.line([*loop, loop[0]], fill=palette.SEA_LOOP, width=SS * 14, joint="curve")
    # sections, named inside the loop
    cx = (layout.CORNERS[0][0] + layout.CORNERS[1][0]) / 2
    cy = (layout.CORNERS[0][1] + layout.CORNERS[2][1]) / 2
    for side in range(4):
        (x0, y0), (x1, y1) = layout.CORNERS[side], layout.CORNERS[(side + 1) % 4]
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = cx - mx, cy - my
        norm = max(1.0, (dx * dx + dy * dy) ** 0.5)
        at = (mx + dx / norm * SECTION_LABEL_INSET, my + dy / norm * SECTION_LABEL_INSET)
        _section_label(
            big,
            at,
            say("n.static.section", language, number=side + 1 if forwards else 4 - side),
            theme,
            vertical=side % 2 == 1,
        )
    for space in spaces[:-1]:
        letter = comp.route[space.index]
        if comp.is_port(space.index):
            continue
        if comp.double[space.index]:
            ox, oy = space.outer
            draw.line(
                [(_s(space.x), _s(space.y)), (_s(ox), _s(oy))], fill=palette.SEA_LOOP, width=SS * 6
            )
            if doubles_open:
                _disc(
                    draw,
                    ox,
                    oy,
                    layout.OUTER_RADIUS,
                    fill=palette.OUTER_SPOT,
                    outline=palette.STATION_INK,
                    width=SS * 2,
                )
            else:
                _disc(draw, ox, oy, layout.OUTER_RADIUS, fill=palette.CLOSED_SPOT)
                k = layout.OUTER_RADIUS * 0.5
                for sx in (-1, 1):
                    draw.line(
                        [(_s(ox - k), _s(oy - k * sx)), (_s(ox + k), _s(oy + k * sx))],
                        fill=palette.SEA,
                        width=SS * 3,
                    )
        double = comp.double[space.index]
        _disc(
            draw,
            space.x,
            space.y,
            layout.SPACE_RADIUS,
            fill=palette.STATIONS.get(letter, palette.OUTER_SPOT),
            outline=palette.STATION_INK,
            width=SS * (4 if double else 2),
        )
        draw_text(
            draw,
            (_s(space.x), _s(space.y)),
            letter,
            palette.STATION_INK,
            LABEL_SIZE * SS,
            "bold",
            scale=SS,
        )
    _draw_numbers(draw, direction)
    # the port and the pontoons
    for corner in range(4):
        box = layout.port_box(corner)
        draw.rounded_rectangle(
            _box(box),
            SS * 10,
            fill=palette.STATIONS["S" if corner == 0 else "P"],
            outline=palette.STATION_INK,
            width=SS * 3,
        )
        title = (
            say("n.static.port", language)
            if corner == 0
            else say("n.static.pontoon", language, number=pontoon_number(corner, direction))
        )
        draw_text(
            draw,
            (_s((box[0] + box[2]) / 2), _s(box[1] + 15)),
            title,
            palette.STATION_INK,
            16 * SS,
            "bold",
            scale=SS,
        )
        slots = max(boats, pontoon_slots(players)) if corner == 0 else pontoon_slots(players)
        for slot in range(1, slots + 1):
            x, y = layout.slot_centre(corner, slot)
            r = layout.SLOT_PITCH / 2 - 2
            draw.rounded_rectangle(
                _box((x - r, y - r, x + r, y + r)), SS * 4, outline=palette.STATION_INK, width=SS
            )
            draw_text(
                draw,
                (_s(x), _s(y + r - 7)),
                str(slot),
                palette.STATION_INK,
                14 * SS,
                "regular",
                scale=SS,
            )
    # the frames of the centre and of the boat boards
    draw.rounded_rectangle(
        _box(layout.CENTRE), SS * 12, fill=theme.panel, outline=theme.panel_edge, width=SS * 2
    )
    for panel in layout.panels(players):
        draw.rounded_rectangle(
            _box(panel.box), SS * 10, fill=theme.panel, outline=theme.panel_edge, width=SS * 2
        )
    _draw_key(draw, theme, doubles_open, language)
    return big.reduce(SS)


def _draw_numbers(draw: ImageDraw.ImageDraw, direction: str) -> None:
    """Each space's number in the game's direction (the arrival port's is the last)."""
    comp = components()
    for index in range(1, len(comp.route)):
        x, y = number_at(index)
        text = str(sheet_index(index, direction)) if index < comp.arrival else str(comp.arrival)
        draw_text(
            draw, (_s(x), _s(y)), text, palette.OUTER_SPOT, NUMBER_SIZE * SS, "bold", scale=SS
        )


def _draw_key(draw: ImageDraw.ImageDraw, theme: Theme, doubles_open: bool, language: str) -> None:
    """The station letters, the fish tokens' letters and the cards' at the foot of the centre
    panel."""
    left, _, right, bottom = layout.CENTRE
    top = bottom - KEY_HEIGHT
    draw.line(
        [(_s(left + 14), _s(top)), (_s(right - 14), _s(top))], fill=theme.panel_edge, width=SS
    )
    pitch = (right - left - 24) / 4
    for i, letter in enumerate(KEY):
        name = say(f"n.station.{letter}", language)
        row, column = divmod(i, 4)
        x = left + 14 + column * pitch
        y = top + 22 + row * 32
        _disc(
            draw,
            x + 13,
            y,
            13,
            fill=palette.STATIONS[letter],
            outline=palette.STATION_INK,
            width=SS,
        )
        draw_text(draw, (_s(x + 13), _s(y)), letter, palette.STATION_INK, 15 * SS, "bold", scale=SS)
        draw_text(
            draw, (_s(x + 32), _s(y)), name, theme.ink, 15 * SS, "regular", anchor="lm", scale=SS
        )
    note = say("n.key.double" if doubles_open else "n.key.double_closed", language)
    notes = (note, fish_key(language), say("n.key.cards", language))
    for k, line in enumerate(notes):
        at = (_s(left + 14), _s(bottom - 55 + 21 * k))
        draw_text(draw, at, line, theme.ink_soft, 14 * SS, "regular", anchor="lm", scale=SS)
