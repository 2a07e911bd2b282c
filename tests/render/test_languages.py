"""The picture's own texts: every id in every shipped language, same placeholders, plural forms."""

from __future__ import annotations

import pytest

from render.words import DIRECTORY, LANGUAGES, base_id, placeholders, plural_categories, say, table

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
