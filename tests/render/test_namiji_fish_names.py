"""Namiji pictures name each fish as the game does, in each language's own agreement: Polish
"niebieska saba" (saba is feminine; the pictures said "niebieski saba"), French "filet de deux
sabas bleus" (the pictures said "deux saba bleu"): ``n.fish.<code>`` and ``n.fish.two.<code>``
are the game's ``namiji.fish.*``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.namiji.components import components
from render.words import say, speaking
from tests.render.test_namiji_card_names import _lines
from tests.render.test_namiji_words import LANGUAGES, _scenes

ROOT = Path(__file__).resolve().parents[2]


def _game_fish(lang: str) -> dict[str, str]:
    """The game's own fish names (``fish.bs``, ``fish.two.bs``) in ``lang``."""
    path = ROOT / "bot" / "games" / "namiji" / "locale" / f"{lang}.json"
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return {k.removeprefix("namiji."): v for k, v in texts.items() if k.startswith("namiji.fish.")}


def test_the_pictures_name_every_fish_as_the_game_does() -> None:
    """One fish and two of a kind, for each of the nine fish, in every language."""
    for lang in LANGUAGES:
        names = _game_fish(lang)
        with speaking(lang):
            for code in components().fish:
                assert say(f"n.fish.{code}") == names[f"fish.{code}"], (lang, code)
                assert say(f"n.fish.two.{code}") == names[f"fish.two.{code}"], (lang, code)


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_net_step_names_its_fish_with_their_agreement(lang: str) -> None:
    """The net step's lines say each net's fish in the game's words for two of them."""
    _, legal, _ = _scenes()["net"]
    fish = sorted({a.split()[1].split(":")[1][:2] for a in legal if a.startswith("net N:")})
    assert fish
    text = " ".join(_lines("net", lang))
    names = _game_fish(lang)
    for code in fish:
        assert names[f"fish.two.{code}"] in text, (code, text)
