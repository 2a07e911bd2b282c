"""Cards: messages made of Discord's layout components ("Components V2", D200).

A card is one container (a coloured edge, ``accent``) of text displays, separators, a media
gallery of the message's attached pictures and rows of buttons. A card has no ``content``:
discord.py sets the message flag ``IS_COMPONENTS_V2`` for a ``ui.LayoutView``, which cannot be
removed later. Discord's limits for such a message are 40 components (nested ones counted) and
4,000 characters of text in all; ``fit_texts`` keeps a card's texts within them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import ui

from bot.present import clip

MAX_CARD_TEXT = 4000  # characters of text displays in one message, all counted
MAX_CARD_COMPONENTS = 40  # components in one message, nested ones counted
MAX_ROW_BUTTONS = 5
ELLIPSIS = "…"


def card(*parts: ui.Item[Any], accent: int | None = None) -> ui.LayoutView:
    """A card of ``parts`` in one container (``accent``: the colour of its edge)."""
    view: ui.LayoutView = ui.LayoutView(timeout=None)
    view.add_item(ui.Container(*parts, accent_colour=accent))
    return view


def fit_texts(texts: Sequence[str], limit: int = MAX_CARD_TEXT) -> list[str]:
    """``texts`` cut (the longest first, each marked with an ellipsis) so that together they
    hold at most ``limit`` characters; texts that fit are returned unchanged."""
    fitted = list(texts)
    while (excess := sum(map(len, fitted)) - limit) > 0:
        longest = max(range(len(fitted)), key=lambda i: len(fitted[i]))
        keep = len(fitted[longest]) - excess
        if keep < len(ELLIPSIS) + 1:  # the longest cannot give enough alone: empty it
            fitted[longest] = ""
            continue
        fitted[longest] = clip(fitted[longest], keep)
    return fitted


def texts(*parts: str) -> list[ui.TextDisplay[Any]]:
    """A text display for each non-empty part."""
    return [ui.TextDisplay(part) for part in parts if part]


def gallery(*pictures: tuple[str, str]) -> ui.MediaGallery[Any]:
    """A media gallery of attached pictures, each ``(file name, description)``: the files must
    be attached to the same message (``discord.File`` with that name)."""
    return ui.MediaGallery(
        *(
            discord.MediaGalleryItem(f"attachment://{name}", description=clip(about, 1024) or None)
            for name, about in pictures
        )
    )


def rows(items: Iterable[ui.Item[Any]]) -> list[ui.ActionRow[Any]]:
    """Buttons in action rows of at most five, in order (a select takes a row of its own)."""
    made: list[ui.ActionRow[Any]] = []
    for item in items:
        if not made or sum(i.width for i in made[-1].children) + item.width > MAX_ROW_BUTTONS:
            made.append(ui.ActionRow())
        made[-1].add_item(item)
    return made


def buttons_of(view: ui.View | None) -> list[ui.Item[Any]]:
    """The buttons and menus of a classic view, taken out of it to be placed in a card (the
    view builders of the classic messages make them: same custom ids, same handlers)."""
    if view is None:
        return []
    items = list(view.children)
    view.clear_items()  # releases them: a row of the card takes them
    return items
