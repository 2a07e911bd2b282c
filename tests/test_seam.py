"""The seam every game goes through: outside a game's own folders, only its registry lines know it.

Adding a game touches ``engine/<game>/``, ``render/<game>/``, ``bot/games/<game>.py``, its catalog
keys and one registry line per layer (``docs/adding-a-game.md``).
"""

from __future__ import annotations

import re
from pathlib import Path

from engine import games

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "render", "bot")
REGISTRIES = {"engine/games.py", "render/__init__.py", "bot/games/__init__.py"}


def _shipped_games() -> list[str]:
    return [key for key in games.GAMES if (ROOT / "engine" / key).is_dir()]


def _own(path: Path, game: str) -> bool:
    return game in path.parts or path.stem == game


def test_only_the_registries_name_a_shipped_game() -> None:
    shipped = _shipped_games()
    assert shipped, "no game package found in engine/"
    for game in shipped:
        pattern = re.compile(game, re.IGNORECASE)
        naming = {
            str(path.relative_to(ROOT))
            for layer in LAYERS
            for path in (ROOT / layer).rglob("*.py")
            if not _own(path.relative_to(ROOT), game) and pattern.search(path.read_text("utf-8"))
        }
        assert naming <= REGISTRIES, sorted(naming - REGISTRIES)
        assert len(naming) <= 3


def test_every_shipped_game_has_its_three_folders() -> None:
    for game in _shipped_games():
        assert (ROOT / "render" / game).is_dir()
        assert (ROOT / "bot" / "games" / f"{game}.py").is_file()
