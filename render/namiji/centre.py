"""Inside the loop: the supplies and the stop under way, or the final scoring table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from PIL import Image, ImageDraw

from engine.namiji.scoring import score_lines
from engine.namiji.state import Player
from render.namiji import layout, palette
from render.namiji.boards import fit_text
from render.namiji.glyphs import boat_sprite, card_sprite, fish_sprite, paste_centred
from render.namiji.route import boat_look
from render.stand_in import ended
from render.text import draw_text
from render.theme import Theme

HEADING_SIZE = 19
BODY_SIZE = 16
FISH_SIZE = 36
CARD_SIZE = (44, 28)
MARGIN = 16
#: The final table's rows: score category (the engine's names) and its label.
CATEGORIES = (
    ("crate", "crate lines"),
    ("crustaceans", "crustaceans"),
    ("panoramas", "panoramas"),
    ("panorama_bonus", "panorama bonus"),
    ("meals", "meals"),
    ("arrival", "arrival"),
    ("sacred_rocks", "sacred rocks"),
    ("offerings", "offerings"),
)
TASKS = {
    "fish": "take a fish",
    "catch": "keep or release the fish",
    "net": "take a net",
    "trap": "draw crustaceans",
    "rock": "keep a sacred rock card",
    "panorama": "take a panorama card",
}

__all__ = ["draw_centre", "draw_final_table"]


def draw_centre(canvas: Image.Image, view: Mapping[str, Any], look: Theme) -> None:
    """Supplies (fish bank, piles, tokens left) and what the stop under way shows."""
    draw = ImageDraw.Draw(canvas)
    left, top, right, _ = layout.CENTRE
    x, y = left + MARGIN, top + 24
    draw_text(draw, (x, y), "Fish bank", look.ink, HEADING_SIZE, "bold", anchor="lm")
    bank = view.get("bank", {})
    up = list(bank.get("face_up", []))
    y += 36
    fx = x
    for kind in up[:12]:
        paste_centred(canvas, fish_sprite(kind, FISH_SIZE), (fx + FISH_SIZE / 2, y))
        fx += FISH_SIZE + 6
    if not up:
        draw_text(
            draw, (fx, y), "no fish face up", look.ink_soft, BODY_SIZE, "regular", anchor="lm"
        )
    paste_centred(
        canvas, card_sprite(None, 30, 36, palette.CARD_FACE, look.ink), (right - MARGIN - 110, y)
    )
    draw_text(
        draw,
        (right - MARGIN - 90, y),
        f"{bank.get('face_down', 0)} face down",
        look.ink,
        BODY_SIZE,
        "bold",
        anchor="lm",
    )
    y += 40
    piles = (
        f"nets {view.get('net_pile', 0)}",
        f"crustacean bag {view.get('bag', 0)}",
        f"pontoon deck {view.get('pontoon_deck', 0)}",
        f"rock deck {view.get('rock_deck', 0)}",
    )
    draw_text(draw, (x, y), "   \u00b7   ".join(piles), look.ink, BODY_SIZE, "bold", anchor="lm")
    y += 34
    draw_text(draw, (x, y), "arrival left", look.ink_soft, 15, "bold", anchor="lm")
    ax = x + 104
    for token in view.get("arrivals", []):
        draw.ellipse((ax, y - 15, ax + 30, y + 15), fill=palette.GOLD, outline=look.ink, width=2)
        draw_text(draw, (ax + 15, y), str(token), look.ink, 14, "bold")
        ax += 36
    bx = x + 330
    draw_text(draw, (bx, y), "bonus left", look.ink_soft, 15, "bold", anchor="lm")
    bx += 94
    for card in view.get("bonuses", []):
        paste_centred(
            canvas,
            card_sprite(str(card), 40, 26, palette.STATIONS[str(card)[1:2]], look.ink),
            (bx + 20, y),
        )
        bx += 46
    y += 30
    draw.line((x, y, right - MARGIN, y), fill=look.panel_edge, width=1)
    _draw_stop(canvas, draw, view, look, x, y + 24, right - MARGIN)


def _draw_stop(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    look: Theme,
    x: int,
    y: int,
    right: int,
) -> None:
    """The stop under way: its task, the fish caught, nets, crustaceans or cards shown."""
    phase = view.get("phase")
    if stopped := ended(view):
        text = fit_text(stopped, HEADING_SIZE, right - x)
        draw_text(draw, (x, y), text, look.ink, HEADING_SIZE, "bold", anchor="lm")
        return
    if phase == "draft":
        title = f"Pontoon draft: slot {view.get('draft_slot')} picks"
    elif phase == "station":
        tasks = list(view.get("tasks", []))
        title = "At this stop: " + (TASKS.get(tasks[0], tasks[0]) if tasks else "done")
    else:
        title = "Next: move a boat"
    draw_text(
        draw,
        (x, y),
        fit_text(title, HEADING_SIZE, right - x),
        look.ink,
        HEADING_SIZE,
        "bold",
        anchor="lm",
    )
    y += 40
    w, h = CARD_SIZE
    cx = x
    catch = str(view.get("catch", ""))
    if catch:
        draw_text(draw, (cx, y), "caught", look.ink_soft, 15, "bold", anchor="lm")
        paste_centred(canvas, fish_sprite(catch, FISH_SIZE), (cx + 80, y))
        cx += 120
    nets = list(view.get("nets_shown", []))
    if nets:
        draw_text(draw, (cx, y), "nets", look.ink_soft, 15, "bold", anchor="lm")
        cx += 46
        for net in nets:
            kind = str(net).split(":")[-1]
            for k in range(2):
                paste_centred(canvas, fish_sprite(kind, 30), (cx + 15 + k * 30, y))
            draw.rounded_rectangle(
                (cx - 1, y - 17, cx + 61, y + 17), 5, outline=palette.NET, width=3
            )
            cx += 70
    drawn = list(view.get("drawn", []))
    if drawn:
        draw_text(draw, (cx, y), "drawn", look.ink_soft, 15, "bold", anchor="lm")
        cx += 56
        for token in drawn:
            colour = palette.SHRIMP if token == "SH" else palette.CRAB
            draw.ellipse((cx, y - 14, cx + 28, y + 14), fill=colour, outline=look.ink)
            draw_text(
                draw,
                (cx + 14, y),
                str(token),
                look.ink_light if token == "CB" else look.ink,
                14,
                "bold",
            )
            cx += 34
    rocks = list(view.get("rocks_shown", []))
    rock_count = int(view.get("rocks_shown_count", len(rocks)))
    hand = list(view.get("hand", []))
    hand_count = int(view.get("hand_count", len(hand)))
    for label, faces, count in (("sacred rock", rocks, rock_count), ("hand", hand, hand_count)):
        if not count:
            continue
        if cx > x:
            y += 44
            cx = x
        draw_text(draw, (cx, y), label, look.ink_soft, 15, "bold", anchor="lm")
        cx += 100
        shown: list[str | None] = list(faces) if faces else [None] * count
        for card in shown[:9]:
            paste_centred(
                canvas, card_sprite(card, w, h, palette.CARD_FACE, look.ink), (cx + w / 2, y)
            )
            cx += w + 6
        draw_text(draw, (cx + 4, y), f"x{count}", look.ink_soft, 15, "bold", anchor="lm")
        cx = x + 1  # the next group goes on its own row


def _player(data: Mapping[str, Any]) -> Player:
    """The engine's player record from its view (extra view keys dropped)."""
    names = {f.name for f in fields(Player)}
    return Player(**{k: v for k, v in data.items() if k in names})


