"""Yamatai's picture: static layer, then the map, tracks, panels and header for one view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image

from engine.contract import Event
from engine.yamatai.board import load_board
from engine.yamatai.view import YamataiView
from render.extras import PLAIN, Extras
from render.focus import Box, overlaps
from render.kept import TextFree
from render.marks import player_marks
from render.png import encode_png, palette_of
from render.stand_in import dressed, without_turn
from render.stored import palette_stored_or_drawn
from render.theme import Theme, get_theme, theme_colours
from render.words import language as drawn_language
from render.words import speaking
from render.yamatai.archipelago import draw_archipelago
from render.yamatai.header import draw_header
from render.yamatai.highlight import Highlight
from render.yamatai.layout import Rect, layout
from render.yamatai.panels import draw_panels
from render.yamatai.signs import boat_letters, culture_letters
from render.yamatai.static import static_layer
from render.yamatai.tracks import (
    draw_building_row,
    draw_final_scores,
    draw_fleet_track,
    draw_specialists,
)

__all__ = ["drawn_palette", "picture_palette", "render_board", "render_image", "seat_marks"]


def render_image(
    view: YamataiView,
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
    view = without_turn(view)  # a game the bot ended has nobody to play
    if highlight is None and events is not None:
        highlight = Highlight.from_events(events)
    board_name = str(view.get("board", "default"))
    board = load_board(board_name)
    players = view["players"]
    lay = layout(board_name, len(players))
    canvas = static_layer(board_name, look, len(players), drawn_language()).copy()
    hl = highlight if highlight is not None else Highlight.from_view(view)
    marks = seat_marks(players)

    def shown(*rects: Rect) -> bool:
        return region is None or any(overlaps(rect.box, region) for rect in rects)

    if shown(lay.header):
        draw_header(canvas, view, lay.header, look, marks)
    if shown(lay.map):
        draw_archipelago(canvas, view, board, lay, look, hl, marks)
    if shown(lay.fleet) and view.get("over") and view.get("outcome"):
        draw_final_scores(canvas, view, lay.fleet, look, marks)
    elif shown(lay.fleet):
        draw_fleet_track(canvas, view, lay.fleet, look, hl, marks)
    if shown(lay.buildings):
        draw_building_row(canvas, view, lay.buildings, look)
    if shown(lay.specialists):
        draw_specialists(canvas, view, lay.specialists, look)
    if shown(*lay.panels):
        draw_panels(canvas, view, lay.panels, look, hl, marks)
    return canvas


def render_board(
    view: YamataiView,
    *,
    events: Sequence[Event] | None = None,
    highlight: Highlight | None = None,
    extras: Extras = PLAIN,
) -> bytes:
    """The board of an engine view as PNG bytes (highlight: the last turn's changes, else from
    ``events``), drawn with ``extras`` (its language, theme and the bot's extras)."""
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
    """The fixed palette of Yamatai's pictures in a theme: its colours, then its map's."""
    return PALETTES.get(look, lambda: palette_stored_or_drawn("yamatai", look, drawn_palette))


def drawn_palette(look: Theme) -> Image.Image:
    """Make the palette (nothing read): the theme's colours, then an octree's of a 4-player
    English layer."""
    return palette_of(theme_colours(look), static_layer("default", look, 4, "en"))


def seat_marks(players: Sequence[Mapping[str, object]]) -> list[str]:
    """The players' marks: their initials, or seat numbers when an initial is also a boat's or
    a culture token's letter in the picture's language (Polish "K" for Komputer beside "K"
    stone boats, "H" for Hana beside "H" tea tokens read alike on a phone)."""
    marks = player_marks(players)
    pieces = {*boat_letters().values(), *culture_letters().values()}
    if pieces.isdisjoint(marks):
        return marks
    return [str(seat + 1) for seat in range(len(players))]
