"""The "View on the web" link button of a game's opening and final messages (docs/web.md)."""

from __future__ import annotations

from discord import ui

from bot.context import Himiko


def web_link_view(
    bot: Himiko, game_id: int, locale: str | None, view: ui.View | None = None
) -> ui.View | None:
    """``view`` (or a new one) with a link button to the game's web page; ``view`` unchanged
    when no web view is configured. A link button has no custom id: nothing to handle."""
    url = bot.game_page(game_id)
    if url is None:
        return view
    view = view if view is not None else ui.View(timeout=None)
    view.add_item(ui.Button(label=bot.catalog.text("web.button", locale), url=url))
    return view
