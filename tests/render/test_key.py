"""Yamatai's key to the pieces holds every entry on 2-, 3- and 4-player boards in every
language, and a name too long for its place ends with an ellipsis (issue 38 item 11: building,
trading post, torii, palace and "changed in the last turn" were lost at 3 and 4 players)."""

from __future__ import annotations

import pytest
from PIL import Image

from render import render_board
from render.extras import Extras
from render.text import fit_name_first, fit_text, measuring, text_length
from render.theme import get_theme
from render.words import say
from render.yamatai.layout import Rect, layout
from render.yamatai.legend import draw_legend, key_layout
from render.yamatai.signs import boat_letters, culture_letters
from tests.render.games import play_turns
from tests.render.test_phone import _clear_caches

LANGUAGES = ("en", "fr", "it", "pl")
KEY_WORDS = (
    "building",
    "trading_post",
    "torii",
    "palace",
    "changed",
    "island",
    "player",
    "spot",
    "tile",
    "entry",
    "sacred",
    "mountain",
)
SLACK = 1.0

Box = tuple[float, float, float, float]


def _names(language: str) -> list[str]:
    """Every name the key must show: boats, culture tokens, then the map's signs."""
    return [
        *(say(f"y.boat.{boat}", language) for boat in boat_letters(language)),
        *(say(f"y.culture.{culture}", language) for culture in culture_letters(language)),
        *(say(f"y.key.{word}", language) for word in KEY_WORDS),
    ]


def _inside(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0] - SLACK
        and inner[1] >= outer[1] - SLACK
        and inner[2] <= outer[2] + SLACK
        and inner[3] <= outer[3] + SLACK
    )


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_key_entry_is_drawn_inside_the_key(players: int, language: str) -> None:
    """The board picture draws each of the key's names, whole, inside the key's box."""
    match, _ = play_turns(players, 7, 8)
    rect = layout("default", players).legend
    assert rect is not None
    _clear_caches()  # the key is in the static layer: draw it afresh to measure it
    with measuring() as drawn:
        render_board(match.view(None), extras=Extras(language=language))
    in_key = [d for d in drawn if _overlap(d.box, rect.box)]
    missing = [n for n in _names(language) if not any(d.text == n for d in in_key)]
    assert not missing, f"{missing} not in the {players}-player key"
    assert all(_inside(d.box, rect.box) for d in in_key)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_key_s_signs_and_names_never_overlap(players: int, language: str) -> None:
    """Laid out, no entry's sign or name touches another's, and all lie in the key's box."""
    rect = layout("default", players).legend
    assert rect is not None
    key = key_layout(rect, get_theme("default"), language)
    assert [e.name for e in key.entries] == list(key.names)
    assert sorted(key.names) == sorted(_names(language))
    boxes = [(i, box) for i, e in enumerate(key.entries) for box in (e.sign_box, e.text_box)]
    for i, box in boxes:
        assert _inside(box, rect.box)
        for j, other in boxes:
            assert i == j or not _overlap(box, other), (key.entries[i].name, key.entries[j].name)


def test_a_name_too_long_for_the_key_ends_with_an_ellipsis() -> None:
    """In a key too narrow for a name, the name is cut to end with "…" and stays inside."""
    rect = Rect(0, 0, 240, 700)
    canvas = Image.new("RGB", (rect.width, rect.height))
    with measuring() as drawn:
        draw_legend(canvas, rect, get_theme("default"), "it")
    texts = {d.text: d for d in drawn}
    long = say("y.key.changed", "it")  # "cambiato nell'ultimo turno"
    assert long not in texts
    cut = [t for t in texts if t.endswith("…") and long.startswith(t[:-1])]
    assert cut, sorted(texts)
    assert all(_inside(d.box, rect.box) for d in drawn)


def test_fit_text_cuts_with_an_ellipsis_only_when_needed() -> None:
    """The one cut: a text that fits is whole; else it ends with "…" and fits; never below
    its first letter; in any script."""
    name = "Bartholomew Fitzgerald-Worthing"
    assert fit_text(name, 24, 2000) == name
    for width in (300.0, 150.0, 60.0):
        cut = fit_text(name, 24, width)
        assert cut.endswith("…") and name.startswith(cut[:-1].rstrip())
        assert text_length(cut, 24) <= width
    assert fit_text(name, 24, 1) == "B…"
    kanji = fit_text("山田花子さんの長い名前です", 20, 90, "regular")
    assert kanji.endswith("…") and text_length(kanji, 20, "regular") <= 90


def test_a_name_too_long_gives_up_its_bracketed_aside_before_its_letters() -> None:
    """ "Computer 1 (normale)" where it does not fit is "Computer 1", not "Computer 1 (nor…"
    (Italian play-through PY 1: the winner's name was cut on the final board); shorter still,
    the name loses letters as any name; a text that fits keeps its aside."""
    name = "Computer 1 (normale)"
    assert fit_text(name, 24, 2000) == name
    short = text_length("Computer 1", 24)
    assert fit_text(name, 24, short + 1) == "Computer 1"
    cut = fit_text(name, 24, short - 1)
    assert cut.endswith("…") and "(" not in cut and "Computer 1".startswith(cut[:-1].rstrip())
    line = fit_name_first(lambda who, how: f"vince {who} con {how}", name, "36 PP", 24, 10_000)
    assert line == "vince Computer 1 (normale) con 36 PP"
    whole = text_length("vince Computer 1 con 36 PP", 24)
    line = fit_name_first(lambda who, how: f"vince {who} con {how}", name, "36 PP", 24, whole)
    assert line == "vince Computer 1 con 36 PP"  # the level before any of the detail
