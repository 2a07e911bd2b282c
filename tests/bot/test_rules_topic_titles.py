"""Each rules topic of a game has its own title in every language: a reader choosing from the
list never meets two topics of the same name (Yamatai's "5. Specialists" (recruiting) and
"Specialists" (the cards) read alike; play-through 46, finding 15)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in (ROOT / "bot" / "games").iterdir() if (p / "locale").is_dir())


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "fr", "it", "pl"])
def test_no_two_topics_share_a_title(game: str, lang: str) -> None:
    """The topic titles of one game in one language are all different (numbers aside)."""
    texts = json.loads((ROOT / "bot" / "games" / game / "locale" / f"{lang}.json").read_text())
    prefix = f"{game}.rules.topic."
    titles = [v.split(". ", 1)[-1].casefold() for k, v in texts.items() if k.startswith(prefix)]
    assert titles, (game, lang)
    assert len(titles) == len(set(titles)), sorted(titles)
