"""Phone first: the smallest text of both board pictures, and the turn ("focus") picture."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from engine import games
from engine.games import Match
from engine.namiji.view import namiji_view
from engine.yamatai.view import yamatai_view
from render import render_board, render_focus
from render.extras import Extras
from render.focus import SMALL
from render.focus import WIDTH as FOCUS_WIDTH
from render.namiji import focus as namiji_focus
from render.text import measuring, recording
from render.words import say, speaking
from render.yamatai import focus as yamatai_focus
from render.yamatai.signs import boat_letters, tile_words
from tests.render.games import play_turns

LONG = "Abcdefghijklmnopqrstuvwxyz012345"  # 32 letters, the longest name a seat takes
MIN_BOARD_TEXT = 14  # pixels, on the 1600 px board picture
PHONE = 400  # pixels: how wide Discord shows a picture on a phone


def _clear_caches() -> None:
    """Forget every cached sprite and static layer, so that all text is drawn again."""
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in vars(module).values():
                if hasattr(value, "cache_clear") and str(
                    getattr(value, "__module__", "")
                ).startswith("render"):
                    value.cache_clear()


def _texts(
    view: dict[str, Any], stand_ins: dict[int, str] | None = None
) -> list[tuple[str, float]]:
    _clear_caches()
    with recording() as drawn:
        render_board(view, extras=Extras(stand_ins=tuple((stand_ins or {}).items())))
    return drawn


def _namiji(players: int, actions: int | None) -> Match:
    match = games.new("namiji", [LONG, "Bo", "محمد", "Di", "Ed"][:players], seed=3)
    computer = games.computer_player("namiji")
    done = 0
    while (seat := match.current_seat) is not None and (actions is None or done < actions):
        match.play(computer(match.view(seat), done), seat=seat)
        done += 1
    return match


def _board_views() -> Iterator[tuple[str, dict[str, Any]]]:
    names = (LONG, "Bo", "محمد", "Di")
    for players, turns in ((2, 8), (3, None), (4, 20), (4, None)):
        match, _ = play_turns(players, 5, turns, names)
        yield f"yamatai-{players}p-{turns}", match.view(None)
    for players, actions in ((2, None), (3, 80), (5, 60)):
        yield f"namiji-{players}p-{actions}", _namiji(players, actions).view(None)


@pytest.mark.parametrize(("name", "view"), list(_board_views()), ids=lambda v: str(v)[:24])
def test_no_board_text_under_14px(name: str, view: dict[str, Any]) -> None:
    """Every text drawn on the board picture, of every kind, is at least 14 px at 1600 px."""
    drawn = _texts(view, {1: "vacation"} if name.startswith("yamatai") else {})
    assert len(drawn) > 50, name  # the recorder sees the picture's text
    small = sorted({(size, text) for text, size in drawn if size < MIN_BOARD_TEXT})
    assert not small, f"{name}: text under {MIN_BOARD_TEXT} px: {small[:8]}"


def test_recorder_sees_sprite_and_static_text() -> None:
    """Boat letters (sprites), island labels (static layer) and panel text are all recorded."""
    match, _ = play_turns(4, 7, 20)
    texts = {text for text, _ in _texts(match.view(None))}
    assert {"G", "W", "A1", "G4", "Culture"} <= texts


def test_specialist_powers_are_never_cut() -> None:
    """Every word of every specialist on the track is drawn (wrapped, not shortened)."""
    match, _ = play_turns(4, 7, 20)
    view = match.view(None)
    drawn = " ".join(text for text, _ in _texts(view))
    for card in view["specialist_track"]:
        if card is not None:
            for word in str(card["power"]).split():
                assert word in drawn, (card["name"], word)


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def _yamatai_at(step: str) -> tuple[Match, list[dict[str, Any]]]:
    """A 3-player greedy game at the first turn past the first round that reaches ``step``."""
    from engine.yamatai.players import greedy_player

    match = games.new("yamatai", ["Ann", LONG, "Cy"], seed=5)
    events: list[dict[str, Any]] = []
    for n in range(400):
        seat = match.current_seat
        assert seat is not None
        after_trade = match.view(seat)["turn"]["step"] == "trade"  # "place" shown then too
        here = match.turn_info.step == step and not (step == "place" and after_trade)
        if n > 20 and here and len(match.legal_actions()) > 1:
            return match, events
        new = match.play(greedy_player(match.view(seat), 1), seat=seat)
        events = new if any(e["type"] == "fleet" for e in new) else events + new
    raise AssertionError(f"no {step} step")


def test_focus_place_step_rings_exactly_the_legal_spots() -> None:
    """A placement step rings the spots of the legal ``place`` actions, and nothing else."""
    match, events = _yamatai_at("place")
    legal = match.legal_actions()
    spots = {a.split()[2] for a in legal if a.startswith("place ")}
    islands = {a.split()[1] for a in legal if a.startswith("collect ")}
    islands |= {a.split()[2] for a in legal if a.startswith("build ")}
    assert spots
    view = match.view(match.current_seat)
    _, marks = yamatai_focus.focus_image(yamatai_view(view), legal=legal, events=events)
    assert {m.label for m in marks if m.kind == "spot"} == spots
    assert {m.label for m in marks if m.kind == "island"} == islands


@pytest.mark.parametrize(
    ("language", "one", "several"), [("en", "spot", "spots"), ("pl", "pole", "pola")]
)
def test_the_ringed_line_says_one_spot_in_the_singular(
    language: str, one: str, several: str
) -> None:
    """QA: "Ringed in yellow: spots 32" named one spot in the plural."""
    match, events = _yamatai_at("place")
    places = [a for a in match.legal_actions() if a.startswith("place ")]
    spots = sorted({a.split()[2] for a in places}, key=int)
    assert len(spots) > 1
    view = match.view(match.current_seat)
    for legal, words in (
        ([a for a in places if a.split()[2] == spots[0]], f"{one} {spots[0]}"),
        (places, f"{several} {', '.join(spots)}"),
    ):
        _clear_caches()
        with recording() as drawn:
            yamatai_focus.focus_image(
                yamatai_view(view), legal=legal, events=events, extras=Extras(language=language)
            )
        ringed = [text for text, _ in drawn if text.endswith(words)]
        assert ringed, [text for text, _ in drawn][:6]


def test_focus_collect_or_build_step_says_so_and_labels_the_ringed_islands_over_rings() -> None:
    """QA: with no boat left to place, the title said "Now: place boats" (only collect and build
    were legal), and an island's ring passed over its label; the label is drawn again on the
    turn picture's crop, over the ring."""
    match, events = _yamatai_at("act")
    legal = match.legal_actions()
    assert legal and not any(a.startswith("place ") for a in legal)
    _clear_caches()
    with measuring() as drawn:
        _, marks = yamatai_focus.focus_image(
            yamatai_view(match.view(match.current_seat)), legal=legal, events=events
        )
    islands = {m.label for m in marks if m.kind == "island"}
    assert islands
    assert "Now: collect tokens or build" in [d.text for d in drawn]
    assert islands <= {d.text for d in drawn if d.surface[0] <= FOCUS_WIDTH}


