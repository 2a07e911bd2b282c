"""The web pages' texts: the bot's catalog plus ``bot/web/locale`` (en, fr, it, pl)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from bot.catalog import BotCatalog, Catalog, default_catalog

DIRECTORY = files("bot.web") / "locale"


@cache
def web_catalog() -> Catalog:
    """The bot's catalog (games' texts included) with the web pages' own texts added."""
    catalog = BotCatalog(default_catalog().tables)
    catalog.add_folder(DIRECTORY)
    return catalog
