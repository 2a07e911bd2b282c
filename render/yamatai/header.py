"""The title line: round, whose turn and step (or the winner), and the boat reserve."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.yamatai.view import YamataiView
from render.fonts import font
from render.stand_in import ended, spectator, winners
from render.text import fit_name_first, fit_text, text_length
from render.theme import Theme
from render.words import say
from render.yamatai.archipelago import boat_letters
from render.yamatai.glyphs import boat_sprite, draw_text, paste_centred
from render.yamatai.layout import Rect

STEPS = ("fleet", "trade", "place", "act", "look", "acted", "stored", "recruited")
"""The turn's steps the title names (``y.step.<step>``; to spectators ``y.watch.<step>``)."""

MIN_SIZE = 14  # the smallest text size of the title line

__all__ = ["STEPS", "draw_header", "step_shown", "step_words"]


def draw_header(
    canvas: Image.Image, view: YamataiView, rect: Rect, theme: Theme, marks: Sequence[str]
) -> None:
    """Round and current player (or the winner) on the left, the reserve on the right."""
    draw = ImageDraw.Draw(canvas)
    y = (rect.y0 + rect.y1) / 2
    right = _reserve(canvas, draw, view, rect.x1 - 6, y, theme)
    x = rect.x0 + 4.0
    draw_text(draw, (x, y), "YAMATAI", theme.accent, theme.title_size, anchor="lm")
    x += font("bold", theme.title_size).getlength("YAMATAI") + 18
    room = right - x - 16
    size = theme.heading_size + 2
    while size > MIN_SIZE and text_length(_status(view), size) > room:
        size -= 1
    current = view.get("current_seat")
    if _playing(view) and isinstance(current, int):
        # too long even at the smallest size: the step loses letters first, then the name
        name = str(view["players"][current]["name"])
        text = fit_name_first(
            lambda who, step: _turn(view, who, step), name, _step(view), size, room
        )
    elif not ended() and view.get("over") and (outcome := view.get("outcome")):
        # a winner's name too long loses letters, with an ellipsis
        seat = _winner(outcome)
        text = fit_name_first(
            lambda who, _: _over(view, who), str(view["players"][seat]["name"]), "", size, room
        )
    else:
        text = fit_text(_status(view), size, room)
    draw_text(draw, (x, y), text, theme.ink_light, size, anchor="lm")


def _playing(view: YamataiView) -> bool:
    """Whether the title names the player to move (not a result)."""
    return not ended() and not (view.get("over") and view.get("outcome"))


def _status(view: YamataiView) -> str:
    """Whose turn and what to do, or who won."""
    players = view["players"]
    outcome = view.get("outcome")
    if stopped := ended():
        return say("y.header.ended", ended=stopped, round=view.get("round", ""))
    if view.get("over") and outcome:
        return _over(view, str(players[_winner(outcome)]["name"]))
    current = view.get("current_seat")
    who = str(players[current]["name"]) if isinstance(current, int) else "?"
    return _turn(view, who, _step(view))


def _turn(view: YamataiView, who: str, step: str) -> str:
    """Whose turn and what they do: to the players "Ann to play: choose a fleet", to
    spectators "Ann chooses a fleet"."""
    key = "y.header.watch" if spectator() else "y.header.turn"
    return say(key, round=view.get("round", ""), name=who, step=step)


def _step(view: YamataiView) -> str:
    """The step in the title's voice (the players' or the spectators')."""
    return step_words(view, watched=spectator())


def _over(view: YamataiView, winner: str) -> str:
    """Who won (``winner``, the name as it fits) with what, after how many rounds."""
    outcome = view.get("outcome") or {}
    seat = _winner(outcome) if outcome else -1
    total = next((s["total"] for s in outcome.get("scores", []) if s["seat"] == seat), "")
    return say("y.header.over", round=view.get("round", ""), name=winner, total=total)


def _winner(outcome: Mapping[str, Any]) -> int:
    """The winner's seat: the rules', unless the bot's result ranks another first (D286)."""
    return winners([int(outcome["winner"])])[0]


def step_shown(view: YamataiView) -> str:
    """The step the title names (one of ``STEPS``, else the view's own label)."""
    turn = view.get("turn") or {}
    shown = str(turn.get("label", turn.get("step", "")))
    # Games begun before the rulebook's step order recruit before the harbor step.
    if shown == "acted" and view.get("step_order") == "recruit-first":
        shown = "stored"
    return shown


def step_words(view: YamataiView, *, watched: bool = False, yours: bool = False) -> str:
    """The current step in words, as the board names it to everyone ("umieścić łodzie";
    ``watched``: as spectators are told it, in the third person, "umieszcza łodzie"; ``yours``:
    as the turn picture tells its player, "umieść łodzie")."""
    shown = step_shown(view)
    if shown not in STEPS:
        return shown
    return say(
        f"y.watch.{shown}" if watched else f"y.focus.step.{shown}" if yours else f"y.step.{shown}"
    )


def _reserve(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: YamataiView,
    right: float,
    y: float,
    theme: Theme,
) -> float:
    """The boats left in the reserve, right-aligned; returns the x where it starts."""
    reserve = view.get("reserve") or {}
    letters = boat_letters()
    x = right
    for boat in reversed(list(letters)):
        count = str(reserve.get(boat, 0))
        draw_text(draw, (x, y), count, theme.ink_light, theme.body_size, anchor="rm")
        x -= font("bold", theme.body_size).getlength(count) + 4
        paste_centred(canvas, boat_sprite(theme, boat, letters[boat], 34), (x - 17, y))
        x -= 46
    word = say("y.reserve")
    draw_text(draw, (x, y), word, theme.ink_dim, theme.small_size, style="regular", anchor="rm")
    return x - text_length(word, theme.small_size, "regular")
