"""The key to the pieces, drawn under the player panels: every entry, at every player count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import font
from render.text import fit_text, text_length
from render.theme import RGB, Theme
from render.words import say
from render.yamatai.glyphs import (
    MIN_TEXT,
    Sprite,
    boat_sprite,
    building_sprite,
    draw_text,
    halo_sprite,
    mountain_sprite,
    paste_centred,
    sacred_sprite,
    spot_sprite,
    token_sprite,
)
from render.yamatai.layout import Rect
from render.yamatai.signs import boat_letters, culture_letters

PITCHES = (26, 24, 22)
"""The distances between lines' middles tried, widest first (a line with a tall sign beside or
below another's takes more, so that no two signs touch)."""
INSET = 14
"""Room left and right of the key's entries."""
PAD = 6
"""Room above the first line's signs and below the last's."""
GAP = 10
"""The least room between two entries."""
CLEAR = 1
"""The least room between the signs or names of two lines, one above the other."""
TEXT_GAP = 5
"""Between an entry's sign and its name."""

__all__ = ["Entry", "Key", "draw_legend", "key_layout"]


@dataclass(frozen=True)
class Entry:
    """One entry of the key as laid out: its sign, its name (as drawn: cut with an ellipsis
    if too long for its place) at ``size``, the sign's centre and where the name starts."""

    sign: Sprite
    name: str
    shown: str
    size: int
    centre: tuple[float, float]
    text_x: float
    ink: tuple[int, int, int, int]
    """The sign's visible pixels within its sprite."""

    @property
    def sign_box(self) -> tuple[float, float, float, float]:
        """The sign's visible pixels (x0, y0, x1, y1) on the picture."""
        x0, y0, x1, y1 = self.ink
        left = round(self.centre[0] - self.sign.width / 2)
        top = round(self.centre[1] - self.sign.height / 2)
        return (left + x0, top + y0, left + x1, top + y1)

    @property
    def text_box(self) -> tuple[float, float, float, float]:
        """The name's box (its advance across, the font's ascent and descent up and down)."""
        half = _half_height(self.size)
        width = text_length(self.shown, self.size, "regular")
        return (self.text_x, self.centre[1] - half, self.text_x + width, self.centre[1] + half)


@dataclass(frozen=True)
class Key:
    """The key laid out in its box: the entries drawn and every name it has."""

    entries: tuple[Entry, ...]
    names: tuple[str, ...]


def _rows(theme: Theme, language: str) -> list[list[tuple[Sprite, str]]]:
    """The legend's rows, most useful first: boats, cultures, map symbols, buildings."""
    boats = [
        (boat_sprite(theme, boat, letter, 34), say(f"y.boat.{boat}", language))
        for boat, letter in boat_letters(language).items()
    ]
    cultures = [
        (token_sprite(theme, culture, letter, 11), say(f"y.culture.{culture}", language))
        for culture, letter in culture_letters(language).items()
    ]
    symbols = [
        (spot_sprite(theme, "5", True), say("y.key.entry", language)),
        (sacred_sprite(theme, 13), say("y.key.sacred", language)),
        (mountain_sprite(theme, 44), say("y.key.mountain", language)),
    ]
    buildings = [
        (building_sprite(theme, kind, "grey", "", 30), say(f"y.key.{word}", language))
        for kind, word in (
            ("standard", "building"),
            ("trading_post", "trading_post"),
            ("torii", "torii"),
            ("palace", "palace"),
        )
    ]
    signs = [
        (
            _badge(theme, "A", theme.players["blue"], theme.player_ink["blue"]),
            say("y.key.player", language),
        ),
        (spot_sprite(theme, "7", False), say("y.key.spot", language)),
        (_badge(theme, "#07", theme.tile_face, theme.ink), say("y.key.tile", language)),
    ]
    marks = [
        (halo_sprite(theme.last_turn, 9, 3), say("y.key.changed", language)),
        (_badge(theme, "C4", theme.island_label_halo, theme.ink), say("y.key.island", language)),
    ]
    return [boats, cultures[:3], cultures[3:], buildings, marks, signs, symbols]


@lru_cache(maxsize=16)
def _badge(theme: Theme, text: str, fill: RGB, ink: RGB) -> Sprite:
    """A small rounded label (a player's badge, a tile's or an island's label)."""
    width = round(text_length(text, MIN_TEXT)) + 10
    sprite = Image.new("RGBA", (max(24, width), 24), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, sprite.width - 1, 23), radius=6, fill=fill, outline=theme.ink)
    draw_text(draw, (sprite.width / 2, 12.5), text, ink, MIN_TEXT)
    return sprite


def key_layout(rect: Rect, theme: Theme, language: str = "en") -> Key:
    """The key laid out in ``rect``: every entry, in the largest text and widest spacing that
    hold them all (names at the theme's small size, else the least); if even the tightest
    cannot, as many lines as fit."""
    rows = _rows(theme, language)
    names = tuple(name for row in rows for _, name in row)
    tries = [(size, pitch) for size in (theme.small_size, MIN_TEXT) for pitch in PITCHES]
    for n, (size, pitch) in enumerate(tries):
        lines = [
            _placed(line, rect, size) for row in rows for line in _lines(row, _room(rect), size)
        ]
        entries = _stacked(lines, rect, pitch)
        if len(entries) == len(names) or n == len(tries) - 1:
            return Key(tuple(entries), names)
    raise AssertionError("unreachable")


