"""The picture's own texts: every id in every shipped language, same placeholders, plural forms."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from render import render_board
from render.words import DIRECTORY, LANGUAGES, base_id, placeholders, plural_categories, say, table
from render.yamatai.picture import render_board as render_yamatai
from tests.render.games import highlight_from_json
from tests.render.probes import decode
from tests.render.test_golden import GOLDEN, UPDATE, assert_matches

SHIPPED = ("en", "fr", "it", "pl")
"""The picture's languages, listed here so that a missing table fails rather than being skipped."""


def test_every_shipped_language_has_a_table() -> None:
    """The four languages of the rulebooks, each with its table, and no other table."""
    assert LANGUAGES == SHIPPED
    assert sorted(p.stem for p in DIRECTORY.glob("*.json")) == sorted(SHIPPED)
    for lang in SHIPPED:
        assert table(lang), lang


@pytest.mark.parametrize("lang", [lang for lang in SHIPPED if lang != "en"])
def test_every_id_with_the_same_placeholders_and_plural_forms(lang: str) -> None:
    """Each English id exists (whole or as the language's plural forms) with its placeholders."""
    english, texts = table("en"), table(lang)
    ids = {base_id(k) for k in english}
    assert ids == {base_id(k) for k in texts}
    for key in ids:
        wanted = set().union(*(placeholders(v) for k, v in english.items() if base_id(k) == key))
        forms = {k: v for k, v in texts.items() if base_id(k) == key}
        for form, text in forms.items():
            assert placeholders(text) == wanted, (lang, form)
        if key not in texts:  # split by number: every category of the language
            have = {k.rpartition("_")[2] for k in forms}
            assert plural_categories(lang) <= have, (lang, key, have)


def test_polish_plural_forms_by_cldr_category() -> None:
    """Babel picks Polish one/few/many."""
    assert say("y.panel.face_down", "pl", count=1) == "1 zakryty"
    assert say("y.panel.face_down", "pl", count=3) == "3 zakryte"
    assert say("y.panel.face_down", "pl", count=5) == "5 zakrytych"
    assert say("y.panel.face_down", "pl", count=22) == "22 zakryte"


LANGUAGE_GOLDEN = (
    ("fr", "4p-seed7-turn20"),
    ("pl", "3p-seed5-final"),
    ("fr", "namiji-2p-seed3-final"),
    ("pl", "namiji-4p-seed7-seat"),
)
"""Golden pictures in French and Polish, drawn from the English golden scenarios' stored views."""


@pytest.mark.parametrize(("lang", "name"), LANGUAGE_GOLDEN)
def test_golden_in_another_language(lang: str, name: str) -> None:
    """The stored view drawn in ``lang`` matches its golden picture (rulebook terms, accents
    and Polish letters, nothing past its box); regenerate with UPDATE_GOLDEN=1."""
    data = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    if "highlight" in data:
        hl = highlight_from_json(data["highlight"])
        png = render_yamatai(data["view"], highlight=hl, language=lang)
    else:
        png = render_board(data["view"], events=data["events"], language=lang)
    actual = decode(png).reduce(2)
    image_path = GOLDEN / f"{lang}-{name}.png"
    if UPDATE:
        actual.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            image_path, optimize=True
        )
    assert_matches(image_path, actual)
