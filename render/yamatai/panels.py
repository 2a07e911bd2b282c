"""One panel per player: identity, score, coins, tokens, boats, buildings, specialists."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.yamatai.view import YamataiPlayer, YamataiView
from render.fonts import font
from render.stand_in import seat_words, stand_in_words
from render.text import fit_text, text_length
from render.theme import Theme
from render.words import say
from render.yamatai.archipelago import boat_letters, culture_letters
from render.yamatai.glyphs import (
    MIN_TEXT,
    boat_sprite,
    building_sprite,
    coin_sprite,
    draw_text,
    draw_tile_label,
    paste_centred,
    pp_sprite,
    tile_label_width,
    token_sprite,
)
from render.yamatai.highlight import Highlight
from render.yamatai.layout import Rect

LINES = ("coins", "pp_tokens", "buildings", "specialists", "reserved", "set_aside")
"""The score lines under each panel (``y.line.<line>``)."""
SHORT = 230
"""A panel under this height starts its rows nearer its name."""

__all__ = ["draw_panels"]


def draw_panels(
    canvas: Image.Image,
    view: YamataiView,
    rects: Sequence[Rect],
    theme: Theme,
    highlight: Highlight,
    marks: Sequence[str],
) -> None:
    """Every player's panel, the current player's framed."""
    current = view.get("current_seat")
    for seat, (player, rect) in enumerate(zip(view["players"], rects, strict=False)):
        _panel(
            canvas,
            seat,
            player,
            rect,
            theme,
            marks[seat],
            seat == current,
            seat == highlight.seat and not view.get("over"),  # no "last turn" once it is over
            highlight,
        )


def _panel(
    canvas: Image.Image,
    seat: int,
    player: YamataiPlayer,
    rect: Rect,
    theme: Theme,
    mark: str,
    current: bool,
    last: bool,
    highlight: Highlight,
) -> None:
    draw = ImageDraw.Draw(canvas)
    colour = str(player["colour"])
    fill = theme.players[colour]
    if current:
        draw.rounded_rectangle(rect.inset(-1).box, radius=11, outline=theme.current, width=6)
    draw.rounded_rectangle(
        (rect.x0 + 2, rect.y0 + 2, rect.x0 + 12, rect.y1 - 2), radius=4, fill=fill
    )
    x0 = rect.x0 + 22
    top = rect.y0 + 26
    draw.rounded_rectangle(
        (x0, top - 16, x0 + 32, top + 16), radius=8, fill=fill, outline=theme.ink, width=2
    )
    draw_text(draw, (x0 + 16, top + 1), mark, theme.player_ink[colour], 20)
    score = player.get("score", {})
    hidden = int(player.get("hidden_tiles", 0))
    total = str(score.get("total", 0)) + ("+?" if hidden else "")  # face-down tiles' PP unknown
    draw_text(draw, (rect.x1 - 46, top + 2), total, theme.ink, 32, anchor="rm")
    tags = [
        (text, fill, ink)
        for text, fill, ink, shown in (
            (say("y.tag.to_play"), theme.current, theme.ink, current),
            (say("y.tag.last_turn"), theme.last_turn, theme.ink_light, last and not current),
        )
        if shown and text
    ]
    right = rect.x1 - 46 - text_length(total, 32) - 10
    tag_room = sum(_tag_width(text) + 6 for text, _, _ in tags)
    under = seat_words(seat)  # the stand-in, else the time bank
    short = rect.height < SHORT  # four players: the rows start nearer the name
    name_y = top - (8 if short else 6) if under else top
    name = fit_text(str(player["name"]), 24, right - tag_room - (x0 + 42))
    draw_text(draw, (x0 + 42, name_y), name, theme.ink, 24, anchor="lm")
    if under:  # under the name, in words (not only colour)
        ink = theme.negative if stand_in_words(seat) else theme.ink_soft
        draw_text(draw, (x0 + 42, top + (14 if short else 17)), under, ink, MIN_TEXT, anchor="lm")
    tag_x = x0 + 48 + text_length(name, 24)
    for text, tag_fill, ink in tags:
        _tag(draw, (tag_x, name_y), text, tag_fill, ink, theme)
        tag_x += _tag_width(text) + 6
    draw_text(draw, (rect.x1 - 42, top + 8), "PP", theme.ink_soft, theme.small_size, anchor="ls")

    rows = _rows(rect)
    pitch = rows[1] - rows[0]
    _counts_row(canvas, draw, player, (x0, rect.x1 - 12), rows[0], theme, mark, pitch)
    _tokens_row(canvas, draw, player, x0, rows[1], theme)
    _boats_row(canvas, draw, player, x0, rows[2], theme)
    _specialists_row(draw, player, (x0, rect.x1 - 12), rows[3], theme, highlight)
    _reserved_row(canvas, draw, player, x0, rows[4], theme, highlight)
    lines = score.get("lines", {})
    parts = [
        f"{say(f'y.line.{key}')} ?"
        if key == "buildings" and hidden
        else f"{say(f'y.line.{key}')} {int(lines.get(key, 0)):+d}"
        for key in LINES
        if key in lines
    ]
    words = _score_line(parts, theme.small_size - 1, rect.x1 - 12 - x0)
    draw_text(
        draw,
        (x0, rows[5]),
        words,
        theme.ink_soft,
        theme.small_size - 1,
        style="regular",
        anchor="lm",
    )


def _score_line(parts: Sequence[str], size: int, room: float) -> str:
    """The score lines spaced wide if they fit, else closer, cut with an ellipsis only as a
    last resort (two-digit lines in French)."""
    for gap in ("   ", "  "):
        words = gap.join(parts)
        if text_length(words, size, "regular") <= room:
            return words
    return fit_text("  ".join(parts), size, room, "regular")


def _rows(rect: Rect) -> list[float]:
    """Vertical centres of the six rows under the header (nearer it in a short panel: four
    players over the whole key)."""
    first = rect.y0 + (62 if rect.height < SHORT else 66)
    last = rect.y1 - 15
    step = (last - first) / 5
    return [first + i * step for i in range(6)]


def _tag_width(text: str) -> float:
    return text_length(text, MIN_TEXT, "condensed") + 14


def _tag(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: tuple[int, int, int],
    ink: tuple[int, int, int],
    theme: Theme,
) -> None:
    x, y = xy
    width = _tag_width(text)
    draw.rounded_rectangle(
        (x, y - 11, x + width, y + 11), radius=6, fill=fill, outline=theme.ink, width=1
    )
    draw_text(draw, (x + width / 2, y + 0.5), text, ink, MIN_TEXT, style="condensed")


def _label(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, theme: Theme) -> float:
    """A small grey label; returns the x after it."""
    draw_text(draw, (x, y), text, theme.ink_soft, theme.small_size, style="regular", anchor="lm")
    return x + text_length(text, theme.small_size, "regular") + 6


def _counts_row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: YamataiPlayer,
    span: tuple[float, float],
    y: float,
    theme: Theme,
    mark: str,
    pitch: float,
) -> None:
    """Coins, prestige tokens, the buildings left and the tiles built; the counts close up
    when the built list needs their room to be read whole (on three lines where the rows are
    ``pitch`` apart enough, as with two or three players)."""
    most = 3 if pitch >= 3 * LINE_PITCH - 11 else 2
    x, right = span
    coins, tokens = str(player.get("coins", 0)), str(player.get("pp_tokens", 0))
    left = say("y.panel.left", count=player.get("buildings_left", 0))
    tiles = list(player.get("tiles", []))
    hidden = int(player.get("hidden_tiles", 0))
    label = say("y.panel.built") if tiles or hidden else ""
    for tight in (False, True):
        spots = _count_spots(x, (coins, tokens, left), tight)
        built = _built_lines(theme, tiles, label, (spots[3], right), most)
        if tight or built.whole:
            break
    paste_centred(canvas, coin_sprite(theme, 12), (spots[0] + 12, y))
    draw_text(draw, (spots[0] + 28, y), coins, theme.ink, 21, anchor="lm")
    paste_centred(canvas, pp_sprite(theme, 12), (spots[1] + 12, y))
    draw_text(draw, (spots[1] + 28, y), tokens, theme.ink, 21, anchor="lm")
    house = building_sprite(theme, "standard", str(player["colour"]), mark, 30)
    paste_centred(canvas, house, (spots[2] + 14, y - 1))
    draw_text(draw, (spots[2] + 32, y), left, theme.ink, 19, anchor="lm")
    if not label:
        return
    top = y - (max(1, len(built.lines)) - 1) / 2 * LINE_PITCH
    under = any(start == spots[3] for start, _ in built.lines)  # a line starts under the label
    after = _label(draw, spots[3], top if under else y, label, theme)
    if not tiles:
        face_down = say("y.panel.face_down", count=hidden)
        draw_text(draw, (after, y), face_down, theme.ink, MIN_TEXT, style="condensed", anchor="lm")
        return
    _built_tiles(canvas, built, top, theme)


def _count_spots(x: float, texts: tuple[str, str, str], tight: bool) -> tuple[float, ...]:
    """Where the coins, the prestige tokens, the buildings left and the built list start:
    at their usual places, or (``tight``) each just after the one before."""
    coins, tokens, left = texts
    if not tight:
        return (x, x + 80, x + 152, x + 152 + max(130, 46 + text_length(left, 19)))
    spots = [x]
    for text, size in ((coins, 21), (tokens, 21)):
        spots.append(spots[-1] + 28 + text_length(text, size) + 14)
    spots.append(spots[-1] + 32 + text_length(left, 19) + 16)
    return tuple(spots)


LINE_PITCH = MIN_TEXT + 1  # between the built list's lines


class BuiltLines(NamedTuple):
    """The built list as drawn: each line's tiles and where it starts, the count of tiles
    left out ("+3", none when the list is ``whole``)."""

    lines: list[tuple[float, list[str]]]
    more: int

    @property
    def whole(self) -> bool:
        """Whether every tile is drawn."""
        return not self.more


def _built_lines(
    theme: Theme, tiles: Sequence[str], label: str, span: tuple[float, float], most: int
) -> BuiltLines:
    """The built tiles on up to two lines after the label; when they need more room, the
    lines after the first start under the label (``most`` lines in all); past that a count
    says how many more."""
    x, right = span
    after = x + text_length(label, theme.small_size, "regular") + 6
    beside = wrap_tiles(theme, tiles, MIN_TEXT, right - after)
    if len(beside) <= 2:
        return BuiltLines([(after, line) for line in beside], 0)
    first = beside[0]
    rest = wrap_tiles(theme, tiles[len(first) :], MIN_TEXT, right - x)
    if len(rest) >= most:  # too many even so: the last line keeps room for "+3"
        rest = (
            rest[: most - 2]
            + wrap_tiles(
                theme,
                tiles[len(first) + sum(map(len, rest[: most - 2])) :],
                MIN_TEXT,
                right - x - 40,
            )[:1]
        )
    drawn = len(first) + sum(map(len, rest))
    return BuiltLines([(after, first), *((x, line) for line in rest)], len(tiles) - drawn)


def _built_tiles(canvas: Image.Image, built: BuiltLines, top: float, theme: Theme) -> None:
    """A player's built tiles as the picture names them (#07, a torii's or palace's sign and
    number), line under line from ``top``; never cut: a count says how many more."""
    gap = text_length(" ", MIN_TEXT, "condensed")
    for n, (lx, line) in enumerate(built.lines):
        ly = top + n * LINE_PITCH
        for tile in line:
            lx += gap + draw_tile_label(
                canvas, (lx, ly), tile, theme.ink, MIN_TEXT, theme, style="condensed"
            )
        if built.more and n == len(built.lines) - 1:
            more = f"+{built.more}"
            draw_text(
                ImageDraw.Draw(canvas),
                (lx, ly),
                more,
                theme.ink,
                MIN_TEXT,
                style="condensed",
                anchor="lm",
            )


def wrap_tiles(theme: Theme, tiles: Sequence[str], size: int, width: float) -> list[list[str]]:
    """Tiles in lines no wider than ``width``, each as the picture draws it (condensed)."""
    gap = text_length(" ", size, "condensed")
    lines: list[list[str]] = []
    used = 0.0
    for tile in tiles:
        wide = tile_label_width(theme, tile, size, "condensed")
        if lines and used + gap + wide <= width:
            lines[-1].append(tile)
            used += gap + wide
        else:
            lines.append([tile])
            used = wide
    return lines


def _tokens_row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: YamataiPlayer,
    x: float,
    y: float,
    theme: Theme,
) -> None:
    letters = culture_letters()
    x = _label(draw, x, y, say("y.panel.culture"), theme)
    tokens = {k: int(v) for k, v in dict(player.get("tokens", {})).items() if v}
    if not tokens:
        _none(draw, x, y, theme)
        return
    for culture in letters:
        count = tokens.get(culture, 0)
        if not count:
            continue
        paste_centred(canvas, token_sprite(theme, culture, letters[culture], 13), (x + 14, y))
        draw_text(draw, (x + 30, y), f"x{count}", theme.ink, 18, anchor="lm")
        x += 66


def _boats_row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: YamataiPlayer,
    x: float,
    y: float,
    theme: Theme,
) -> None:
    letters = boat_letters()
    boats = list(player.get("boats", []))
    capacity = int(player.get("harbor_capacity", 1))
    x = _label(draw, x, y, say("y.panel.harbor"), theme)
    width = 40
    slots = max(capacity, len(boats))
    for i in range(slots):
        cx = x + width / 2
        if i < len(boats):
            paste_centred(
                canvas, boat_sprite(theme, boats[i], letters.get(boats[i], "?"), width), (cx, y)
            )
        else:
            draw.rounded_rectangle(
                (cx - width / 2, y - 10, cx + width / 2, y + 10),
                radius=4,
                outline=theme.panel_edge,
                width=2,
            )
        x += width + 4
    x = max(x + 14, 236)
    aside = list(player.get("set_aside", []))
    x = _label(draw, x, y, say("y.panel.aside"), theme)
    if not aside:
        draw_text(draw, (x, y), "0", theme.ink_soft, 18, anchor="lm")
        return
    counts = Counter(aside)
    for boat in letters:
        if counts[boat]:
            paste_centred(canvas, boat_sprite(theme, boat, letters[boat], 34), (x + 17, y))
            x += 36
            if counts[boat] > 1:
                draw_text(draw, (x, y), f"x{counts[boat]}", theme.ink, 16, anchor="lm")
                x += 26
            x += 2


def _none(draw: ImageDraw.ImageDraw, x: float, y: float, theme: Theme) -> None:
    """The soft 'none' written after an empty row's label."""
    draw_text(
        draw, (x, y), say("c.none"), theme.ink_soft, theme.small_size, style="regular", anchor="lm"
    )