def test_focus_look_step_lists_the_tiles_drawn_and_how_to_put_them_back() -> None:
    """QA: after a fleet's "look" the picture showed the whole map and none of the tiles to
    put back, and nothing said what the "/" of ``arrange B21 / B11 B01`` means."""
    match = games.new("yamatai", ["Ann", "Bo"], seed=1)
    computer = games.computer_player("yamatai")
    for n in range(400):
        seat = match.current_seat
        assert seat is not None
        legal = match.legal_actions()
        if any(a.startswith("arrange ") for a in legal):
            break
        match.play("look" if "look" in legal else computer(match.view(seat), n), seat=seat)
    view = match.view(seat)
    looked = view["turn"]["looked"]
    assert len(looked) == 3
    _clear_caches()
    with recording() as drawn:
        yamatai_focus.focus_image(yamatai_view(view), legal=legal)
    texts = [text for text, _ in drawn]
    assert "Now: arrange the tiles looked at" in texts
    assert any("before / on top" in text for text in texts)
    for tile in looked:  # by name, as the panel says it ("building 21: ..."), not its code
        with speaking("en"):
            name = tile_words(str(tile["id"]))
        assert any(t.startswith(f"{name}: ") and f", {tile['pp']} PP" in t for t in texts)


def test_focus_ringed_spots_under_boats_say_their_number_on_a_badge() -> None:
    """QA: for remove, swap and slide the ringed spots hold boats, whose sprites hid the spots'
    numbers the actions name ("swap boats 25 45"); each such number is drawn beside its ring."""
    match = games.new("yamatai", ["Ann", "Bo"], seed=1)
    computer = games.computer_player("yamatai")
    for n in range(300):
        seat = match.current_seat
        assert seat is not None
        swaps = [a for a in match.legal_actions() if a.startswith("swap boats ")]
        if n > 40 and swaps:
            break
        match.play(computer(match.view(seat), n), seat=seat)
    view = match.view(seat)
    under = {a.split()[2] for a in swaps} | {a.split()[3] for a in swaps}
    assert all(s["boat"] for s in view["spots"] if s["label"] in under)
    _clear_caches()
    with measuring() as drawn:
        yamatai_focus.focus_image(yamatai_view(view), legal=swaps)
    # on the crop (not the 50-px sprite of the spot's number, under the boat), at the least size
    badges = {d.text for d in drawn if d.size == SMALL and 100 < d.surface[0] <= FOCUS_WIDTH}
    assert under <= badges


