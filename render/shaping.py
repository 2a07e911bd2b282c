"""Right-to-left text when Pillow has no libraqm: Arabic joining forms and drawing order.

With libraqm (Pillow's wheels use it when the system has FriBiDi), Pillow shapes Arabic and orders
right-to-left text itself and this module is not used. Without it, Pillow draws characters one by
one from left to right, so ``visual`` turns logical text into what that draws correctly: each
Arabic letter becomes its contextual presentation form (isolated, initial, medial or final; lam
with alef becomes the ligature) and right-to-left text is reversed, keeping marks after their
letter. The forms come from Unicode's own decompositions (``unicodedata``), not a hand table.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Set
from functools import cache
from itertools import groupby

FORMS = ("isolated", "final", "initial", "medial")
RTL = frozenset({"R", "AL"})
LAM = "\u0644"
TATWEEL = "\u0640"
_PRESENTATION = (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00))

Forms = dict[str, str]  # form name -> presentation character

__all__ = ["shape", "visual"]


@cache
def _tables() -> tuple[dict[str, Forms], dict[tuple[str, str], Forms]]:
    """Presentation forms of each letter, and of each lam-alef ligature."""
    letters: dict[str, Forms] = {}
    ligatures: dict[tuple[str, str], Forms] = {}
    for code in _PRESENTATION:
        tag, _, rest = unicodedata.decomposition(chr(code)).partition(" ")
        form = tag.strip("<>")
        if form not in FORMS:
            continue
        bases = tuple(chr(int(part, 16)) for part in rest.split())
        if len(bases) == 1:
            letters.setdefault(bases[0], {}).setdefault(form, chr(code))
        elif len(bases) == 2 and bases[0] == LAM:
            ligatures.setdefault((bases[0], bases[1]), {}).setdefault(form, chr(code))
    return letters, ligatures


def _joins_next(char: str | None) -> bool:
    forms = _tables()[0].get(char or "", {})
    return char == TATWEEL or "initial" in forms or "medial" in forms


def _joins_previous(char: str | None) -> bool:
    return char == TATWEEL or "final" in _tables()[0].get(char or "", {})


def _pick(forms: Forms, before: bool, after: bool, covered: Set[int], base: str) -> str:
    """The form for a letter joined to the letter before and/or after, if the font has it."""
    name = {(True, True): "medial", (True, False): "final", (False, True): "initial"}.get(
        (before, after), "isolated"
    )
    chosen = forms.get(name) or forms.get("isolated")
    return chosen if chosen is not None and ord(chosen) in covered else base


def shape(text: str, covered: Set[int]) -> str:
    """Arabic letters replaced by their joining forms (only forms in ``covered``)."""
    letters, ligatures = _tables()
    chars = list(text)
    solid = [i for i, c in enumerate(chars) if unicodedata.category(c) != "Mn"]
    out = list(chars)
    skip: set[int] = set()
    for k, i in enumerate(solid):
        if i in skip:
            continue
        char = chars[i]
        before = k > 0 and _joins_next(chars[solid[k - 1]]) and _joins_previous(char)
        nxt = chars[solid[k + 1]] if k + 1 < len(solid) else None
        ligature = _pick(ligatures.get((char, nxt or ""), {}), before, False, covered, "")
        if ligature:
            out[i], out[solid[k + 1]] = ligature, ""
            skip.add(solid[k + 1])
            continue
        after = _joins_next(char) and _joins_previous(nxt)
        if char in letters:
            out[i] = _pick(letters[char], before, after, covered, char)
    return "".join(out)


def _reversed(text: str) -> str:
    """Characters in reverse order, each combining mark staying after its letter."""
    clusters: list[str] = []
    for char in text:
        if clusters and unicodedata.category(char) == "Mn":
            clusters[-1] += char
        else:
            clusters.append(char)
    return "".join(reversed(clusters))


def visual(text: str, covered: Set[int]) -> str:
    """``text`` in left-to-right drawing order, Arabic shaped with forms from ``covered``."""
    if not any(unicodedata.bidirectional(c) in RTL for c in text):
        return text
    shaped = shape(text, covered)
    if not any(unicodedata.bidirectional(c) == "L" for c in shaped):
        return _reversed(shaped)
    # Mixed with left-to-right text: each right-to-left word is reversed where it stands.
    parts = groupby(shaped, key=lambda c: unicodedata.bidirectional(c) in RTL | {"NSM"})
    return "".join(_reversed("".join(g)) if rtl else "".join(g) for rtl, g in parts)