def _specialists_row(
    draw: ImageDraw.ImageDraw,
    player: YamataiPlayer,
    span: tuple[float, float],
    y: float,
    theme: Theme,
    highlight: Highlight,
) -> None:
    x, right = span
    specialists = list(player.get("specialists", []))
    x = _label(draw, x, y, say("y.panel.specialists"), theme)
    if not specialists:
        _none(draw, x, y, theme)
    size = 16
    while size > MIN_TEXT and _chips_width(specialists, size) > right - x:
        size -= 1
    face = font("condensed", size)
    for n, name in enumerate(specialists):
        width = face.getlength(name) + 12
        if x + width > right:  # never past the panel: a count of the rest
            draw_text(draw, (x, y), f"+{len(specialists) - n}", theme.ink, size, anchor="lm")
            break
        fresh = name == highlight.recruited
        draw.rounded_rectangle(
            (x, y - 12, x + width, y + 12),
            radius=6,
            fill=theme.tile_face,
            outline=theme.last_turn if fresh else theme.panel_edge,
            width=3 if fresh else 1,
        )
        draw_text(draw, (x + width / 2, y + 0.5), name, theme.ink, size, style="condensed")
        x += width + 5


def _chips_width(names: Sequence[str], size: int) -> float:
    face = font("condensed", size)
    return sum(face.getlength(name) + 17 for name in names)


def _reserved_row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: YamataiPlayer,
    x: float,
    y: float,
    theme: Theme,
    highlight: Highlight,
) -> None:
    reserved = list(player.get("reserved", []))
    x = _label(draw, x, y, say("y.panel.reserved"), theme)
    if not reserved:
        _none(draw, x, y, theme)
        return
    letters = boat_letters()
    for tile in reserved:
        boats = list(tile.get("boats", []))
        width = 96 + 27 * len(boats)
        fresh = tile["id"] == highlight.reserved
        draw.rounded_rectangle(
            (x, y - 13, x + width, y + 13),
            radius=5,
            fill=theme.tile_face,
            outline=theme.last_turn if fresh else theme.ink,
            width=3 if fresh else 2,
        )
        draw_tile_label(canvas, (x + 6, y), str(tile["id"]), theme.ink, 17, theme)
        bx = x + 60
        for boat in boats:
            paste_centred(canvas, boat_sprite(theme, boat, letters.get(boat, "?"), 26), (bx, y))
            bx += 27
        draw_text(draw, (bx - 4, y), f"{tile.get('pp', '')}PP", theme.pp, MIN_TEXT, anchor="lm")
        x += width + 8