def test_focus_collect_and_build_ring_the_legal_islands() -> None:
    """Collect and build actions ring their islands (upper or lower case alike)."""
    targets = yamatai_focus.legal_targets(["collect C4 D2", "build B07 A3", "end"])
    assert targets.islands == {"C4", "D2", "A3"}
    assert targets.tiles == {"B07"}
    assert targets.other == ("end",)
    match, _ = play_turns(3, 5, 6)
    view = match.view(None)
    _, marks = yamatai_focus.focus_image(
        yamatai_view(view), legal=["collect c4 d2", "build B07 A3"]
    )
    assert sorted(m.label for m in marks) == ["A3", "C4", "D2"]


def test_focus_fleet_step_rings_the_legal_fleets() -> None:
    """At the fleet step the legal fleet tiles are boxed on the fleet track."""
    match, events = _yamatai_at("fleet")
    legal = match.legal_actions()
    wanted = {a.split()[1] for a in legal}
    _, marks = yamatai_focus.focus_image(
        yamatai_view(match.view(match.current_seat)), legal=legal, events=events
    )
    assert {m.label for m in marks} == wanted
    assert {m.kind for m in marks} == {"fleet"}


def test_focus_fleet_step_shows_the_track_and_no_cut_turn_order() -> None:
    """QA: the fleet step's crop began with the turn order's column cut ("D 6", "k #3"); it
    shows the fleet track alone, so the turn order changes nothing on the turn picture."""
    match, events = _yamatai_at("fleet")
    legal = match.legal_actions()
    view = match.view(match.current_seat)
    reordered = {**view, "turn_order": list(reversed(view["turn_order"]))}
    assert reordered["turn_order"] != view["turn_order"]
    drawn = render_focus(view, legal=legal, events=events)
    assert render_focus(reordered, legal=legal, events=events) == drawn


@pytest.mark.parametrize(
    ("language", "words"), [("en", "Boats: "), ("fr", "Bateaux\N{NO-BREAK SPACE}: ")]
)
def test_focus_says_what_the_boat_letters_stand_for(language: str, words: str) -> None:
    """QA: the fleets' boat letters ("4: C Slide...", "9: SW -1 boat") had no key on the turn
    picture, whether choosing a fleet or later in the turn."""
    for step in ("fleet", "place"):
        _says_the_boat_letters(*_yamatai_at(step), language, words)


def _says_the_boat_letters(
    match: Match, events: list[dict[str, Any]], language: str, words: str
) -> None:
    view = match.view(match.current_seat)
    _clear_caches()
    with recording() as drawn:
        yamatai_focus.focus_image(
            yamatai_view(view),
            legal=match.legal_actions(),
            events=events,
            extras=Extras(language=language),
        )
    (key,) = [text for text, _ in drawn if text.startswith(words)]
    letters = boat_letters(language)
    assert len(letters) == 5
    for boat, letter in letters.items():
        assert f"{letter} {say(f'y.boat.{boat}', language)}" in key


def test_focus_marks_are_drawn_where_the_targets_are() -> None:
    """The ring's colour is on the picture at every marked spot, in the crop."""
    match, events = _yamatai_at("place")
    legal = match.legal_actions()
    plain = render_focus(match.view(match.current_seat), legal=[], events=events)
    marked = render_focus(match.view(match.current_seat), legal=legal, events=events)
    assert plain != marked


