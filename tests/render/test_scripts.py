"""Player names in any script: every character has a glyph (never an empty box); golden pictures.

Regenerate the pictures after an intended change:
UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_scripts.py
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from render import fonts
from render.fonts import FALLBACK_FILES, Style, chain, coverage, font, font_file
from render.shaping import visual
from render.text import SUBSTITUTE, draw_text, runs, text_length
from render.yamatai.highlight import Highlight
from render.yamatai.picture import render_board
from tests.render.games import highlight_from_json, highlight_to_json, play_turns
from tests.render.probes import decode
from tests.render.test_golden import GOLDEN, UPDATE, assert_matches

STYLES: tuple[Style, ...] = ("regular", "bold", "condensed")
NAMES = (
    "花子",
    "김민준",
    "محمد",
    "Дмитрий",
    "Γιώργος",
    "🐉 Ryu",
    "👍 Bo",
    "José Ñúñez",
    "やまだ",
    "สมชาย",
    "राम",
    "ሰላም",
)
WHITE = (255, 255, 255)
NOT_ANY_FONT = "\U000f0000"  # a private-use character no bundled font has
GOLDEN_NAMES = {
    "names-4p-turn12": ("花子", "김민준", "محمد", "🐉 Ryu"),
    "names-3p-final": ("Дмитрий", "Γιώργος", "山田花子山田花子山田花子山田花子"),
}


def _drawn(text: str, style: Style, size: int = 24) -> Image.Image:
    """``text`` drawn by draw_text in black on a white strip."""
    image = Image.new("RGB", (400, 60), WHITE)
    draw_text(ImageDraw.Draw(image), (10, 30), text, (0, 0, 0), size, style=style, anchor="lm")
    return image


def _box_of(font_name: str, size: int = 24) -> Image.Image:
    """The font's empty box (its .notdef glyph), drawn like ``_drawn`` would."""
    image = Image.new("RGB", (400, 60), WHITE)
    ImageDraw.Draw(image).text(
        (10, 30), NOT_ANY_FONT, fill=(0, 0, 0), font=font_file(font_name, size), anchor="lm"
    )
    return image


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_a_name_has_a_glyph_in_its_font(name: str, style: Style) -> None:
    files = chain(style)
    for chunk, index in runs(name, style):
        missing = [c for c in chunk if ord(c) not in coverage(files[index])]
        assert missing == [], f"{name!r}: {missing} not in {files[index]}"


def test_characters_no_font_has_become_the_substitute_and_invisible_ones_vanish() -> None:
    assert ord(SUBSTITUTE) in coverage(chain("bold")[0])
    assert runs("🐉 Ryu", "bold") == ((f"{SUBSTITUTE} Ryu", 0),)
    assert runs(f"Bo{NOT_ANY_FONT}", "regular") == ((f"Bo{SUBSTITUTE}", 0),)
    assert runs("Bo\U000e0067", "bold") == (("Bo", 0),)  # a tag character (format, no glyph)


def _fonts_of(name: str, style: Style = "bold") -> list[tuple[str, str]]:
    """Each run of a name with the file of its font."""
    return [(chunk, chain(style)[index]) for chunk, index in runs(name, style)]


def test_scripts_fall_back_to_the_right_font() -> None:
    main, cjk, *scripts, symbols = chain("bold")
    assert (cjk, symbols) == ("NotoSansCJKjp-Bold-subset.otf", FALLBACK_FILES["bold"][-1])
    assert _fonts_of("花子") == [("花子", cjk)]
    assert _fonts_of("김민준") == [("김민준", cjk)]
    assert _fonts_of("👍 Bo") == [("👍", symbols), (" Bo", main)]
    assert _fonts_of("สมชาย") == [("สมชาย", "NotoSansThai-Regular.ttf")]
    assert _fonts_of("राम") == [("राम", "NotoSansDevanagari-Regular.ttf")]
    assert "NotoSansDevanagari-Regular.ttf" in scripts
    for name in ("Дмитрий", "Γιώργος", "محمد", "José Ñúñez"):  # DejaVu has these scripts
        assert runs(name, "bold") == ((name, 0),)


@pytest.mark.parametrize(
    "name", ["花子", "김민준", "محمد", "Дмитрий", "Γιώργος", "👍", "สมชาย", "राम", "ሰላም"]
)
def test_no_character_is_drawn_as_an_empty_box(name: str) -> None:
    for char in name:
        (_, index), *_ = runs(char, "bold")
        drawn = _drawn(char, "bold")
        assert ImageChops.invert(drawn).getbbox() is not None, f"{char!r} left no ink"
        box = _box_of(chain("bold")[index])
        assert ImageChops.difference(drawn, box).getbbox() is not None, f"{char!r} is a box"


