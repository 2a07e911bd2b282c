"""League names are text: what a name may not hold, and the key that makes two names the same.

A name may not hold control characters, format characters (bidirectional embeddings,
overrides and isolates, byte order marks, zero-width spaces and joiners, soft hyphens...) or
other default-ignorable code points (Hangul fillers, the combining grapheme joiner): they are
invisible, or reorder the text around them. Variation selectors are allowed (emoji need them).
Two names are the same league when their keys are equal: NFKC, case-folded, invisible
characters removed, spaces collapsed, so look-alikes of an existing league (the name in
full-width or mathematical bold letters, in capitals, with a zero-width space inside) are one
name.
"""

from __future__ import annotations

import unicodedata

#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15).
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Variation selectors: invisible, but part of how emoji are written.
VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
#: Control, format and surrogate code points.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def _within(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in ranges)


def invisible(char: str) -> bool:
    """Whether a character shows nothing by itself (control, format, default-ignorable)."""
    return unicodedata.category(char) in INVISIBLE_CATEGORIES or _within(char, DEFAULT_IGNORABLE)


def refused_character(name: str) -> str | None:
    """The first character a league name may not hold (after spaces are collapsed), if any."""
    for char in name:
        if invisible(char) and not _within(char, VARIATION_SELECTORS):
            return char
    return None


def code_point(char: str) -> str:
    """A character as users can look it up: ``U+202E``."""
    return f"U+{ord(char):04X}"


def collapse_spaces(name: str) -> str:
    """One line, single spaces, trimmed (tabs, newlines and Unicode spaces become spaces)."""
    return " ".join(name.split())


def cleaned(name: str) -> str:
    """The name without the characters a name may not hold, its spaces collapsed."""
    return collapse_spaces("".join(c for c in name if refused_character(c) is None))


def without_invisible(name: str) -> str:
    """The name with every invisible character removed and its spaces collapsed."""
    return collapse_spaces("".join(c for c in name if not invisible(c)))


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, invisible characters removed."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return without_invisible(folded)
