"""Namiji's French texts use the rulebook's words (issue 38 leftovers, docs/glossary/fr.md): a
space of the sea route (or a pontoon's) is an "emplacement", a "case" is only the crate's (or the
score track's). The panel said "Sur cette case : Pêche" under "Avancer jusqu'à l'emplacement
9", and the whole-turn help "un `move` vers une case de pêche"."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Every French catalog that holds Namiji texts: the game's own, its pictures'; of the bot's and
#: the web's, the keys that name it.
FILES = (
    ROOT / "bot" / "games" / "namiji" / "locale" / "fr.json",
    ROOT / "render" / "namiji" / "locale" / "fr.json",
    ROOT / "bot" / "catalog" / "fr.json",
    ROOT / "bot" / "web" / "locale" / "fr.json",
)
CASE = re.compile(r"\bcases?\b", re.IGNORECASE)
#: What a "case" may be in a text: the crate's (its cells by colour too), the score track's.
CRATE = re.compile(r"casier|piste de score|cases (bleues|orange|vertes)", re.IGNORECASE)
CRATE_AS_SPACE = re.compile(r"emplacements?\s+(du|de ton|de son|de votre)\s+casier", re.I)


def namiji_texts() -> dict[str, str]:
    """Every French text about Namiji, by file and key (notation in backticks left out)."""
    found: dict[str, str] = {}
    for path in FILES:
        own = "namiji" in path.parts
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            if key.startswith("_") or not isinstance(text, str):
                continue
            if own or "namiji" in key.lower():
                found[f"{path.relative_to(ROOT)}:{key}"] = re.sub(r"`[^`]*`", "X", text)
    return found


def test_a_route_space_is_an_emplacement_and_a_case_is_the_crates() -> None:
    texts = namiji_texts()
    assert len(texts) > 200  # the game's texts and its pictures' were read
    wrong = {k: t for k, t in texts.items() if CASE.search(t) and not CRATE.search(t)}
    assert wrong == {}
    assert {k: t for k, t in texts.items() if CRATE_AS_SPACE.search(t)} == {}


def test_the_panel_and_the_help_say_emplacement_for_where_a_boat_stops() -> None:
    texts = namiji_texts()
    game = "bot/games/namiji/locale/fr.json:namiji."
    for key in ("panel.about.space", "help.turn", "rules.notation", "panel.do.move"):
        assert "emplacement" in texts[game + key], key
