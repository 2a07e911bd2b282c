"""Inside the loop: the supplies and the stop under way, or the final scoring table."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.namiji.components import components
from engine.namiji.scoring import score_lines
from engine.namiji.state import player_from_view
from engine.namiji.view import NamijiView
from render.namiji import layout, palette
from render.namiji.boards import arrival_face, fit_text
from render.namiji.glyphs import boat_sprite, card_sprite, fish_sprite, paste_centred
from render.namiji.route import boat_look
from render.namiji.static import KEY_HEIGHT
from render.stand_in import ended, spectator, winners
from render.text import draw_text, text_length
from render.theme import Theme
from render.words import say

HEADING_SIZE = 19
BODY_SIZE = 16
FISH_SIZE = 36
CARD_SIZE = (44, 28)
BONUS_SIZE = (52, 26)
MARGIN = 16
STOP_TOP = 188  # the stop's title, from the centre's top
ROW_PITCH = 44  # between two rows of the stop (catch, nets, drawn; rock cards; the hand)
#: The final table's rows: the engine's score categories (``n.cat.<category>`` names them).
CATEGORIES = (
    "crate",
    "crustaceans",
    "panoramas",
    "panorama_bonus",
    "meals",
    "arrival",
    "sacred_rocks",
    "offerings",
)
#: The tasks of a stop named in words (``n.task.<task>``; ``offer``: U7's second offering).
TASKS = ("fish", "catch", "net", "trap", "rock", "offer", "panorama")

__all__ = ["draw_centre", "draw_final_table", "stop_bottom", "task_words", "winner_lines"]


def task_words(task: str) -> str:
    """A stop's task in words ("take a fish")."""
    return say(f"n.task.{task}") if task in TASKS else task


def _label(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, look: Theme) -> float:
    """A small grey label at x; returns where what follows it starts."""
    draw_text(draw, (x, y), text, look.ink_soft, 15, "bold", anchor="lm")
    return x + text_length(text, 15, "bold") + 10


def draw_centre(canvas: Image.Image, view: NamijiView, look: Theme) -> None:
    """Supplies (fish bank, piles, tokens left) and what the stop under way shows."""
    draw = ImageDraw.Draw(canvas)
    left, top, right, _ = layout.CENTRE
    x, y = left + MARGIN, top + 24
    draw_text(draw, (x, y), say("n.centre.bank"), look.ink, HEADING_SIZE, "bold", anchor="lm")
    bank = view.get("bank", {})
    up = list(bank.get("face_up", []))
    y += 36
    fx = x
    for kind in up[:12]:
        paste_centred(canvas, fish_sprite(kind, FISH_SIZE), (fx + FISH_SIZE / 2, y))
        fx += FISH_SIZE + 6
    if not up:
        draw_text(
            draw, (fx, y), say("n.centre.no_fish"), look.ink_soft, BODY_SIZE, "regular", anchor="lm"
        )
    down = say("n.centre.face_down", count=bank.get("face_down", 0))
    draw_text(draw, (right - MARGIN, y), down, look.ink, BODY_SIZE, "bold", anchor="rm")
    card = card_sprite(None, 30, 36, palette.CARD_FACE, look.ink)
    paste_centred(canvas, card, (right - MARGIN - text_length(down, BODY_SIZE, "bold") - 25, y))
    y += 40
    piles = (
        say("n.centre.nets", count=view.get("net_pile", 0)),
        say("n.centre.bag", count=view.get("bag", 0)),
        say("n.centre.pontoon_deck", count=view.get("pontoon_deck", 0)),
        say("n.centre.rock_deck", count=view.get("rock_deck", 0)),
    )
    text = fit_text("  \u00b7  ".join(piles), BODY_SIZE, right - MARGIN - x)
    draw_text(draw, (x, y), text, look.ink, BODY_SIZE, "bold", anchor="lm")
    y += 34
    ax = _label(draw, x, y, say("n.centre.arrival_left"), look)
    for token in view.get("arrivals", []):
        draw.ellipse((ax, y - 15, ax + 30, y + 15), fill=palette.GOLD, outline=look.ink, width=2)
        draw_text(draw, (ax + 15, y), arrival_face(str(token)), look.ink, 14, "bold")
        ax += 36
    bonuses = list(view.get("bonuses", []))
    label = say("n.centre.bonus_left")
    wide = text_length(label, 15, "bold") + 10 + len(bonuses) * (BONUS_SIZE[0] + 6)
    bx = _label(draw, max(ax + 10, min(x + 330, right - MARGIN - wide)), y, label, look)
    for bonus in bonuses:
        kind = str(bonus)[1:2]  # BD: the dolphin's bonus, its station letter (in the key)
        face = f"{kind} +{components().panorama_bonus}"
        sprite = card_sprite(face, BONUS_SIZE[0], BONUS_SIZE[1], palette.STATIONS[kind], look.ink)
        paste_centred(canvas, sprite, (bx + BONUS_SIZE[0] / 2, y))
        bx += BONUS_SIZE[0] + 6
    y += 30
    draw.line((x, y, right - MARGIN, y), fill=look.panel_edge, width=1)
    _draw_stop(canvas, draw, view, look, x, top + STOP_TOP, right - MARGIN)