def draw_final_table(
    canvas: Image.Image, view: Mapping[str, Any], look: Theme, marks: Sequence[str]
) -> None:
    """The scoring table by category, one column per player, the winners' columns in yellow."""
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = layout.CENTRE
    draw.rounded_rectangle(layout.CENTRE, 12, fill=look.panel, outline=look.panel_edge, width=2)
    players = view["players"]
    totals = [int(p.get("score", 0)) for p in players]
    best = max(totals)
    lines = [score_lines(_player(p), final=True) for p in players]
    label_width = 170
    col = (right - left - 2 * MARGIN - label_width) / len(players)
    x0 = left + MARGIN + label_width
    y = top + 26
    draw_text(draw, (left + MARGIN, y), "Final scores", look.ink, HEADING_SIZE, "bold", anchor="lm")
    y += 40
    row_h = 40
    rows = len(CATEGORIES) + 2
    for seat, player in enumerate(players):
        cx = x0 + col * (seat + 0.5)
        if totals[seat] == best:
            draw.rounded_rectangle(
                (x0 + col * seat + 3, y - 24, x0 + col * (seat + 1) - 3, y - 24 + rows * row_h),
                8,
                fill=look.current,
            )
        fill, ink, mark = boat_look(seat, players, marks)
        paste_centred(canvas, boat_sprite(fill, ink, mark, 14), (cx, y - 4))
        name = fit_text(str(player.get("name", "")), 15, col - 8)
        draw_text(draw, (cx, y + 22), name, look.ink, 15, "bold")
    y += 56
    for key, label in CATEGORIES:
        draw_text(draw, (left + MARGIN, y), label, look.ink, BODY_SIZE, "bold", anchor="lm")
        for seat in range(len(players)):
            value = lines[seat].get(key, 0)
            draw_text(
                draw,
                (x0 + col * (seat + 0.5), y),
                str(value),
                look.negative if value < 0 else look.ink,
                BODY_SIZE,
                "bold",
            )
        y += row_h - 4
        draw.line((left + MARGIN, y - 16, right - MARGIN, y - 16), fill=look.panel_alt, width=1)
    draw.line((left + MARGIN, y - 14, right - MARGIN, y - 14), fill=look.ink, width=2)
    draw_text(draw, (left + MARGIN, y + 6), "total", look.ink, HEADING_SIZE, "bold", anchor="lm")
    for seat in range(len(players)):
        draw_text(
            draw,
            (x0 + col * (seat + 0.5), y + 6),
            str(totals[seat]),
            look.ink,
            HEADING_SIZE + 3,
            "bold",
        )
    winners = [str(players[s].get("name", "")) for s in range(len(players)) if totals[s] == best]
    word = "Winner" if len(winners) == 1 else "Winners"
    text = fit_text(f"{word}: {', '.join(winners)} with {best} points", 22, right - left - 32)
    draw_text(draw, ((left + right) / 2, bottom - 40), text, look.ink, 22, "bold")
