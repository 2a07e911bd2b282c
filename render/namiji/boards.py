"""Each player's boat board: crate with fish and nets, offerings, panoramas, trap, cards, score."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.namiji.components import COLUMNS, PANORAMA_TYPES, ROWS, cell_index, components
from engine.namiji.scoring import line_cells, penalty, rock_met
from engine.namiji.state import player_from_view
from engine.namiji.view import NamijiPlayer, NamijiView
from render.fonts import Style
from render.namiji import layout, palette
from render.namiji.glyphs import boat_sprite, card_sprite, fish_sprite, paste_centred
from render.namiji.highlight import Highlight
from render.namiji.route import boat_look
from render.stand_in import seat_words, stand_in_words
from render.text import draw_text, text_length
from render.theme import Theme
from render.words import say

NAME_SIZE = 20
SCORE_SIZE = 24
LABEL_SIZE = 15
STAND_IN_SIZE = 14
INFO_LEFT = 218  # the information column, from the panel's left edge
INFO_PITCH = 30
CARD_SIZE = (40, 24)
SEGMENT = (15, 16)
LABEL_WIDTH = 104
TOKEN_RADIUS = 8

__all__ = [
    "arrival_face",
    "card_face",
    "chip_width",
    "draw_boards",
    "fit_text",
    "upgrade_stations",
]


def arrival_face(token: str) -> str:
    """What an arrival token shows: the points it gives ("+7" for ``A7``), as the bonus cards'
    "+3"; any other code as it is."""
    points = components().arrival_points.get(token)
    return token if points is None else f"+{points}"


def fit_text(text: str, size: int, width: float, style: Style = "bold") -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels."""
    if text_length(text, size, style) <= width:
        return text
    while text and text_length(text + "\u2026", size, style) > width:
        text = text[:-1]
    return text + "\u2026"


def draw_boards(
    canvas: Image.Image,
    view: NamijiView,
    look: Theme,
    hl: Highlight,
    marks: Sequence[str],
) -> None:
    """The boat board of every player, the one to play framed, the last to play tagged."""
    draw = ImageDraw.Draw(canvas)
    players = view["players"]
    current = view.get("current_seat")
    over = bool(view.get("phase") == "over")
    for panel in layout.panels(len(players)):
        seat = panel.seat
        _draw_board(canvas, draw, panel.box, seat, players, look, hl, marks, over)
        if not over and seat == current:
            draw.rounded_rectangle(panel.box, 10, outline=look.current, width=5)
        elif hl.seat == seat:
            draw.rounded_rectangle(panel.box, 10, outline=look.last_turn, width=3)


def _draw_board(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    seat: int,
    players: Sequence[NamijiPlayer],
    look: Theme,
    hl: Highlight,
    marks: Sequence[str],
    over: bool = False,
) -> None:
    """One boat board (once the game is over, its sacred rock cards met in gold)."""
    player = players[seat]
    left, top, right, _ = box
    fill, ink, mark = boat_look(seat, players, marks)
    paste_centred(canvas, boat_sprite(fill, ink, mark, 15), (left + 26, top + 22))
    score = say("n.board.points", count=player.get("score", 0))
    score_width = text_length(score, SCORE_SIZE, "bold")
    draw_text(draw, (right - 12, top + 22), score, look.ink, SCORE_SIZE, "bold", anchor="rm")
    arrival = str(player.get("arrival", ""))
    name_right = right - 24 - score_width
    if arrival:
        ax = name_right - 24
        draw.ellipse(
            (ax - 19, top + 4, ax + 19, top + 40), fill=palette.GOLD, outline=look.ink, width=2
        )
        draw_text(draw, (ax, top + 22), arrival_face(arrival), look.ink, 16, "bold")
        if seat in hl.arrival:
            draw.ellipse((ax - 24, top - 1, ax + 24, top + 45), outline=look.last_turn, width=3)
        name_right = ax - 28
    under = seat_words(seat)  # the stand-in, else the time bank
    name = fit_text(str(player.get("name", "")), NAME_SIZE, name_right - left - 48)
    name_y = top + 14 if under else top + 22
    draw_text(draw, (left + 48, name_y), name, look.ink, NAME_SIZE, "bold", anchor="lm")
    if under:  # under the name, in words (not only colour), as on the other games' panels
        words = fit_text(under, STAND_IN_SIZE, right - 24 - score_width - left - 48)
        ink = look.negative if stand_in_words(seat) else look.ink_soft
        draw_text(draw, (left + 48, top + 35), words, ink, STAND_IN_SIZE, anchor="lm")
    _draw_crate(
        canvas,
        draw,
        left + layout.CRATE_ORIGIN[0],
        top + layout.CRATE_ORIGIN[1],
        player,
        look,
        hl.lines.get(seat, set()),
        (hl.kept.get(seat, set()), hl.nets.get(seat, set())),
    )
    x = left + INFO_LEFT
    y = top + layout.CRATE_ORIGIN[1] + 12
    rows = (_offerings, _panoramas, _trap, _pontoon)
    for row in rows:
        row(canvas, draw, x, y, right - 10, player, seat, look, hl)
        y += INFO_PITCH
    rocks = [str(c) for c in player.get("rocks", [])]
    met = {c for c in rocks if rock_met(player_from_view(player), c)} if over else set()
    _rocks(canvas, draw, x, y, right - 10, player, seat, look, hl, met)