def stop_bottom(view: NamijiView) -> int:
    """The foot of what the centre shows above its key (the supplies, then the stop under way
    and what it shows), in board pixels: a turn picture frames a stop's choices on it."""
    title = layout.CENTRE[1] + STOP_TOP
    if ended() or view.get("phase") not in ("draft", "station"):
        return title + HEADING_SIZE
    rows = int(bool(view.get("catch") or view.get("nets_shown") or view.get("drawn")))
    rows += int(int(view.get("rocks_shown_count", len(view.get("rocks_shown", [])))) > 0)
    rows += int(int(view.get("hand_count", len(view.get("hand", [])))) > 0)
    if not rows:
        return title + HEADING_SIZE
    shown = (
        ([str(c) for c in view.get("rocks_shown", [])], "n.centre.rocks"),
        ([str(c) for c in view.get("hand", [])], "n.centre.hand"),
    )
    extra = sum(max(0, len(_chip_rows(cards, _cards_room(label))) - 1) for cards, label in shown)
    return title + 40 + (rows - 1) * ROW_PITCH + extra * CHIP_ROW + FISH_SIZE // 2 + 4


def _stop_title(view: NamijiView) -> str:
    """What the stop asks, or the move next: to the players "At this stop: take a fish", to
    spectators "At this stop: Ann takes a fish"."""
    tasks = [str(t) for t in view.get("tasks", [])]
    seat, players = view.get("current_seat"), view["players"]
    if spectator() and isinstance(seat, int) and 0 <= seat < len(players):
        name = str(players[seat].get("name", ""))
        if view.get("phase") != "station":
            return say("n.centre.next_watch", name=name)
        if tasks and tasks[0] in TASKS:
            return say("n.centre.at_stop_watch", name=name, task=say(f"n.watch.{tasks[0]}"))
    if view.get("phase") != "station":
        return say("n.centre.next")
    return say("n.centre.at_stop", task=task_words(tasks[0]) if tasks else say("n.centre.done"))


def _picker(view: NamijiView) -> str:
    """The name of the player who picks a pontoon card now (the draft's current seat)."""
    seat, players = view.get("current_seat"), view["players"]
    if isinstance(seat, int) and 0 <= seat < len(players):
        return str(players[seat].get("name", ""))
    return str(view.get("draft_slot", ""))


