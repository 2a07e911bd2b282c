"""Make the bundled fallback fonts in render/assets/fonts/ from Debian's Noto packages.

Needs fontTools (build time only, not a dependency of the project) and the fonts of the Debian
packages ``fonts-noto-cjk`` and ``fonts-noto-core`` (``apt-get install`` them, or ``apt-get
download`` and ``dpkg -x`` them and pass ``--root``):

    .venv/bin/pip install fonttools
    .venv/bin/python tools/subset_fonts.py [--root /]

Kept glyphs (see docs/render.md): for CJK, Japanese kana, JIS X 0208 level 1 kanji, GB2312
level 1 hanzi, all Hangul syllables and jamo, CJK punctuation and full-width forms; for symbols,
the pictographs and symbols of Noto Sans Symbols 2 (the monochrome stand-ins for emoji). The
small Noto Sans fonts of ``render.fonts.SCRIPT_FILES`` are copied whole. Every run gives the same
glyphs for the same input fonts (only the modification time in the subsets' head table changes).
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from render import fonts

OUT = Path(__file__).resolve().parent.parent / "render" / "assets" / "fonts"
CJK_DIR = "usr/share/fonts/opentype/noto"
CORE_DIR = "usr/share/fonts/truetype/noto"

#: (source file, font number in a collection or None, output file)
CJK_FONTS = (
    ("NotoSansCJK-Regular.ttc", 0, fonts.CJK_REGULAR),
    ("NotoSansCJK-Bold.ttc", 0, fonts.CJK_BOLD),
)
SYMBOL_FONTS = (("NotoSansSymbols2-Regular.ttf", None, fonts.SYMBOLS),)

CJK_RANGES = (
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xAC00, 0xD7A3),  # Hangul syllables
    (0xFF00, 0xFFEF),  # half-width and full-width forms
)
SYMBOL_RANGES = (
    (0x2190, 0x21FF),  # arrows
    (0x2300, 0x23FF),  # miscellaneous technical
    (0x2460, 0x27BF),  # enclosed, boxes, shapes, miscellaneous symbols, dingbats
    (0x2B00, 0x2BFF),  # miscellaneous symbols and arrows
    (0x1F000, 0x1FAFF),  # game pieces, enclosed, pictographs, emoticons, transport, ...
)


def _codec_row_range(codec: str, lead: range, trail: range) -> Iterator[int]:
    """The characters of a double-byte code table (EUC rows ``lead`` x cells ``trail``)."""
    for hi in lead:
        for lo in trail:
            try:
                text = bytes((hi, lo)).decode(codec)
            except UnicodeDecodeError:
                continue
            yield from (ord(c) for c in text)


def cjk_codepoints() -> set[int]:
    """Kana, JIS level 1 kanji, GB2312 level 1 hanzi, Hangul, CJK punctuation."""
    points = {cp for lo, hi in CJK_RANGES for cp in range(lo, hi + 1)}
    points |= set(_codec_row_range("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF)))  # JIS L1
    points |= set(_codec_row_range("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF)))  # GB L1
    return points


def symbol_codepoints() -> set[int]:
    """Symbol and pictograph blocks (the monochrome emoji stand-ins)."""
    return {cp for lo, hi in SYMBOL_RANGES for cp in range(lo, hi + 1)}


def _load(path: Path, number: int | None) -> TTFont:
    if number is None:
        return TTFont(path)
    return TTCollection(path).fonts[number]


def write_subset(source: Path, number: int | None, dest: Path, points: Iterable[int]) -> None:
    """Keep only ``points`` (and what their layout needs) of one font and save it to ``dest``."""
    font = _load(source, number)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(points))
    subsetter.subset(font)
    font.save(dest)


def main() -> None:
    """Write every bundled fallback font from the installed (or unpacked) Debian fonts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/"), help="where the packages are")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    jobs = [(args.root / CJK_DIR / s, n, o, cjk_codepoints()) for s, n, o in CJK_FONTS]
    jobs += [(args.root / CORE_DIR / s, n, o, symbol_codepoints()) for s, n, o in SYMBOL_FONTS]
    for source, number, name, points in jobs:
        dest = args.out / name
        write_subset(source, number, dest, points)
        print(f"{dest}: {dest.stat().st_size:,} bytes")
    for name in fonts.SCRIPT_FILES:  # small: copied whole
        dest = args.out / name
        shutil.copyfile(args.root / CORE_DIR / name, dest)
        print(f"{dest}: {dest.stat().st_size:,} bytes (whole)")


if __name__ == "__main__":
    main()
