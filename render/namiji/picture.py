"""Namiji's picture: static layer, then the boats, the centre, the boat boards and the header."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.contract import Event
from engine.namiji.components import CLOCKWISE
from engine.namiji.view import NamijiView
from render.extras import PLAIN, Extras
from render.focus import Box, overlaps
from render.kept import TextFree
from render.marks import player_marks
from render.namiji import layout, palette
from render.namiji.boards import draw_boards, fit_text
from render.namiji.centre import TASKS, draw_centre, draw_final_table
from render.namiji.glyphs import EDGE, boat_sprite, paste_centred
from render.namiji.highlight import Highlight
from render.namiji.route import boat_look, draw_boats, nobody_to_act
from render.namiji.static import static_layer
from render.png import encode_png, palette_of
from render.stand_in import dressed, ended, spectator, winners
from render.stored import palette_stored_or_drawn
from render.text import draw_text, fit_name_first, text_length
from render.theme import Theme, get_theme, theme_colours
from render.words import language as drawn_language
from render.words import say, speaking

TITLE_SIZE = 26
HEADER_SIZE = 20
PHASES = ("move", "station", "draft")
"""Phases named in words (``n.phase.<phase>``)."""

__all__ = [
    "doing_words",
    "drawn_palette",
    "picture_palette",
    "render_board",
    "render_image",
]


def render_image(
    view: NamijiView,
    *,
    highlight: Highlight | None = None,
    events: Sequence[Event] | None = None,
    theme: str | Theme = "default",
    language: str | None = None,
    region: Box | None = None,
) -> Image.Image:
    """The board of a view as an RGB Pillow image (the last turn from ``highlight`` or events),
    its texts in ``language`` (None: the language being drawn, English by default); with a
    ``region`` (a turn picture's crop), only the parts that show in it are drawn."""
    if language is not None:
        with speaking(language):
            return render_image(
                view, highlight=highlight, events=events, theme=theme, region=region
            )
    look = get_theme(theme)
    view = nobody_to_act(view)  # a game the bot ended has nobody to play
    hl = highlight if highlight is not None else Highlight.from_events(events)
    players = view["players"]
    marks = player_marks(players)
    canvas = static_layer(
        look,
        len(players),
        len(view["boats"]),
        bool(view.get("doubles_used")),
        drawn_language(),
        str(view.get("direction", CLOCKWISE)),
    ).copy()

    def shown(area: Box) -> bool:
        return region is None or overlaps(area, region)

    if shown(layout.ROUTE_AREA):
        draw_boats(canvas, view, look, hl, marks)
    if shown(layout.CENTRE) and view.get("phase") == "over":
        draw_final_table(canvas, view, look, marks)
    elif shown(layout.CENTRE):
        draw_centre(canvas, view, look)
    if shown(layout.PANELS_AREA):
        draw_boards(canvas, view, look, hl, marks)
    if shown(layout.HEADER):
        _draw_header(canvas, view, look, marks)
    return canvas


def render_board(
    view: NamijiView,
    *,
    events: Sequence[Event] | None = None,
    highlight: Highlight | None = None,
    extras: Extras = PLAIN,
) -> bytes:
    """The board of an engine view as PNG bytes (events: the last turn, ringed), drawn with
    ``extras`` (its language, theme and the bot's extras)."""
    with dressed(extras):
        image = render_image(
            view,
            highlight=highlight,
            events=events,
            theme=extras.theme,
            language=extras.language,
        )
    return encode_png(image, palette=picture_palette(get_theme(extras.theme)))


PALETTES: TextFree[Image.Image] = TextFree(8)
"""The fixed palette of each theme (a colour table, kept once made: no words in it)."""


def picture_palette(look: Theme) -> Image.Image:
    """The fixed palette of Namiji's pictures in a theme: its colours, then its route's."""
    return PALETTES.get(look, lambda: palette_stored_or_drawn("namiji", look, drawn_palette))


def drawn_palette(look: Theme) -> Image.Image:
    """Make the palette (nothing read): the theme's colours, then an octree's of a 4-player
    English layer."""
    colours = (*palette.ALL, EDGE, *theme_colours(look))
    return palette_of(colours, static_layer(look, 4, 5, True, "en"))


def turn_number(view: NamijiView) -> int:
    """The turn the board shows (D83): a turn keeps its number from its move to its end.

    The view's ``turns`` counts the moves made, so before a move (and at a pontoon's pick) the
    turn being played is one more; from the move to the turn's end (``station``) and once the
    game is over it is the count itself, as /board, /log and the turn messages say."""
    turns = int(view.get("turns", 0))
    return turns if view.get("phase") in ("station", "over") else turns + 1


def doing_words(view: NamijiView, *, watched: bool = False, yours: bool = False) -> str:
    """What the player to move does, in words: the task at the stop, or the phase, as the
    board names it to everyone ("wziąć rybę"; ``watched``: as spectators are told it, in the
    third person, "bierze rybę"; ``yours``: as the turn picture tells its player, "weź rybę")."""
    phase = str(view.get("phase", ""))
    tasks = list(view.get("tasks", []))
    if phase == "station":  # the task at the stop; with none left, only the turn's end
        if not tasks:
            return say("n.watch.end" if watched else "n.focus.verb.end")
        task = str(tasks[0])
        if task not in TASKS:
            return task
        return say(
            f"n.watch.{task}" if watched else f"n.focus.task.{task}" if yours else f"n.task.{task}"
        )
    if phase not in PHASES:
        return phase
    return say(
        f"n.watch.{phase}" if watched else f"n.focus.phase.{phase}" if yours else f"n.phase.{phase}"
    )


def _draw_header(canvas: Image.Image, view: NamijiView, look: Theme, marks: Sequence[str]) -> None:
    """Title and turn; whose turn it is and what they do, or the winners."""
    draw = ImageDraw.Draw(canvas)
    _, top, right, bottom = layout.HEADER
    y = (top + bottom) / 2
    draw_text(draw, (18, y), "Namiji", look.ink_light, TITLE_SIZE, "bold", anchor="lm")
    draw_text(
        draw,
        (128, y),
        say("n.header.turn", turn=turn_number(view)),
        look.ink_dim,
        HEADER_SIZE,
        "bold",
        anchor="lm",
    )
    players = view["players"]
    if view.get("phase") == "over":
        totals = [int(p.get("score", 0)) for p in players]
        first = winners(s for s, total in enumerate(totals) if total == max(totals))  # D286
        best = max(totals[s] for s in first)
        names = [str(players[s].get("name", "")) for s in first]
        key = "n.header.over_single" if len(names) == 1 else "n.header.over_shared"
        text = say(key, names=say("n.and").join(names), best=best)
        text = fit_text(text, HEADER_SIZE + 2, right - 280)
        draw_text(draw, (260, y), text, look.accent, HEADER_SIZE + 2, "bold", anchor="lm")
        return
    if stopped := ended():
        text = say("n.header.ended", ended=stopped)
        draw_text(draw, (260, y), text, look.accent, HEADER_SIZE + 2, "bold", anchor="lm")
        return
    seat = view.get("current_seat")
    if seat is None:
        return
    fill, ink, mark = boat_look(int(seat), players, marks)
    paste_centred(canvas, boat_sprite(fill, ink, mark, 17), (282, y))
    viewer = view.get("viewer")
    who = (
        say("n.header.spectator")
        if viewer is None
        else say("n.header.view_of", name=players[int(viewer)].get("name", ""))
    )
    who = fit_text(who, 16, 300)
    draw_text(draw, (right - 18, y), who, look.ink_dim, 16, "bold", anchor="rm")
    room = right - 18 - text_length(who, 16) - 24 - 308
    watched = spectator()
    text = fit_name_first(
        lambda name, doing: say(
            "n.header.watch" if watched else "n.header.to_play", name=name, doing=doing
        ),
        str(players[int(seat)].get("name", "")),
        doing_words(view, watched=watched),
        HEADER_SIZE,
        room,
    )
    draw_text(draw, (308, y), text, look.current, HEADER_SIZE, "bold", anchor="lm")