def test_focus_namiji_move_rings_the_legal_spaces_and_keep_the_cells() -> None:
    """Namiji: a move step rings the legal route spaces, a catch the legal crate cells."""
    targets = namiji_focus.legal_targets(["move 8", "move 13 slot 2", "keep r1c2", "release"])
    assert targets.spaces == {(8, 0), (13, 2)}
    assert targets.cells == {"r1c2"}
    assert targets.other == ("release",)
    match = _namiji(4, 0)
    legal = match.legal_actions()
    view = match.view(match.current_seat)
    _, marks = namiji_focus.focus_image(namiji_view(view), legal=legal)
    assert len(marks) == len(legal) and {m.kind for m in marks} == {"space"}
    view["current_seat"] = 0
    _, cells = namiji_focus.focus_image(
        namiji_view(view), legal=["keep r1c2", "keep r3c1", "release"]
    )
    assert sorted(m.label for m in cells) == ["r1c2", "r3c1"]


@pytest.mark.parametrize("direction", ["clockwise", "reversed"])
def test_focus_namiji_move_names_each_ringed_space_by_its_number(direction: str) -> None:
    """Issue 21, item 3: the choices say "move to 5"; the crop shows 5 beside its ring, at the
    focus picture's least size (readable 400 px wide), inside the picture."""
    match = games.new("namiji", ["Ann", "Bo", "Cy"], seed=3, options={"direction": direction})
    legal = match.legal_actions()
    view = match.view(match.current_seat)
    with measuring() as drawn:
        _, marks = namiji_focus.focus_image(namiji_view(view), legal=legal)
    spaces = {a.split()[1] for a in legal}
    tags = [d for d in drawn if d.surface[0] == FOCUS_WIDTH and d.text in spaces]
    assert {d.text for d in tags} == spaces
    assert all(d.size >= SMALL and d.box[0] >= 0 and d.box[2] <= FOCUS_WIDTH for d in tags)
    assert SMALL * PHONE / FOCUS_WIDTH >= 9
    assert sum(bool(m.tag) for m in marks) == len(spaces)  # a pontoon's number once


@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_focus_is_pure_small_and_readable_on_a_phone(game: str) -> None:
    """Same inputs, same bytes; about 900 px wide; well under 300 KB; text >= 9 px on a phone."""
    if game == "yamatai":
        match, events = _yamatai_at("trade")
    else:
        match = _namiji(3, 39)
        seat = match.current_seat
        assert seat is not None
        events = match.play(games.computer_player("namiji")(match.view(seat), 39), seat=seat)
    legal = match.legal_actions()
    view = match.view(match.current_seat)
    extras = Extras(stand_ins=((0, "away"),), computer_played=True)
    with recording() as drawn:
        first = render_focus(view, legal=legal, events=events, extras=extras)
    assert render_focus(view, legal=legal, events=events, extras=extras) == first
    assert _size(first)[0] == FOCUS_WIDTH
    assert len(first) < 300_000
    focus_text = [(t, s) for t, s in drawn if s >= SMALL]
    assert any("away · computer plays" in t for t, _ in focus_text)
    assert any("played by the computer" in t for t, _ in focus_text)
    assert SMALL * PHONE / FOCUS_WIDTH >= 9


def test_focus_unknown_game() -> None:
    """A game without a turn picture is refused clearly."""
    from engine.errors import UnknownGame

    with pytest.raises(UnknownGame):
        render_focus({"game": "chess", "players": []}, legal=[])


