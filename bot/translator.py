"""Slash command texts from the catalog: English by default, other locales when translated."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.catalog import FALLBACK, Catalog, default_catalog, normalize_locale


def text(key: str, **params: str) -> app_commands.locale_str:
    """A command or option description: the English catalog text, keyed for translation (its
    placeholders filled from ``params`` in every language)."""
    return app_commands.locale_str(default_catalog().text(key, **params), key=key, params=params)


class CatalogTranslator(app_commands.Translator):
    """Gives Discord the catalog's text for each locale that has one."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__()
        self.catalog = catalog

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text for ``locale`` if its table has the string's key, else None."""
        key = string.extras.get("key")
        short = normalize_locale(str(locale))
        if not isinstance(key, str) or short == FALLBACK:
            return None
        if key not in self.catalog.tables.get(short, {}):
            return None
        return self.catalog.text(key, short, **string.extras.get("params", {}))
