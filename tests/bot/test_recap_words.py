"""The recap's description says what its frames are (issue 38 play-through 46, finding 23):
"Toute la partie, tour par tour" described a GIF of a Yamatai game's rounds ("Manche 7"); a
short game's recap shows turns instead (engine.record.playback.recap_moments), so the
description names neither and says where the frames begin and end, as their captions do."""

from __future__ import annotations

import pytest

from bot.catalog import default_catalog
from render.recap import LOCALE  # noqa: F401  (the captions' texts, added on import)
from render.words import say


@pytest.mark.parametrize("language", ["en", "fr", "it", "pl"])
def test_the_recap_is_described_by_where_it_begins_and_ends(language: str) -> None:
    described = default_catalog().text("card.recap", language).lower()
    for frame in ("round", "turn"):  # "Manche 7", "Tour 5": one or the other, per game
        unit = say(f"recap.{frame}", language, number=0).replace("0", "").strip().lower()
        assert unit[:4] not in described, (frame, unit, described)
    start = say("recap.start", language).lower()  # "Mise en place", "Przygotowanie"
    assert start[:8] in described, (start, described)
