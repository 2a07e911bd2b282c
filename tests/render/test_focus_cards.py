"""Yamatai's turn picture at a step choosing a card (a specialist to recruit, a building tile to
reserve) shows the whole row: every card to choose whole, and no text cut at the crop's edge
(issue 38 item 10: 4 of 5 recruitable specialists shown, and a stray "S" of a cut title)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

from engine.yamatai.players import greedy_player
from engine.yamatai.view import YamataiView, yamatai_view
from render.text import measuring
from render.yamatai.focus import legal_targets, shown_box
from render.yamatai.layout import Rect, layout
from render.yamatai.picture import render_image
from render.yamatai.tracks import card_slots
from tests.render.games import new_match
from tests.render.test_phone import _clear_caches

Box = tuple[float, float, float, float]


@cache
def _card_steps(players: int, seed: int) -> tuple[tuple[YamataiView, tuple[str, ...]], ...]:
    """Every step of a greedy game whose legal actions recruit a specialist or reserve a tile
    (and place no boat: the map would be shown), with the legal actions."""
    match = new_match(players, seed)
    found = []
    while (seat := match.current_seat) is not None:
        legal = tuple(match.legal_actions())
        targets = legal_targets(legal)
        if (targets.specialists or targets.tiles) and not (targets.spots or targets.islands):
            found.append((yamatai_view(match.view(seat)), legal))
        match.play(greedy_player(match.view(seat), seed * 31 + seat), seat=seat)
    return tuple(found)


def _cases() -> Iterator[tuple[int, int]]:
    for players in (2, 3, 4):
        for seed in (1, 2):
            yield players, seed


def _inside(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _row(
    view: YamataiView, legal: tuple[str, ...]
) -> tuple[Rect, list[tuple[str, Rect]], list[Rect]]:
    """The row of cards the step chooses from, the cards to choose with their slots, and all
    its slots."""
    lay = layout(str(view.get("board", "default")), len(view["players"]))
    targets = legal_targets(legal)
    if targets.tiles:
        row = [str(t["id"]) for t in view.get("building_row", [])]
        wanted, area = {t.upper() for t in targets.tiles}, lay.buildings
    else:
        row = [str(c["name"]) if c else "" for c in view.get("specialist_track", [])]
        wanted, area = {s.upper() for s in targets.specialists}, lay.specialists
    slots = card_slots(area, len(row))
    chosen = [
        (card, slot) for card, slot in zip(row, slots, strict=False) if card.upper() in wanted
    ]
    return area, chosen, slots


@pytest.mark.parametrize(("players", "seed"), list(_cases()))
def test_every_card_to_choose_is_shown_whole_and_no_text_is_cut(players: int, seed: int) -> None:
    """At each step choosing a card, the turn picture shows each card to choose whole, and
    every text of the row (card names, powers, the row's title) wholly or not at all."""
    steps = _card_steps(players, seed)
    assert steps, "the game never chose a card alone"
    _clear_caches()
    with measuring() as fixed:  # the static layer's texts (the rows' titles), drawn afresh
        render_image(steps[0][0])
    recruits = 0
    for view, legal in steps:
        area, cards, slots = _row(view, legal)
        box = shown_box(view, legal=legal)
        assert box is not None
        for card, slot in cards:
            assert _inside(slot.box, box), f"{card} {slot.box} not whole in {box}"
        for slot in slots:  # an empty place or another card: whole or not at all
            assert _inside(slot.box, box) or _apart(slot.box, box), f"{slot.box} cut by {box}"
        with measuring() as drawn:
            render_image(view, region=area.box)
        for text in [*fixed, *drawn]:
            middle = ((text.box[0] + text.box[2]) / 2, (text.box[1] + text.box[3]) / 2)
            if _inside((*middle, *middle), area.box):
                assert _inside(text.box, box) or _apart(text.box, box), f"{text.text!r} cut"
        recruits += area == layout("default", players).specialists
    assert recruits, "no step recruited a specialist"