def _draw_crate(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    player: NamijiPlayer,
    look: Theme,
    new_lines: set[str],
    new_pieces: tuple[set[str], set[str]] = (set(), set()),
) -> None:
    """The 3 x 4 crate: fish, nets over two cells, and each line's points (gold once scored);
    the lines scored and the fish and nets put in the last turn (``new_pieces``: cells, nets)
    framed in its pink."""
    comp = components()
    cell = layout.CELL
    crate = list(player.get("crate", [""] * ROWS * COLUMNS))
    for index, kind in enumerate(crate):
        r, c = divmod(index, COLUMNS)
        x, y = x0 + c * cell, y0 + r * cell
        draw.rectangle(
            (x, y, x + cell, y + cell), fill=palette.CELL_EMPTY, outline=palette.CELL_EDGE
        )
        if kind:
            paste_centred(canvas, fish_sprite(kind, cell - 2), (x + cell / 2, y + cell / 2))
    kept, nets = new_pieces
    for net in player.get("nets", []):
        _, cell_label, orientation = str(net).split()
        r, c = divmod(cell_index(cell_label), COLUMNS)
        w, h = (2 * cell, cell) if orientation == "h" else (cell, 2 * cell)
        x, y = x0 + c * cell, y0 + r * cell
        draw.rounded_rectangle(
            (x + 1, y + 1, x + w - 1, y + h - 1), 6, outline=palette.NET, width=4
        )
        if net in nets:
            draw.rounded_rectangle(
                (x - 2, y - 2, x + w + 2, y + h + 2), 7, outline=look.last_turn, width=3
            )
    for cell_label in kept:
        r, c = divmod(cell_index(cell_label), COLUMNS)
        x, y = x0 + c * cell, y0 + r * cell
        draw.rectangle((x - 1, y - 1, x + cell + 1, y + cell + 1), outline=look.last_turn, width=3)
    scored = set(player.get("lines", []))
    lines = [(f"r{r + 1}", comp.row_points[r]) for r in range(ROWS)]
    lines += [(f"c{c + 1}", comp.column_points[c]) for c in range(COLUMNS)]
    for line, points in lines:
        n = int(line[1:]) - 1
        cx: float
        cy: float
        if line[0] == "r":
            cx, cy = x0 + COLUMNS * cell + 14, y0 + n * cell + cell / 2
        else:
            cx, cy = x0 + n * cell + cell / 2, y0 + ROWS * cell + 12
        if line in scored:
            draw.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=palette.GOLD)
        draw_text(
            draw, (cx, cy), str(points), look.ink if line in scored else look.ink_soft, 15, "bold"
        )
        if line in new_lines:
            draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), outline=look.last_turn, width=3)
            cells = line_cells(line)
            first, last = divmod(cells[0], COLUMNS), divmod(cells[-1], COLUMNS)
            draw.rectangle(
                (
                    x0 + first[1] * cell,
                    y0 + first[0] * cell,
                    x0 + (last[1] + 1) * cell,
                    y0 + (last[0] + 1) * cell,
                ),
                outline=look.last_turn,
                width=3,
            )


def _label(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, look: Theme) -> int:
    """A row's label; returns where its content starts."""
    draw_text(draw, (x, y), text, look.ink_soft, LABEL_SIZE, "bold", anchor="lm")
    return x + label_width()


def label_width() -> int:
    """The width of the label column of the boat boards in the language being drawn."""
    keys = ("offerings", "panorama", "trap", "pontoon", "rock")
    return max(
        LABEL_WIDTH, 8 + max(round(text_length(say(f"n.board.{k}"), LABEL_SIZE)) for k in keys)
    )


