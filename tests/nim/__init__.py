"""Nim: a tiny game that lives only in the tests, to prove the seam every game goes through.

Two players take turns taking 1 to 3 objects from one pile; whoever takes the last object wins.
``register()`` adds it to the engine's registry (and, where present, the renderer's and the bot's)
without any change to ``engine/``, ``render/`` or ``bot/``.
"""

from __future__ import annotations


def register() -> None:
    """Add Nim to the registries of the engine, the renderer and the bot (idempotent)."""
    import bot.games
    import render
    from bot.catalog import default_catalog
    from engine import games
    from tests.nim.picture import render_board
    from tests.nim.presentation import NimPresentation
    from tests.nim.rules import Nim

    if "nim" not in games.GAMES:
        games.register(Nim())
    render.register("nim", render_board)
    shown = NimPresentation()
    bot.games.register(shown)
    default_catalog().add_folder(shown.locale)
