"""A button's label fits Discord's 80 characters (the play-through in Polish: the turn panel's
one-choice button "Zbierz żetony kultury: ceramika z wyspy C3, ryż z wyspy C4, ..." was longer,
Discord refused the panel and the player read "something went wrong")."""

from __future__ import annotations

from bot.views.base import button

LONG = (
    "Zbierz żetony kultury: ceramika z wyspy C3, ryż z wyspy C4, sake z wyspy C5 i perła z wyspy D1"
)


def test_a_long_label_is_cut_to_80_with_an_ellipsis() -> None:
    made = button("himiko:panel:do:1:2:abc", LONG)
    assert made.label is not None and len(made.label) == 80
    assert made.label.endswith("…") and LONG.startswith(made.label[:-1])


def test_a_label_that_fits_is_kept_whole() -> None:
    assert button("himiko:panel:do:1:2:abc", LONG[:80]).label == LONG[:80]