def draw_legend(canvas: Image.Image, rect: Rect, theme: Theme, language: str = "en") -> None:
    """Boats, culture tokens, map signs and buildings with their names (a row whose names are
    too long for one line, as in some languages, takes two)."""
    draw = ImageDraw.Draw(canvas)
    for entry in key_layout(rect, theme, language).entries:
        paste_centred(canvas, entry.sign, entry.centre)
        draw_text(
            draw,
            (entry.text_x, entry.centre[1]),
            entry.shown,
            theme.ink,
            entry.size,
            "regular",
            anchor="lm",
        )


def _room(rect: Rect) -> int:
    """The width a line of entries may take."""
    return rect.width - 2 * INSET


def _width(item: tuple[Sprite, str], size: int) -> float:
    """An entry's width: its sprite, a gap and its name."""
    return item[0].width + TEXT_GAP + text_length(item[1], size, "regular")


def _lines(
    items: Sequence[tuple[Sprite, str]], room: float, size: int
) -> list[list[tuple[Sprite, str]]]:
    """A row's entries on as few lines as hold them within ``room`` pixels."""
    lines: list[list[tuple[Sprite, str]]] = [[]]
    used = 0.0
    for item in items:
        width = _width(item, size)
        if lines[-1] and used + GAP + width > room:
            lines.append([])
            used = 0.0
        used += (GAP if lines[-1] else 0) + width
        lines[-1].append(item)
    return lines


def _placed(items: Sequence[tuple[Sprite, str]], rect: Rect, size: int) -> list[Entry]:
    """One line of entries, its middle at 0: in equal columns when each fits its column, else
    packed evenly; a name wider than the line is cut with an ellipsis."""
    room = _room(rect)
    widths = [_width(item, size) for item in items]
    column = room / len(items)
    if all(w + GAP <= column for w in widths):
        steps = [column] * len(items)
    else:
        gap = (room - sum(widths)) / max(1, len(items) - 1)
        steps = [w + gap for w in widths]
    x = rect.x0 + float(INSET)
    entries = []
    for (sprite, name), step in zip(items, steps, strict=True):
        shown = fit_text(name, size, room - sprite.width - TEXT_GAP, "regular")
        centre = (x + sprite.width / 2, 0.0)
        text_x = x + sprite.width + TEXT_GAP
        entries.append(Entry(sprite, name, shown, size, centre, text_x, _ink(sprite)))
        x += step
    return entries


def _stacked(lines: Sequence[Sequence[Entry]], rect: Rect, pitch: int) -> list[Entry]:
    """The lines one under the other from the top of ``rect``, ``pitch`` apart or more where
    a sign or name would come nearer than ``CLEAR`` to one of the line above; the lines that
    fit."""
    placed: list[Entry] = []
    above: Sequence[Entry] = ()
    y = 0.0
    for line in lines:
        if not above:
            y = rect.y0 + PAD + max(-_box(e)[1] for e in line)
        else:
            y += max(pitch, _apart(above, line))
        moved = [_at(e, y) for e in line]
        if max(_box(e)[3] for e in moved) > rect.y1 - PAD:
            break
        placed += moved
        above = line
    return placed


def _at(entry: Entry, y: float) -> Entry:
    """The entry with its line's middle at ``y``."""
    return replace(entry, centre=(entry.centre[0], y))


def _box(entry: Entry) -> tuple[float, float, float, float]:
    """The box holding an entry's sign and name."""
    s, t = entry.sign_box, entry.text_box
    return (min(s[0], t[0]), min(s[1], t[1]), max(s[2], t[2]), max(s[3], t[3]))


def _apart(upper: Sequence[Entry], lower: Sequence[Entry]) -> float:
    """How far apart two lines' middles must be for no sign or name of the lower line to come
    nearer than ``CLEAR`` to one of the upper line that it passes under."""
    need = 0.0
    for a in upper:
        for b in lower:
            for p in (a.sign_box, a.text_box):
                for q in (b.sign_box, b.text_box):
                    if p[0] < q[2] and q[0] < p[2]:  # one passes under the other
                        below = p[3] - a.centre[1]
                        over = b.centre[1] - q[1]
                        need = max(need, below + over + CLEAR)
    return need


def _ink(sprite: Sprite) -> tuple[int, int, int, int]:
    """A sign's visible pixels within its sprite (the sprite's own box if none)."""
    return sprite.getchannel("A").point(lambda a: 255 if a > 40 else 0).getbbox() or (
        0,
        0,
        sprite.width,
        sprite.height,
    )


@lru_cache(maxsize=8)
def _half_height(size: int) -> float:
    """Half the height of a line of names: the font's ascent and descent."""
    ascent, descent = font("regular", size).getmetrics()
    return (ascent + descent) / 2
