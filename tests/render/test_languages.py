"""The picture's own texts: every id in every shipped language, same placeholders, plural forms."""

from __future__ import annotations

import json
import re

import pytest
from PIL import Image

from render import TEXTS, render_board
from render.extras import Extras
from render.text import measuring
from render.words import DIRECTORY, LANGUAGES, base_id, placeholders, plural_categories, say, table
from render.yamatai.picture import render_board as render_yamatai
from render.yamatai.signs import boat_letters, culture_letters
from tests.render.games import highlight_from_json
from tests.render.probes import decode
from tests.render.test_golden import GOLDEN, UPDATE, assert_matches
from tests.render.test_phone import _clear_caches

SHIPPED = ("en", "fr", "it", "pl")
"""The picture's languages, listed here so that a missing table fails rather than being skipped."""


def test_every_shipped_language_has_a_table() -> None:
    """The four languages of the rulebooks, each with its table, and no other table: the shared
    texts' and each shipped game's (in its own folder)."""
    assert LANGUAGES == SHIPPED
    shipped_games = [game for game in TEXTS if game in ("yamatai", "namiji")]
    assert len(shipped_games) == 2
    for folder in (DIRECTORY, *(TEXTS[game] for game in shipped_games)):
        names = sorted(f.name for f in folder.iterdir() if f.name.endswith(".json"))
        assert names == sorted(f"{lang}.json" for lang in SHIPPED), folder
    for lang in SHIPPED:
        assert table(lang), lang
        assert any(k.startswith("y.") for k in table(lang))
        assert any(k.startswith("n.") for k in table(lang))


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
        png = render_yamatai(data["view"], highlight=hl, extras=Extras(language=lang))
    else:
        png = render_board(data["view"], events=data["events"], extras=Extras(language=lang))
    actual = decode(png).reduce(2)
    image_path = GOLDEN / f"{lang}-{name}.png"
    if UPDATE:
        actual.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            image_path, optimize=True
        )
    assert_matches(image_path, actual)


SAME_IN_EVERY_LANGUAGE = {
    "PP",
    "TORII",
    "torii",
    "Torii",
    "B07",
    "C4",
    "sake",
    "fugu",
    "saba",
    "tai",
    "Scores",
    "Culture",
    "panorama",
    "panoramas",
    "section",
    "total",
    "Total",
    "Spec.",
    "spec.",
    "bonus",
    "draft",
    "port",
    "Port",
    # Namiji's dishes (n.meal.*), Japanese in every language
    "onigiri",
    "miso",
    "soba",
    "tempura",
    "yakitori",
    "maki",
    "sashimi",
    "unagi",
}
"""Names and abbreviations that a non-English table may share with English, as words."""
ENGLISH_WORDS = {
    "the", "and", "or", "of", "on", "in", "to", "for", "with", "your", "you", "any", "one", "two",
    "boat", "boats", "round", "turn", "coins", "face", "down", "up", "play", "plays", "wins",
    "win", "game", "over", "points", "left", "took", "placed", "moved", "built", "taken", "deck",
    "fleet", "fleets", "building", "buildings", "specialist", "specialists", "island", "islands",
    "spot", "spots", "tile", "tiles", "token", "tokens", "gold", "wood", "stone", "clay",
    "bamboo", "rice", "tea", "silk", "pottery", "pearl", "harbor", "reserve", "sacred", "ground",
    "fish", "net", "nets", "trap", "crab", "shrimp", "offering", "offerings", "pontoon", "rock",
    "crate", "line", "lines", "card", "cards", "move", "take", "keep", "none", "last", "once",
    "extra", "more", "each", "from", "board", "winner", "end", "swap", "look", "slide", "remove",
}  # fmt: skip
"""Words that would only be there if an English text was left untranslated."""


ALSO_THAT_LANGUAGE = {
    "fr": {"face", "or", "point", "points", "pt", "pts", "orange"},
    "it": {"in"},
    "pl": set(),
}
"""Words spelt as in English that are that language's own ("face cachée", "or", "in vacanza")."""


def _words(text: str) -> set[str]:
    """The words of a text, placeholders and numbers left out."""
    return set(re.findall(r"[^\W\d_]+", re.sub(r"\{\w+\}", " ", text)))


@pytest.mark.parametrize("lang", [lang for lang in SHIPPED if lang != "en"])
def test_no_english_left(lang: str) -> None:
    """No text holds an English word other than the listed names and abbreviations, and no
    text equals its English text unless it is only such names."""
    english = table("en")
    allowed = {w.rstrip(".").lower() for w in SAME_IN_EVERY_LANGUAGE | ALSO_THAT_LANGUAGE[lang]}
    for key, text in table(lang).items():
        words = {w for w in _words(text) if w.lower() not in allowed}
        assert not {w for w in words if w.lower() in ENGLISH_WORDS}, (lang, key, text)
        if text == english.get(key) and not key.startswith(LETTERS):
            assert not words, (lang, key, text, words)


LETTERS = "y.letter."
"""A piece's letter: one capital, in some languages the same as in English (R for rice)."""


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_pieces_letters_are_the_language_s_and_no_two_share_one(lang: str) -> None:
    """Issue 21 item 7: boat letters were English in every language (G for bamboo, W for
    wood); each language names its boats and culture tokens with its own capitals, told
    apart (a boat's letter is never a culture's)."""
    boats, cultures = boat_letters(lang), culture_letters(lang)
    letters = [*boats.values(), *cultures.values()]
    assert all(len(letter) == 1 and letter.isupper() for letter in letters), letters
    assert len(set(letters)) == len(letters) == 11, (lang, letters)
    if lang != "en":
        assert boats != boat_letters("en")
        assert not set(boats.values()) & {"W", "Y"}  # wood and gold (yellow) in English


def test_a_french_picture_draws_the_french_boat_letters() -> None:
    data = json.loads((GOLDEN / "4p-seed7-turn20.json").read_text(encoding="utf-8"))
    hl = highlight_from_json(data["highlight"])
    _clear_caches()
    render_yamatai(data["view"], highlight=hl)  # the English layers (the palette's) are cached
    with measuring() as drawn:  # then what the French picture draws of its own
        render_yamatai(data["view"], highlight=hl, extras=Extras(language="fr"))
    single = {d.text for d in drawn if len(d.text) == 1 and d.text.isupper()}
    assert {"V", "B", "P", "A", "O"} <= single, single  # vert (bambou), bois, pierre, argile, or
    assert not single & {"W", "Y"}, single


@pytest.mark.parametrize("lang", SHIPPED)
def test_specialist_and_fleet_powers_in_the_language(lang: str) -> None:
    """The specialists' powers are drawn whole in the picture's language, the fleets' full
    powers on the turn picture at the fleet step."""
    from render import render_focus
    from render.text import recording
    from tests.render.games import play_turns

    match, _ = play_turns(4, 7, 20)
    view = match.view(None)
    with recording() as drawn:
        render_board(view, extras=Extras(language=lang))
    board = " ".join(text for text, _ in drawn)
    for card in view["specialist_track"]:
        if card is not None:
            for word in say(f"y.specialist.{card['name']}", lang).split():
                assert word in board, (card["name"], word)
    seat = match.current_seat
    assert match.view(seat)["turn"]["step"] == "fleet"
    with recording() as drawn:
        render_focus(match.view(seat), legal=match.legal_actions(), extras=Extras(language=lang))
    focus = " ".join(text for text, _ in drawn)
    for entry in view["fleet_track"]:
        if entry.get("face_up") and entry.get("fleet"):
            assert say(f"y.fleet.{entry['fleet']}", lang).split()[-1] in focus, entry["fleet"]