def _draw_stop(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: NamijiView,
    look: Theme,
    x: int,
    y: int,
    right: int,
) -> None:
    """The stop under way: its task, the fish caught, nets, crustaceans or cards shown."""
    phase = view.get("phase")
    if stopped := ended():
        text = fit_text(stopped, HEADING_SIZE, right - x)
        draw_text(draw, (x, y), text, look.ink, HEADING_SIZE, "bold", anchor="lm")
        return
    title = say("n.centre.draft", name=_picker(view)) if phase == "draft" else _stop_title(view)
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
        fx = _label(draw, cx, y, say("n.centre.caught"), look)
        paste_centred(canvas, fish_sprite(catch, FISH_SIZE), (fx + FISH_SIZE / 2, y))
        cx = round(fx + FISH_SIZE + 24)
    nets = list(view.get("nets_shown", []))
    if nets:
        cx = round(_label(draw, cx, y, say("n.centre.nets_shown"), look))
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
        cx = round(_label(draw, cx, y, say("n.centre.drawn"), look))
        for token in drawn:  # in the order drawn, in the boat boards' colours
            colour = palette.SHRIMP if token == "SH" else palette.CRAB
            draw.ellipse((cx, y - 14, cx + 28, y + 14), fill=colour, outline=look.ink)
            cx += 34
        counts = (
            say("n.board.shrimp", count=drawn.count("SH")),
            say("n.board.crab", count=drawn.count("CB")),
        )
        text = fit_text(", ".join(counts), BODY_SIZE, right - cx - 4)
        draw_text(draw, (cx + 4, y), text, look.ink, BODY_SIZE, "bold", anchor="lm")
        cx = round(cx + 8 + text_length(text, BODY_SIZE, "bold"))
    rocks = list(view.get("rocks_shown", []))
    rock_count = int(view.get("rocks_shown_count", len(rocks)))
    hand = list(view.get("hand", []))
    hand_count = int(view.get("hand_count", len(hand)))
    groups = (("n.centre.rocks", rocks, rock_count), ("n.centre.hand", hand, hand_count))
    for label, faces, count in groups:
        if not count:
            continue
        if cx > x:
            y += ROW_PITCH
            cx = x
        cx = round(max(cx + 100, _label(draw, cx, y, say(label), look)))
        if faces:
            for row in _chip_rows([str(f) for f in faces], right - cx):
                _named_cards(draw, row, cx, y, right, look)
                y += CHIP_ROW
            y -= CHIP_ROW
        else:  # hidden: their backs, as many as there are (no count beside them)
            for _ in range(min(count, 9)):
                paste_centred(
                    canvas, card_sprite(None, w, h, palette.CARD_FACE, look.ink), (cx + w / 2, y)
                )
                cx += w + 6
        cx = x + 1  # the next group goes on its own row


CHIP_SIZES = (15, 14)  # a card's name on the stop's row, the largest that fits (14: the least)
CHIP_GAP, CHIP_PAD = 5, 12  # between two named cards; a name's room inside its card
CHIP_ROW = 34  # from a row of named cards to the next


def _cards_room(label: str) -> float:
    """How wide a row of cards after its label (``n.centre.rocks``, ``n.centre.hand``) is."""
    left, _, right, _ = layout.CENTRE
    x = left + MARGIN
    return right - MARGIN - max(x + 100, x + text_length(say(label), 15, "bold") + 10)


def _chip_rows(cards: list[str], room: float) -> list[list[str]]:
    """The cards on one row if their names fit ``room`` in the least size, else on two rows."""
    names = [text_length(card_label(c), CHIP_SIZES[-1], "bold") + CHIP_PAD for c in cards]
    if len(cards) < 2 or sum(names) + CHIP_GAP * (len(cards) - 1) <= room:
        return [cards] if cards else []
    half = (len(cards) + 1) // 2
    return [cards[:half], cards[half:]]


def card_label(code: str) -> str:
    """A card shown at a stop, by what a player calls it: a meal's dish and points ("unagi +6"),
    an upgrade's or a sacred rock card's name."""
    comp = components()
    if code in comp.meals:
        return f"{say(f'n.meal.{code}')} +{comp.meals[code]}"
    return say(f"n.card.{code}") if code in comp.upgrades or code in comp.rocks else code


def _even_cap(widths: list[float], room: float) -> float:
    """The largest width such that the widths, none over it, add up to at most ``room``."""
    left, count = room, len(widths)
    for width in sorted(widths):
        if width * count > left:
            return left / count
        left -= width
        count -= 1
    return max(widths, default=room)


