"""The seam every game goes through: outside a game's own folders, only its registry lines know it.

Adding a game touches ``engine/<game>/``, ``render/<game>/`` (with its picture texts in
``locale/``), ``bot/games/<game>/`` (with its bot texts in ``locale/``) and one registry line per
layer (``docs/adding-a-game.md``). Source and JSON files are read: a game's name, and its text
prefixes, appear nowhere else.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine import games

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "render", "bot")
REGISTRIES = {"engine/games.py", "render/__init__.py", "bot/games/__init__.py"}
LOCALES = ("en", "fr", "it", "pl")


def _shipped_games() -> list[str]:
    return [key for key in games.GAMES if (ROOT / "engine" / key).is_dir()]


def _own(path: Path, game: str) -> bool:
    return game in path.parts or path.stem == game


def _picture_prefixes(game: str) -> set[str]:
    """The first part of the game's picture text ids (``y`` for ``y.header.turn``)."""
    texts = json.loads((ROOT / "render" / game / "locale" / "en.json").read_text("utf-8"))
    return {key.split(".")[0] for key in texts if not key.startswith("_")}


def _files(suffix: str) -> list[Path]:
    return [path for layer in LAYERS for path in (ROOT / layer).rglob(f"*{suffix}")]


def test_only_the_registries_name_a_shipped_game() -> None:
    shipped = _shipped_games()
    assert shipped, "no game package found in engine/"
    for game in shipped:
        pattern = re.compile(game, re.IGNORECASE)
        prefixes = "|".join(map(re.escape, _picture_prefixes(game)))
        literal = re.compile(rf"""["'](?:{prefixes})\.[a-z]""")
        naming = {
            str(path.relative_to(ROOT))
            for path in _files(".py")
            if not _own(path.relative_to(ROOT), game)
            and (pattern.search(text := path.read_text("utf-8")) or literal.search(text))
        }
        assert naming <= REGISTRIES, sorted(naming - REGISTRIES)
        assert len(naming) <= 3


def test_no_shared_text_file_names_a_game() -> None:
    """The shared catalogs (bot, pictures, engine data) neither name a game nor hold its texts."""
    json_files = [p for p in _files(".json")]
    assert any(p.parts[-2:] == ("catalog", "en.json") for p in json_files)
    for game in _shipped_games():
        pattern = re.compile(game, re.IGNORECASE)
        prefixes = (f"{game}.", *(f"{p}." for p in _picture_prefixes(game)))
        naming = set()
        for path in json_files:
            relative = path.relative_to(ROOT)
            if _own(relative, game):
                continue
            text = path.read_text("utf-8")
            data = json.loads(text)
            keys = data if isinstance(data, dict) else {}
            if pattern.search(text) or any(str(k).startswith(prefixes) for k in keys):
                naming.add(str(relative))
        assert naming == set(), sorted(naming)


def test_every_shipped_game_has_its_folders_and_texts() -> None:
    for game in _shipped_games():
        assert (ROOT / "render" / game).is_dir()
        assert (ROOT / "bot" / "games" / game / "__init__.py").is_file()
        for folder in (ROOT / "render" / game / "locale", ROOT / "bot" / "games" / game / "locale"):
            assert sorted(p.stem for p in folder.glob("*.json")) == sorted(LOCALES), folder
