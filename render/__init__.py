"""Pure drawing of a Yamatai game: an engine view in, PNG bytes out (Pillow and engine only)."""

from render.highlight import Highlight
from render.picture import render_board, render_image
from render.theme import THEMES, Theme, get_theme

__all__ = ["THEMES", "Highlight", "Theme", "get_theme", "render_board", "render_image"]