def _named_cards(
    draw: ImageDraw.ImageDraw, cards: list[str], x: float, y: float, right: float, look: Theme
) -> None:
    """Face-up cards as chips with their names, from ``x`` to at most ``right``: the names in
    the largest size that fits, else each cut to its share of the row."""
    names = [card_label(c) for c in cards]
    gap, pad = CHIP_GAP, CHIP_PAD
    room = right - x - gap * (len(names) - 1)
    for size in CHIP_SIZES:
        widths = [text_length(n, size, "bold") + pad for n in names]
        if sum(widths) <= room:
            break
    else:  # the short names whole, the long ones cut to an even share of what is left
        cap = _even_cap(widths, room)
        names = [
            fit_text(n, size, cap - pad) if w > cap else n
            for n, w in zip(names, widths, strict=True)
        ]
        widths = [min(w, cap) for w in widths]
    h = CARD_SIZE[1]
    upgrades = components().upgrades
    for card, name, width in zip(cards, names, widths, strict=True):
        # an upgrade in the colour of the station where it acts, as on the boat boards
        acts = upgrades[card].station if card in upgrades else ""
        fill = palette.STATIONS.get(acts, palette.CARD_FACE)
        draw.rounded_rectangle((x, y - h / 2, x + width, y + h / 2), 5, fill=fill, outline=look.ink)
        draw_text(draw, (x + width / 2, y), name, look.ink, size, "bold")
        x += width + gap


def draw_final_table(
    canvas: Image.Image, view: NamijiView, look: Theme, marks: Sequence[str]
) -> None:
    """The scoring table by category, one column per player, the winners' columns in yellow."""
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = layout.CENTRE
    bottom -= KEY_HEIGHT  # the key stays under the table: the route's and crates' letters
    draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), fill=look.panel)
    players = view["players"]
    totals = [int(p.get("score", 0)) for p in players]
    # the bot's first-ranked seats when it gave a result (a resigned seat ranks last, D286)
    first = set(winners(s for s, total in enumerate(totals) if total == max(totals)))
    best = max(totals[s] for s in first)
    lines = [score_lines(player_from_view(p), final=True) for p in players]
    label_width = max(170, 12 + max(text_length(say(f"n.cat.{c}"), BODY_SIZE) for c in CATEGORIES))
    col = (right - left - 2 * MARGIN - label_width) / len(players)
    x0 = left + MARGIN + label_width
    y = top + 26
    draw_text(
        draw, (left + MARGIN, y), say("n.final.title"), look.ink, HEADING_SIZE, "bold", anchor="lm"
    )
    y += 40
    row_h = 40
    rows = len(CATEGORIES) + 2
    for seat, player in enumerate(players):
        cx = x0 + col * (seat + 0.5)
        if seat in first:
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
    for key in CATEGORIES:
        label = say(f"n.cat.{key}")
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
    draw_text(
        draw,
        (left + MARGIN, y + 6),
        say("n.final.total"),
        look.ink,
        HEADING_SIZE,
        "bold",
        anchor="lm",
    )
    for seat in range(len(players)):
        draw_text(
            draw,
            (x0 + col * (seat + 0.5), y + 6),
            str(totals[seat]),
            look.ink,
            HEADING_SIZE + 3,
            "bold",
        )
    names = [str(players[s].get("name", "")) for s in sorted(first)]
    key = "n.final.winner" if len(names) == 1 else "n.final.winners"
    size, shown = winner_lines(say(key, names=", ".join(names), best=best), right - left - 32)
    pitch, middle = size + 5, bottom - 22 - 7 * (len(shown) - 1)  # two lines: clear of the key
    for k, line in enumerate(shown):
        line_y = middle + (k - (len(shown) - 1) / 2) * pitch
        draw_text(draw, ((left + right) / 2, line_y), line, look.ink, size, "bold")


WINNER_SIZES = (22, 20, 18)


def winner_lines(text: str, width: float) -> tuple[int, list[str]]:
    """The final table's winner sentence whole: on one line in the largest size that fits, else
    on two lines cut between words (a name only too long for a line ends with an ellipsis)."""
    for size in WINNER_SIZES:
        if text_length(text, size, "bold") <= width:
            return size, [text]
    size = WINNER_SIZES[-1]
    words = text.split(" ")
    cuts = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    fitting = [c for c in cuts if all(text_length(t, size, "bold") <= width for t in c)]
    if fitting:  # the most even of the cuts that fit
        pair = min(fitting, key=lambda c: abs(len(c[0]) - len(c[1])))
    else:  # the longest first line that fits; the rest is cut
        short = [c for c in cuts if text_length(c[0], size, "bold") <= width]
        pair = short[-1] if short else (text, "")
    return size, [fit_text(t, size, width) for t in pair if t]
