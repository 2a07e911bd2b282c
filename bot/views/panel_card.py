"""The turn panel as a card (issue 37 item 4, D202): its texts, the step's picture in a media
gallery, then its choices (the panel's menus and buttons, same custom ids, same handlers).

A panel is edited in place at each step: first in words (no gallery, no attachment), then, once
its picture is drawn, again with the picture in the gallery. A card whose picture never comes
stays readable: its texts and choices, without a gallery.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from discord import ui

from bot.cards import buttons_of, card, fit_texts, gallery, rows, texts
from bot.present import plain
from bot.service import PanelState
from render import seat_colour

PANEL_PICTURE = "board.png"  # the name of the step's picture attached to the panel
LAST_ROW = 4  # a classic view's last row: where a button with no row of its own goes


def panel_card(
    words: Sequence[str],
    choices: ui.View | None,
    *,
    picture: bool = False,
    accent: int | None = None,
) -> ui.LayoutView:
    """The panel's card: ``words`` (each its own text display, all within the card's limit),
    the attached picture ``PANEL_PICTURE`` in a gallery if ``picture``, then the items of the
    classic view ``choices`` in rows as that view had them."""
    fitted = [w for w in fit_texts([w for w in words if w]) if w]
    parts: list[ui.Item[Any]] = list(texts(*fitted))
    if picture:
        parts.append(gallery((PANEL_PICTURE, plain(fitted[0]) if fitted else "")))  # alt text
    parts += choice_rows(buttons_of(choices))
    return card(*parts, accent=accent)


def choice_rows(items: Sequence[ui.Item[Any]]) -> list[ui.ActionRow[Any]]:
    """Items in action rows, kept on the rows a classic view gave them (a menu on its own, the
    one-choice button apart from Undo, Refresh and the page buttons), five buttons at most."""
    by_row: dict[int, list[ui.Item[Any]]] = {}
    for item in items:
        by_row.setdefault(LAST_ROW if item.row is None else item.row, []).append(item)
    made: list[ui.ActionRow[Any]] = []
    for row in sorted(by_row):
        made += rows(by_row[row])
    return made


def panel_accent(state: PanelState) -> int | None:
    """The colour of the player's seat, as the card's edge (None if the game has none)."""
    colour = seat_colour(state.game, state.player.colour)
    return None if colour is None else (colour[0] << 16) | (colour[1] << 8) | colour[2]
