"""The fleet track with the turn order, the building row, the specialist track, final scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.yamatai.view import YamataiPlayer, YamataiSpecialist, YamataiTile, YamataiView
from render.fonts import Style, font
from render.stand_in import ended, rank, spectator, winners
from render.text import fit_text, text_length
from render.theme import RGB, Theme
from render.words import known, say
from render.yamatai.archipelago import boat_letters
from render.yamatai.glyphs import (
    MIN_TEXT,
    boat_sprite,
    coin_sprite,
    draw_text,
    draw_tile_label,
    paste_centred,
)
from render.yamatai.highlight import Highlight
from render.yamatai.layout import Rect

POWERS = (
    "first",
    "reserve",
    "look",
    "slide",
    "sacred",
    "swap_tokens",
    "remove",
    "swap_boats",
    "discount",
    "extra_boat",
)
"""Fleet powers named in a word or two (``y.power.<id>``, a line break where it wraps; to
spectators ``y.power_watch.<id>``, in the third person: "rezerwuje", not "rezerwuj")."""
BANDS = ("trading_post", "torii", "palace")
"""Building kinds with a band on their tile (``y.band.<kind>``)."""
END_REASONS = ("boats", "buildings", "specialists", "last_building")
"""Why the game ended, in plain words (``y.end.<reason>``)."""

POWER_SIZE = MIN_TEXT
"""The one size of every specialist's power text (wrapped, never cut)."""
TAIL = 3
"""Least letters on either side of a hyphen where a word too wide for its card is broken."""

SCORE_COLUMNS = ("coins", "pp_tokens", "buildings", "specialists", "reserved", "set_aside")
"""The final table's scoring lines (``y.col.<line>``)."""

__all__ = [
    "BANDS",
    "POWERS",
    "card_slots",
    "draw_building_row",
    "draw_final_scores",
    "draw_fleet_track",
    "draw_specialists",
    "draw_tile",
    "end_words",
    "fleet_slots",
    "fleet_text",
    "power_words",
    "specialist_power",
    "wrap",
]


def wrap(text: str, size: int, width: float, style: str = "regular") -> list[str]:
    """Words of text broken into lines no wider than width pixels (a word wider than a line,
    e.g. French "emplacement" on a card, broken with a hyphen)."""
    return list(_wrapped(text, size, width, style))


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, width: float, style: str) -> tuple[str, ...]:
    face = font("condensed" if style == "condensed" else "regular", size)
    lines: list[str] = []
    line = ""
    words = [w for w in text.replace("\n", " ").split(" ") if w]  # a no-break space joins
    for word in (part for whole in words for part in _hyphenated(whole, face, width)):
        candidate = f"{line} {word}".strip()
        if line and face.getlength(candidate) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return tuple(lines)


