"""Cards (bot/cards.py): texts kept within Discord's V2 limits, buttons placed in rows."""

from __future__ import annotations

from discord import ui
from hypothesis import given
from hypothesis import strategies as st

from bot.cards import MAX_CARD_TEXT, buttons_of, card, fit_texts, gallery, rows, texts


@given(st.lists(st.text(max_size=3000), max_size=6), st.integers(min_value=10, max_value=5000))
def test_fitted_texts_hold_at_most_the_limit_and_keep_what_fits(
    parts: list[str], limit: int
) -> None:
    fitted = fit_texts(parts, limit)
    assert len(fitted) == len(parts)
    assert sum(map(len, fitted)) <= limit
    if sum(map(len, parts)) <= limit:
        assert fitted == parts
    for before, after in zip(parts, fitted, strict=True):
        assert after == before or after.endswith("…") or after == ""


def test_the_longest_text_is_cut_first() -> None:
    short, long = "a" * 100, "b" * 5000
    fitted = fit_texts([short, long])
    assert fitted[0] == short
    assert len(fitted[1]) == MAX_CARD_TEXT - 100 and fitted[1].endswith("…")


def test_buttons_move_from_a_classic_view_into_rows_of_five() -> None:
    view = ui.View(timeout=None)
    for i in range(7):
        view.add_item(ui.Button(label=str(i), custom_id=f"b{i}"))
    items = buttons_of(view)
    assert view.children == []
    made = rows(items)
    assert [[b.custom_id for b in row.children if isinstance(b, ui.Button)] for row in made] == [
        ["b0", "b1", "b2", "b3", "b4"],
        ["b5", "b6"],
    ]
    layout = card(*texts("Title", "", "Body"), gallery(("a.png", "the board")), *made)
    payload = layout.to_components()  # type: ignore[no-untyped-call]
    container = payload[0]
    assert container["type"] == 17
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 10, 12, 1, 1]  # two texts (the empty one left out), gallery, two rows
    assert container["components"][2]["items"][0]["media"]["url"] == "attachment://a.png"