def test_focus_scores_say_they_are_a_projection_and_what_plus_query_means() -> None:
    """QA: scores fell (2 -> 1 PP after reserving a tile, -> 0 after buying a boat) and "1+? PP"
    was never explained: the box says the scores are as if the game ended now (the rulebook's
    scoring) and, once a score hides face-down tiles, what the "+?" stands for."""
    from engine.yamatai.players import greedy_player

    match = games.new("yamatai", ["Ann", "Bo", "Cy"], seed=11)

    def drawn_texts() -> list[str]:
        seat = match.current_seat
        assert seat is not None
        _clear_caches()
        with recording() as drawn:
            yamatai_focus.focus_image(yamatai_view(match.view(seat)), legal=match.legal_actions())
        return [text for text, _ in drawn]

    first = drawn_texts()
    assert "Scores if the game ended now" in first
    assert not any(text.startswith("+?") for text in first)  # nothing face down yet
    while not any(a.startswith("build ") for _, a in match.log):
        match.play(greedy_player(match.view(match.current_seat), 3), seat=match.current_seat)
    while match.current_seat == match.log[-1][0]:  # the builder's turn ends: another looks
        match.play(greedy_player(match.view(match.current_seat), 3), seat=match.current_seat)
    later = drawn_texts()
    assert any("+? PP" in text for text in later)
    assert "+?: and the PP of their face-down building tiles, counted at the end" in later


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "1 point,", "2 points,"),
        ("it", "1 punto,", "2 punti,"),
        ("fr", "1 point,", "2 points,"),
    ],
)
def test_namiji_score_lines_count_points_in_the_singular_too(
    language: str, one: str, two: str
) -> None:
    """QA: "1 punti" (the plural followed the offerings left, not the points)."""
    match = _namiji(2, 10)
    view = match.view(match.current_seat)
    view["players"][0]["score"], view["players"][1]["score"] = 1, 2
    _clear_caches()
    with recording() as drawn:
        namiji_focus.focus_image(
            namiji_view(view), legal=match.legal_actions(), extras=Extras(language=language)
        )
    texts = [text for text, _ in drawn]
    assert any(one in text for text in texts) and any(two in text for text in texts), texts


def test_namiji_with_only_the_turns_end_left_shows_where_the_boat_landed() -> None:
    """QA: at a station with nothing left to do the picture said "Now: at a station" (the
    answer: "end the turn") and showed the centre's empty "at this stop: done" box instead of
    the route where the boat had landed (the centre's box draws no space number)."""
    match = games.new("namiji", ["Ann", "Bo"], seed=3)
    computer = games.computer_player("namiji")
    for done in range(400):
        seat = match.current_seat
        assert seat is not None
        view = match.view(seat)
        if done > 4 and match.legal_actions() == ["end"] and view["phase"] == "station":
            break
        match.play(computer(view, done), seat=seat)
    else:
        raise AssertionError("no station with only the end of the turn left")
    _clear_caches()
    with recording() as drawn:
        namiji_focus.focus_image(namiji_view(view), legal=["end"])
    texts = [text for text, _ in drawn]
    assert "Now: end the turn" in texts, texts[:4]
    boat = next(b for b in view["boats"] if b["seat"] == seat)
    assert str(boat["pos"]) in texts  # the route around it, its spaces numbered


def test_a_crop_with_whole_width_shows_its_area_from_side_to_side() -> None:
    """QA: choosing a crate cell, the player's board was cut at the right ("gamber…", the
    panoramas): Namiji's board crops keep the board's whole width (the golden
    focus-namiji-keep shows it)."""
    from render.focus import Marked, crop_marked

    picture = Image.new("RGB", (1000, 600), (0, 0, 0))
    picture.paste((255, 0, 0), (880, 100, 900, 400))  # the area's right edge, far from the mark
    area, mark = (100, 100, 900, 400), Marked("cell", "r1c1", 150, 200, 20)
    cut = crop_marked(picture, [mark], area)
    whole = crop_marked(picture, [mark], area, whole_width=True)

    def reds(image: Image.Image) -> int:
        return sum(
            1 for x in range(image.width) if image.getpixel((x, image.height // 2)) != (0, 0, 0)
        )

    assert reds(cut) == 0 and reds(whole) > 0


def test_focus_says_ringed_only_what_the_crop_shows() -> None:
    """QA: a build on the map said "Ringed in yellow: ... tiles B01, B19", but the crop showed
    the map, not the building row: the tiles are named as "to choose as well"."""
    match, events = _yamatai_at("act")
    legal = match.legal_actions()
    assert any(a.startswith("build ") for a in legal), legal
    _clear_caches()
    with recording() as drawn:
        yamatai_focus.focus_image(
            yamatai_view(match.view(match.current_seat)), legal=legal, events=events
        )
    texts = [text for text, _ in drawn]
    (ringed,) = [t for t in texts if t.startswith("Ringed in yellow:")]
    assert "island" in ringed and "tile" not in ringed, ringed
    elsewhere = [t for t in texts if t.startswith("To choose as well (not on this picture): ")]
    kinds = ("building", "trading post", "torii", "palace")
    assert elsewhere and any(k in elsewhere[0] for k in kinds), elsewhere