def _hyphenated(word: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """A word too wide for ``width`` as pieces that fit, each but the last ending with a
    hyphen: as long as fits, leaving the rest at least ``TAIL`` letters ("emplace-", "ment")."""
    pieces: list[str] = []
    while face.getlength(word) > width and len(word) > 2 * TAIL:
        cut = len(word) - TAIL
        while cut > TAIL and face.getlength(word[:cut] + "-") > width:
            cut -= 1
        pieces.append(word[:cut] + "-")
        word = word[cut:]
    return [*pieces, word]


def _chip(
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    xy: tuple[float, float],
    player: YamataiPlayer,
    mark: str,
    radius: int = 12,
) -> None:
    """A player's badge: a rounded square (tokens are discs) in their colour with their mark."""
    x, y = xy
    colour = str(player["colour"])
    draw.rounded_rectangle(
        (x - radius, y - radius, x + radius, y + radius),
        radius=radius // 3,
        fill=theme.players[colour],
        outline=theme.ink,
        width=2,
    )
    size = max(MIN_TEXT, round(radius * 1.15))
    draw_text(draw, (x, y + 0.5), mark, theme.player_ink[colour], size)


# -- fleet track and turn order --------------------------------------------------------------


def draw_fleet_track(
    canvas: Image.Image,
    view: YamataiView,
    rect: Rect,
    theme: Theme,
    highlight: Highlight,
    marks: Sequence[str],
) -> None:
    """The turn order of this round, then the ten fleet track positions."""
    draw = ImageDraw.Draw(canvas)
    order_rect = Rect(rect.x0 + 10, rect.y0 + 28, rect.x0 + ORDER_WIDTH, rect.y1 - 8)
    _turn_order(draw, view, order_rect, theme, marks, highlight)
    track = view.get("fleet_track", [])
    slots = fleet_slots(rect, len(track))
    letters = boat_letters()
    for slot, entry in zip(slots, track, strict=False):
        if entry.get("face_up"):
            if entry.get("fleet"):
                _fleet_tile(canvas, draw, slot, entry, theme, letters)
            else:
                draw.rounded_rectangle(
                    slot.box, radius=8, outline=theme.panel_edge, width=2, fill=theme.panel_alt
                )
                draw_text(
                    draw,
                    ((slot.x0 + slot.x1) / 2, (slot.y0 + slot.y1) / 2),
                    say("y.fleet.taken"),
                    theme.ink_soft,
                    theme.small_size,
                    style="regular",
                )
        else:
            draw.rounded_rectangle(
                slot.box, radius=8, fill=theme.tile_back, outline=theme.ink, width=2
            )
            draw.rounded_rectangle(
                slot.inset(6).box, radius=5, outline=theme.tile_back_mark, width=2
            )
            if entry.get("hidden"):
                draw_text(
                    draw,
                    ((slot.x0 + slot.x1) / 2, (slot.y0 + slot.y1) / 2),
                    "?",
                    theme.tile_back_mark,
                    34,
                )


ORDER_WIDTH = 236
ORDER_GAP = 24  # between the turn order's column and the fleet track


def order_column(rect: Rect) -> Rect:
    """The fleet area's left column: this round's order under its title."""
    return Rect(rect.x0, rect.y0, rect.x0 + ORDER_WIDTH + ORDER_GAP, rect.y1)


def fleet_track_area(rect: Rect) -> Rect:
    """The fleet area right of the turn order's column (from the middle of the gap between)."""
    return Rect(order_column(rect).x1 - ORDER_GAP // 2, rect.y0, rect.x1, rect.y1)


def fleet_slots(rect: Rect, count: int) -> list[Rect]:
    """Where the fleet track's positions are drawn in the fleet area."""
    area = Rect(order_column(rect).x1, rect.y0 + 10, rect.x1 - 10, rect.y1 - 10)
    return area.columns(max(1, count), 6)


def card_slots(rect: Rect, count: int) -> list[Rect]:
    """Where the building row's tiles or the specialist track's cards are drawn."""
    area = Rect(rect.x0 + 10, rect.y0 + 30, rect.x1 - 10, rect.y1 - 10)
    return area.columns(max(5, count), 8)


def _fleet_tile(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    slot: Rect,
    entry: Mapping[str, Any],
    theme: Theme,
    letters: Mapping[str, str],
) -> None:
    draw.rounded_rectangle(slot.box, radius=8, fill=theme.tile_face, outline=theme.ink, width=2)
    cx = (slot.x0 + slot.x1) / 2
    draw_text(draw, (cx, slot.y0 + 17), str(entry["fleet"]), theme.ink, 27)
    boats = list(entry.get("boats", []))
    width = 36 if len(boats) <= 2 else 24
    step = width + 3
    x = cx - step * (len(boats) - 1) / 2
    for boat in boats:
        paste_centred(
            canvas, boat_sprite(theme, boat, letters.get(boat, "?"), width), (x, slot.y0 + 49)
        )
        x += step
    words = power_words(entry.get("power")).split("\n")
    size = theme.small_size
    while (
        size > MIN_TEXT and max(text_length(w, size, "condensed") for w in words) > slot.width - 6
    ):
        size -= 1
    y = slot.y1 - 10 - (len(words) - 1) * (size + 1)
    for line in words:
        draw_text(draw, (cx, y), line, theme.ink_soft, size, style="condensed", anchor="ms")
        y += size + 1


def power_words(power: object) -> str:
    """A fleet power in a word or two, a line break where the tile wraps it (to spectators in
    the third person, D264)."""
    if power not in POWERS:
        return str(power or "")
    return say(f"y.power_watch.{power}") if spectator() else say(f"y.power.{power}")


def fleet_text(entry: Mapping[str, Any]) -> str:
    """A fleet's power in full, in the rulebook's words (``y.fleet.<number>``); the view's own
    text for a fleet the tables do not know."""
    key = f"y.fleet.{entry.get('fleet')}"
    return say(key) if known(key) else str(entry.get("text", ""))


def specialist_power(card: YamataiSpecialist) -> str:
    """A specialist's power in the rulebook's words (``y.specialist.<name>``; to spectators
    about its owner, ``y.specialist_watch.<name>``: "Son port garde…", D264); the view's own
    text for a specialist the tables do not know."""
    name = card.get("name")
    watched = f"y.specialist_watch.{name}"
    if spectator() and known(watched):
        return say(watched)
    key = f"y.specialist.{name}"
    return say(key) if known(key) else str(card.get("power", ""))


def _turn_order(
    draw: ImageDraw.ImageDraw,
    view: YamataiView,
    rect: Rect,
    theme: Theme,
    marks: Sequence[str],
    highlight: Highlight,
) -> None:
    """This round's order: position, player, and the fleet each took (last turn's in colour)."""
    players = view["players"]
    order = list(view.get("turn_order", []))
    index = int(view.get("turn_index", 0))
    over = bool(view.get("over") or ended())
    title = say("y.order.title", round=view.get("round", ""))
    # the column ends where the fleet track starts (rect is the column less 10 px on the left)
    size, title_style = _order_title_size(title, rect.x1 + ORDER_GAP - 6 - (rect.x0 + 2), theme)
    at = (rect.x0 + 2, rect.y0 - 20)
    draw_text(draw, at, title, theme.ink_soft, size, style=title_style, anchor="lt")
    taken = _taken_before_slide(view, highlight)
    row_h = min(28, rect.height // max(1, len(order) + (taken is not None)))
    seen: dict[int, int] = {}
    for n, seat in enumerate(order):
        player = players[seat]
        nth = seen.get(seat, 0)
        seen[seat] = nth + 1
        y = rect.y0 + n * row_h + row_h / 2
        current = not over and n == index
        if current:
            draw.rounded_rectangle(
                (rect.x0, y - row_h / 2 + 1, rect.x1, y + row_h / 2 - 1),
                radius=6,
                fill=theme.current,
            )
        draw_text(draw, (rect.x0 + 12, y), f"{n + 1}", theme.ink, theme.body_size)
        _chip(draw, theme, (rect.x0 + 38, y), player, marks[seat])
        fleets = list(player.get("fleets", []))
        if nth < len(fleets):
            fresh = seat == highlight.seat and fleets[nth] == highlight.fleet
            right = say("y.order.took", fleet=fleets[nth])  # "fleet 9": "#" is a building
            style: Style
            colour, size, style = (  # condensed: the name keeps its room beside "flota 10"
                theme.last_turn_ink if fresh else theme.ink_soft,
                theme.small_size,
                "condensed",
            )
        else:
            right = say("y.order.to_play") if current else ""
            colour, size, style = theme.ink, theme.small_size, "condensed"
        if right:
            draw_text(draw, (rect.x1 - 6, y), right, colour, size, style=style, anchor="rm")
        # the name takes the room the fleet number or the "to play" tag leaves
        room = rect.x1 - 6 - text_length(right, size, style) - 8 - (rect.x0 + 56)
        weight: Style = "bold" if current else "regular"
        name = fit_text(str(player["name"]), theme.body_size, min(120.0, room), weight)
        draw_text(
            draw,
            (rect.x0 + 56, y),
            name,
            theme.ink,
            theme.body_size,
            style=weight,
            anchor="lm",
        )
    if taken is not None:
        seat, fleet = taken
        y = rect.y0 + len(order) * row_h + row_h / 2
        _last_fleet_row(draw, theme, rect, y, row_h, players[seat], marks[seat], fleet)


def _order_title_size(title: str, room: float, theme: Theme) -> tuple[int, Style]:
    """The turn order's title size and style: as small text, else condensed, down to the least
    size, so that it never runs under the fleet track's first card."""
    styles: tuple[Style, ...] = ("bold", "condensed")
    for style in styles:
        if text_length(title, theme.small_size, style) <= room:
            return theme.small_size, style
    size = theme.small_size
    while size > MIN_TEXT and text_length(title, size, "condensed") > room:
        size -= 1
    return size, "condensed"


def _taken_before_slide(view: YamataiView, highlight: Highlight) -> tuple[int, int] | None:
    """(seat, fleet) of the last turn when the round's end slid that fleet off the track."""
    seat, fleet = highlight.seat, highlight.fleet
    if (
        view.get("over")
        or ended()
        or seat is None
        or fleet is None
        or not 0 <= seat < len(view["players"])
    ):
        return None
    if fleet in view["players"][seat].get("fleets", []):
        return None
    return seat, fleet


def _last_fleet_row(
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    rect: Rect,
    y: float,
    row_h: float,
    player: YamataiPlayer,
    mark: str,
    fleet: int,
) -> None:
    """Under this round's order, outlined in the last turn's pink: who took which fleet."""
    draw.rounded_rectangle(
        (rect.x0, y - row_h / 2 + 1, rect.x1, y + row_h / 2 - 1),
        radius=6,
        outline=theme.last_turn,
        width=2,
    )
    _chip(draw, theme, (rect.x0 + 38, y), player, mark, min(12, round(row_h / 2) - 2))
    label = say("y.order.took", fleet=fleet)
    room = rect.x1 - 6 - text_length(label, theme.small_size) - 8 - (rect.x0 + 56)
    name = fit_text(str(player["name"]), theme.body_size, room)  # drawn bold
    draw_text(draw, (rect.x0 + 56, y), name, theme.ink, theme.body_size, anchor="lm")
    draw_text(draw, (rect.x1 - 6, y), label, theme.last_turn_ink, theme.small_size, anchor="rm")


def _shrink(text: str, size: int, width: float) -> tuple[str, int]:
    """Text and a condensed font size (down to the smallest) that fits width, else shortened."""
    while size > MIN_TEXT and text_length(text, size, "condensed") > width:
        size -= 1
    return fit_text(text, size, width, "condensed"), size


# -- building row ----------------------------------------------------------------------------


def draw_tile(
    canvas: Image.Image,
    rect: Rect,
    tile: YamataiTile,
    theme: Theme,
    marked: RGB | None = None,
) -> None:
    """A building tile: id, kind band, required boats and prestige points."""
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle(
        rect.box,
        radius=8,
        fill=theme.tile_face,
        outline=marked or theme.ink,
        width=4 if marked else 2,
    )
    kind = str(tile.get("kind", "standard"))
    cx = (rect.x0 + rect.x1) / 2
    band = say(f"y.band.{kind}") if kind in BANDS else ""
    if band:
        colour = theme.coin if kind == "trading_post" else theme.torii
        draw.rectangle((rect.x0 + 3, rect.y0 + 36, rect.x1 - 3, rect.y0 + 54), fill=colour)
        ink = theme.ink if kind == "trading_post" else theme.ink_light
        draw_text(draw, (cx, rect.y0 + 45), band, ink, MIN_TEXT, style="condensed")
    draw_tile_label(canvas, (cx, rect.y0 + 19), str(tile["id"]), theme.ink, 24, theme, centred=True)
    letters = boat_letters()
    boats = list(tile.get("boats", []))
    cols = 2
    width = min(40, (rect.width - 14) // cols - 4)
    top = rect.y0 + 68
    for i, boat in enumerate(boats):
        row, col = divmod(i, cols)
        in_row = min(cols, len(boats) - row * cols)
        x = cx + (col - (in_row - 1) / 2) * (width + 5)
        paste_centred(
            canvas,
            boat_sprite(theme, boat, letters.get(boat, "?"), width),
            (x, top + row * (width * 0.5 + 4)),
        )
    pp_y = rect.y1 - 20
    draw.ellipse(
        (cx - 15, pp_y - 15, cx + 15, pp_y + 15), fill=theme.pp, outline=theme.ink, width=2
    )
    draw_text(draw, (cx, pp_y), str(tile.get("pp", "")), theme.ink_light, 18)
    draw_text(draw, (cx + 17, pp_y + 1), "PP", theme.pp, MIN_TEXT, style="condensed", anchor="lm")


def draw_building_row(canvas: Image.Image, view: YamataiView, rect: Rect, theme: Theme) -> None:
    """The five face-up building tiles and the deck count."""
    draw = ImageDraw.Draw(canvas)
    draw_text(
        draw,
        (rect.x1 - 12, rect.y0 + 8),
        say("c.deck", count=view.get("building_deck", 0)),
        theme.ink_soft,
        theme.small_size,
        anchor="rt",
    )
    row = list(view.get("building_row", []))
    for i, slot in enumerate(card_slots(rect, 5)):
        if i < len(row):
            draw_tile(canvas, slot, row[i], theme)
        else:
            draw.rounded_rectangle(
                slot.box, radius=8, fill=theme.panel_alt, outline=theme.panel_edge, width=2
            )


# -- specialist track ------------------------------------------------------------------------


def draw_specialists(
    canvas: Image.Image,
    view: YamataiView,
    rect: Rect,
    theme: Theme,
) -> None:
    """The specialist track: name, prestige points, short power and the coins on each card."""
    draw = ImageDraw.Draw(canvas)
    draw_text(
        draw,
        (rect.x1 - 12, rect.y0 + 8),
        say("c.deck", count=view.get("specialist_deck", 0)),
        theme.ink_soft,
        theme.small_size,
        anchor="rt",
    )
    track = list(view.get("specialist_track", []))
    for slot, card in zip(card_slots(rect, len(track)), track, strict=False):
        if card is None:
            draw.rounded_rectangle(
                slot.box, radius=8, fill=theme.panel_alt, outline=theme.panel_edge, width=2
            )
            continue
        draw.rounded_rectangle(slot.box, radius=8, fill=theme.tile_face, outline=theme.ink, width=2)
        cx = (slot.x0 + slot.x1) / 2
        name, size = _shrink(str(card["name"]), 18, slot.width - 8)
        draw_text(draw, (cx, slot.y0 + 15), name, theme.ink, size, style="condensed")
        draw.line(
            (slot.x0 + 6, slot.y0 + 28, slot.x1 - 6, slot.y0 + 28), fill=theme.panel_edge, width=1
        )
        y = slot.y0 + 32
        for line in wrap(specialist_power(card), POWER_SIZE, slot.width - 6, "condensed"):
            draw_text(
                draw, (cx, y), line, theme.ink_soft, POWER_SIZE, style="condensed", anchor="mt"
            )
            y += POWER_SIZE + 1
        bottom = slot.y1 - 18
        draw.ellipse(
            (slot.x0 + 8, bottom - 14, slot.x0 + 36, bottom + 14),
            fill=theme.pp,
            outline=theme.ink,
            width=2,
        )
        draw_text(draw, (slot.x0 + 22, bottom), str(card.get("pp", "")), theme.ink_light, 17)
        coins = int(card.get("coins", 0))
        if coins:
            paste_centred(canvas, coin_sprite(theme, 13), (slot.x1 - 44, bottom))
            draw_text(draw, (slot.x1 - 28, bottom), str(coins), theme.ink, 20, anchor="lm")


def end_words(reasons: Sequence[object]) -> str:
    """The engine's end reasons in plain words ("a boat type ran out")."""
    return "; ".join(
        say(f"y.end.{r}") if r in END_REASONS else str(r).replace("_", " ") for r in reasons
    )


# -- final scores ----------------------------------------------------------------------------


def draw_final_scores(
    canvas: Image.Image, view: YamataiView, rect: Rect, theme: Theme, marks: Sequence[str]
) -> None:
    """The final scoring table, lines per player, ranked, the winner marked."""
    draw = ImageDraw.Draw(canvas)
    outcome = view.get("outcome") or {}
    # ranked as the bot's result says when it gave one (a resigned seat last, D286)
    placed = {
        int(s["seat"]): rank(int(s["seat"]), int(s.get("rank", 0)))
        for s in outcome.get("scores", [])
    }
    scores = sorted(outcome.get("scores", []), key=lambda s: placed[int(s["seat"])])
    players = view["players"]
    winner = winners([int(outcome["winner"])])[0] if "winner" in outcome else None
    draw.rounded_rectangle(rect.box, radius=10, fill=theme.panel, outline=theme.current, width=3)
    draw_text(
        draw,
        (rect.x0 + 12, rect.y0 + 8),
        say("y.final.title"),
        theme.ink_soft,
        theme.small_size,
        anchor="lt",
    )
    reasons = end_words(outcome.get("end_reasons", []))
    if reasons:
        draw_text(
            draw,
            (rect.x1 - 12, rect.y0 + 8),
            say("y.final.reason", reasons=reasons),
            theme.ink_soft,
            theme.small_size,
            anchor="rt",
        )
    name_x = rect.x0 + 70
    first_col = rect.x0 + 330
    col_w = (rect.x1 - 110 - first_col) / len(SCORE_COLUMNS)
    row_h = min(26, (rect.height - 54) // max(1, len(scores)))
    y = rect.y0 + 40
    for i, key in enumerate(SCORE_COLUMNS):
        draw_text(
            draw,
            (first_col + (i + 0.5) * col_w, y),
            say(f"y.col.{key}"),
            theme.ink_soft,
            theme.small_size,
            style="condensed",
        )
    total = say("y.col.total")
    draw_text(draw, (rect.x1 - 55, y), total, theme.ink, theme.small_size, style="condensed")
    y += 8
    for score in scores:
        seat = int(score["seat"])
        top = y + 3
        mid = top + row_h / 2
        if seat == winner:
            draw.rounded_rectangle(
                (rect.x0 + 8, top, rect.x1 - 8, top + row_h - 2), radius=6, fill=theme.current
            )
        draw_text(draw, (rect.x0 + 24, mid), f"{placed[seat]}.", theme.ink, theme.body_size)
        _chip(draw, theme, (rect.x0 + 52, mid), players[seat], marks[seat], 10)
        label = str(score.get("name", players[seat]["name"]))
        if seat == winner:  # its own text: a right-to-left name must not reorder the star
            star = say("y.final.winner")
            draw_text(draw, (first_col - 8, mid), star, theme.ink, MIN_TEXT, anchor="rm")
        room = 20 + text_length(say("y.final.winner"), MIN_TEXT) if seat == winner else 12
        label = fit_text(label, theme.body_size, first_col - name_x - room, "bold")
        draw_text(draw, (name_x, mid), label, theme.ink, theme.body_size, anchor="lm")
        lines = score.get("lines", {})
        for i, key in enumerate(SCORE_COLUMNS):
            value = int(lines.get(key, 0))
            ink = theme.negative if value < 0 else theme.ink
            draw_text(
                draw,
                (first_col + (i + 0.5) * col_w, mid),
                f"{value:+d}" if value else "0",
                ink,
                theme.body_size,
                style="regular",
            )
        draw_text(
            draw, (rect.x1 - 55, mid), str(score.get("total", "")), theme.ink, theme.body_size + 2
        )
        y += row_h
