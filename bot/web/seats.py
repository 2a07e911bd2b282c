"""A player's public state on a game's page, in the game's language.

Each field of the spectator's view of a player is a row: its name (``web.field.<field>``, else
the picture's own name for it, else the field itself) and its values, put in words by the game's
web extras (its presentation's ``web.words``: boats, tokens, fish, nets ... by name) or
shown as they are (numbers, tiles and cards by their printed names).
"""

from __future__ import annotations

from bot.catalog import Catalog
from engine.contract import View

from .cards import field_name
from .games import extras
from .replay import public_fields, shown

#: A row of a player's state: the field's name and its values, in words.
Row = tuple[str, tuple[str, ...]]


def seat_rows(
    game_key: str, view: View, seat: int, catalog: Catalog, language: str
) -> tuple[Row, ...]:
    """A seat's public state as rows in ``language`` (empty fields left out)."""

    def t(key: str, **params: object) -> str:
        return catalog.text(key, language, **params)

    words = extras(game_key).words
    rows = []
    for field, value in public_fields(view, seat):
        values = words(t, field, value) if words is not None else None
        if values is None:
            values = shown(value)
        if values:
            rows.append((_label(game_key, field, catalog, language), tuple(values)))
    return tuple(rows)


def _label(game_key: str, field: str, catalog: Catalog, language: str) -> str:
    key = f"web.field.{field}"
    if catalog.has(key):
        return catalog.text(key, language)
    return field_name(game_key, field, language)