def test_measuring_matches_drawing_and_latin_costs_nothing_extra() -> None:
    assert text_length("Ann", 24) == font("bold", 24).getlength("Ann")
    assert runs("Ann", "bold") == (("Ann", 0),)
    long = "山田花子" * 5
    assert text_length(long, 24) == pytest.approx(20 * text_length("山", 24))
    inked = ImageChops.invert(_drawn("山田花子", "bold")).getbbox()
    assert inked is not None
    assert inked[2] - 10 == pytest.approx(text_length("山田花子", 24), abs=3)


def _scenario(name: str) -> tuple[dict[str, Any], Highlight]:
    names = GOLDEN_NAMES[name]
    match, hl = play_turns(len(names), 11, 12 if "turn" in name else None, names)
    return match.view(None), hl


@pytest.mark.skipif(not features.check("raqm"), reason="Arabic is shaped only with libraqm")
@pytest.mark.parametrize("name", sorted(GOLDEN_NAMES))
def test_golden_names_in_many_scripts(name: str) -> None:
    view_path = GOLDEN / f"{name}.json"
    image_path = GOLDEN / f"{name}.png"
    if UPDATE:
        view, hl = _scenario(name)
        data = {"view": view, "highlight": highlight_to_json(hl)}
        text = json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
        view_path.write_text(text, encoding="utf-8")
    data = json.loads(view_path.read_text(encoding="utf-8"))
    view, hl = data["view"], highlight_from_json(data["highlight"])
    assert [p["name"] for p in view["players"]] == list(GOLDEN_NAMES[name])
    actual = decode(render_board(view, highlight=hl)).reduce(2)
    if UPDATE:
        actual.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            image_path, optimize=True
        )
    assert_matches(image_path, actual)


def test_fallback_fonts_are_bundled_with_their_licence() -> None:
    folder = GOLDEN.parents[2] / "render" / "assets" / "fonts"
    licence = (folder / "LICENSE-Noto.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    names = {name for files in FALLBACK_FILES.values() for name in files}
    for name in names:
        assert name in licence
        assert (folder / name).read_bytes()[:4] in (b"OTTO", b"\x00\x01\x00\x00")
    total = sum((folder / name).stat().st_size for name in names)
    assert total < 15_000_000


def _clear_text_caches() -> None:
    font_file.cache_clear()
    runs.cache_clear()


@pytest.fixture
def basic_layout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Render as a Pillow without libraqm would (fonts and runs made afresh, then restored)."""
    with monkeypatch.context() as patch:
        patch.setattr(fonts, "LAYOUT", ImageFont.Layout.BASIC)
        _clear_text_caches()
        yield
    _clear_text_caches()


def test_shaping_picks_joining_forms_ligatures_and_drawing_order() -> None:
    dejavu = coverage(chain("bold")[0])
    assert visual("محمد", dejavu) == "\ufeaa\ufee4\ufea4\ufee3"  # final, medial, medial, initial
    assert visual("سلام", dejavu) == "\ufee1\ufefc\ufeb3"  # lam-alef ligature, final form
    assert visual("لا", dejavu) == "\ufefb"
    assert visual("عَلِي", dejavu) == "\ufef2\ufee0\u0650\ufecb\u064e"  # marks stay after
    assert visual("שלום", dejavu) == "םולש"
    assert visual("Ali محمد", dejavu) == "Ali \ufeaa\ufee4\ufea4\ufee3"
    assert visual("Ann", dejavu) == "Ann"
    assert visual("محمد", frozenset()) == "دمحم"  # forms the font lacks: letters stay as they are


@pytest.mark.parametrize("name", ["محمد", "سلام عليكم", "עמית"])
def test_without_libraqm_right_to_left_names_look_the_same(name: str, basic_layout: None) -> None:
    shaped = _drawn(name, "bold")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fonts, "LAYOUT", ImageFont.Layout.RAQM)
        _clear_text_caches()
        if not features.check("raqm"):
            pytest.skip("no libraqm to compare with")
        reference = _drawn(name, "bold")
    _clear_text_caches()
    difference = ImageChops.difference(shaped, reference).convert("L").histogram()
    assert sum(difference[48:]) < 80  # a pixel column of spacing at most, same letters