def _offerings(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    right: int,
    player: NamijiPlayer,
    seat: int,
    look: Theme,
    hl: Highlight,
) -> None:
    """Offerings left (filled) and given (hollow), with the penalty still due."""
    x = _label(draw, x, y, say("n.board.offerings"), look)
    left = int(player.get("offerings", 0))
    total = len(components().penalty_by_left) - 1
    for k in range(total):
        cx = x + 9 + k * 22
        if k < left:
            draw.ellipse((cx - 8, y - 8, cx + 8, y + 8), fill=palette.OFFERING, outline=look.ink)
        else:
            draw.ellipse((cx - 8, y - 8, cx + 8, y + 8), outline=look.ink_soft, width=2)
    text = f"-{penalty(left)}" if left else "0"
    draw_text(
        draw,
        (x + total * 22 + 8, y),
        text,
        look.negative if left else look.ink,
        15,
        "bold",
        anchor="lm",
    )
    if seat in hl.offering:
        draw.rounded_rectangle(
            (x - 4, y - 13, x + total * 22 + 40, y + 13), 6, outline=look.last_turn, width=3
        )


def _panoramas(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    right: int,
    player: NamijiPlayer,
    seat: int,
    look: Theme,
    hl: Highlight,
) -> None:
    """Each panorama's sections built out of its length, a star for a bonus card; the sections
    narrow so that the last one (and its just-built frame) ends before ``right``."""
    comp = components()
    x = _label(draw, x, y, say("n.board.panorama"), look)
    progress = player.get("panoramas", {})
    bonuses = set(player.get("bonuses", []))
    new = hl.panoramas.get(seat, set())
    step = _section_step(right - x, sum(comp.sections[k] for k in PANORAMA_TYPES))
    for kind in PANORAMA_TYPES:
        if f"B{kind}" in bonuses:  # the bonus card: the letter on a gold disc
            draw.ellipse((x - 3, y - 10, x + 17, y + 10), fill=palette.GOLD)
        draw_text(draw, (x + 7, y), kind, look.ink, 15, "bold")
        x += PANORAMA_LETTER
        built = int(progress.get(kind, 0))
        start = x
        for k in range(comp.sections[kind]):
            w, h = step + 1, SEGMENT[1]
            draw.rectangle(
                (x, y - h // 2, x + w - 3, y + h // 2),
                fill=palette.STATIONS[kind] if k < built else None,
                outline=look.ink if k < built else look.ink_soft,
                width=1,
            )
            if k < built:
                draw.rectangle(
                    (x + 3, y - h // 2 + 3, x + w - 6, y + h // 2 - 3), fill=look.ink_soft
                )
            x += w - 1
        if kind in new:
            draw.rectangle((start - 3, y - 12, x + 1, y + 12), outline=look.last_turn, width=3)
        x += PANORAMA_GAP


PANORAMA_LETTER = 19  # the room of a panorama's letter before its sections
PANORAMA_GAP = 8  # between two panoramas


def _section_step(room: int, sections: int) -> int:
    """How far apart a panorama's sections are drawn for all of them to fit ``room`` pixels
    (letters, gaps and the just-built frame's last pixel included), at most ``SEGMENT``'s."""
    kinds = len(PANORAMA_TYPES)
    free = room - kinds * PANORAMA_LETTER - (kinds - 1) * PANORAMA_GAP - 1
    return max(6, min(SEGMENT[0] - 1, free // sections))


def _trap(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    right: int,
    player: NamijiPlayer,
    seat: int,
    look: Theme,
    hl: Highlight,
) -> None:
    """The crustaceans in the trap: shrimp and crabs with their counts."""
    x = _label(draw, x, y, say("n.board.trap"), look)
    trap = list(player.get("trap", []))
    start = x
    for token, colour in (("SH", palette.SHRIMP), ("CB", palette.CRAB)):
        draw.ellipse((x, y - 10, x + 20, y + 10), fill=colour, outline=look.ink)
        key = "n.board.shrimp" if token == "SH" else "n.board.crab"
        word = say(key, count=trap.count(token))
        draw_text(draw, (x + 26, y), word, look.ink, 15, "bold", anchor="lm")
        x += 38 + int(text_length(word, 15, "bold"))
    if seat in hl.trap:
        draw.rounded_rectangle(
            (start - 4, y - 13, x - 6, y + 13), 6, outline=look.last_turn, width=3
        )


def _pontoon(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    right: int,
    player: NamijiPlayer,
    seat: int,
    look: Theme,
    hl: Highlight,
) -> None:
    """Pontoon cards taken, face up: a meal with its points ("M +4"), an upgrade with the
    stations where it acts (U and the trap's disc)."""
    x = _label(draw, x, y, say("n.board.pontoon"), look)
    cards = list(player.get("pontoon", []))
    new = hl.cards.get(seat, set())
    h = CARD_SIZE[1]
    if not cards:
        draw_text(draw, (x, y), say("c.none"), look.ink_soft, 15, "regular", anchor="lm")
    for card in cards:
        if x + chip_width(card) > right:
            draw_text(draw, (x, y), "\u2026", look.ink, 15, "bold", anchor="lm")
            break
        end = _card(canvas, draw, x, y, card, look)
        if card in new:
            draw.rounded_rectangle(
                (x - 3, y - h / 2 - 3, end + 3, y + h / 2 + 3), 5, outline=look.last_turn, width=3
            )
        x = round(end) + 5


def _rocks(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    right: int,
    player: NamijiPlayer,
    seat: int,
    look: Theme,
    hl: Highlight,
    met: set[str],
) -> None:
    """Sacred rock cards: faces with their points ("R +3"; in gold once met at the end) when
    the view carries them, else backs (as many as there are cards: no count beside them)."""
    x = _label(draw, x, y, say("n.board.rock"), look)
    faces = list(player.get("rocks", []))
    count = int(player.get("rock_count", len(faces)))
    h = CARD_SIZE[1]
    shown: list[str | None] = list(faces) if faces else [None] * count
    if not shown:
        draw_text(draw, (x + 2, y), say("c.none"), look.ink_soft, 15, "bold", anchor="lm")
    start = end = x
    for card in shown:
        if x + chip_width(card) > right:
            draw_text(draw, (x, y), "\u2026", look.ink, 15, "bold", anchor="lm")
            break
        end = round(_card(canvas, draw, x, y, card, look, card in met))
        x = end + 5
    if seat in hl.rocks:
        draw.rounded_rectangle(
            (start - 3, y - h / 2 - 3, max(end, start + 30) + 3, y + h / 2 + 3),
            5,
            outline=look.last_turn,
            width=3,
        )


CHIP_TEXT = 14  # a card's face on a boat board (the pictures' smallest text)


DISC = 20  # an upgrade's station on its chip, a disc as the route and the key draw it


def card_face(code: str) -> str:
    """A card on a boat board in the key's letters with what it gives: a meal its points
    ("M +4"), an upgrade "U" (its stations follow as discs, ``upgrade_stations``), a sacred
    rock card its points ("R +3"); any other code as it is."""
    comp = components()
    if code in comp.meals:
        return f"M +{comp.meals[code]}"
    if code in comp.upgrades:
        return "U"
    if code in comp.rocks:
        return f"R +{comp.rocks[code].points}"
    return code


def upgrade_stations(code: str) -> str:
    """The station letters where an upgrade card acts ("C"; "DOW": the three panoramas), drawn
    on its chip as the route's discs ("U DOW" in letters was read by nobody); "" for others."""
    upgrade = components().upgrades.get(code)
    return upgrade.station if upgrade else ""


def chip_width(card: str | None) -> float:
    """How wide a card is drawn on a boat board: a back as ``CARD_SIZE``, a face as its text
    and its stations' discs."""
    if card is None:
        return CARD_SIZE[0]
    face = text_length(card_face(card), CHIP_TEXT, "bold") + 12
    return max(CARD_SIZE[0], face + len(upgrade_stations(card)) * (DISC + 2))


def _card(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    card: str | None,
    look: Theme,
    scored: bool = False,
) -> float:
    """One card from ``x``, centred on ``y``: its back, or its face as a chip (gold once
    ``scored``, as the key says); returns its right."""
    w, h = chip_width(card), CARD_SIZE[1]
    if card is None:
        paste_centred(
            canvas, card_sprite(None, round(w), h, palette.CARD_FACE, look.ink), (x + w / 2, y)
        )
        return x + w
    fill = palette.GOLD if scored else palette.CARD_FACE
    draw.rounded_rectangle(
        (x, y - h / 2, x + w, y + h / 2), 4, fill=fill, outline=look.ink, width=1
    )
    stations = upgrade_stations(card)
    if not stations:
        draw_text(draw, (x + w / 2, y), card_face(card), look.ink, CHIP_TEXT, "bold")
        return x + w
    draw_text(draw, (x + 6, y), card_face(card), look.ink, CHIP_TEXT, "bold", anchor="lm")
    cx = x + w - 4 - len(stations) * (DISC + 2) + 1 + DISC / 2
    for letter in stations:
        r = DISC / 2
        draw.ellipse(
            (cx - r, y - r, cx + r, y + r),
            fill=palette.STATIONS.get(letter, palette.CARD_FACE),
            outline=palette.STATION_INK,
            width=1,
        )
        draw_text(draw, (cx, y), letter, palette.STATION_INK, CHIP_TEXT, "bold")
        cx += DISC + 2
    return x + w
