"""The turn picture's "since your last turn" (issue 21 item 5): the others' turns told in the box
instead of the last turn, and the places they changed marked with dashed squares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image

from engine import games
from engine.contract import Event
from engine.games import Match
from engine.namiji.view import namiji_view
from engine.yamatai.view import yamatai_view
from render import focus, render_focus
from render.extras import Extras
from render.focus import Frame, Marked, since_lines
from render.namiji import focus as namiji_focus
from render.namiji import layout as namiji_layout
from render.namiji.highlight import Highlight as NamijiHighlight
from render.theme import get_theme
from render.yamatai import focus as yamatai_focus
from render.yamatai.highlight import Highlight
from render.yamatai.layout import layout

Turns = list[tuple[int, Sequence[Event]]]


def others_played(key: str, players: int) -> tuple[Match, Turns]:
    """A game where every seat but the last played one whole turn (the normal computer's
    choices): the game, and those turns as (seat, events)."""
    match = games.new(key, [f"P{i}" for i in range(players)], 11)
    choose = games.computer_player(key)
    turns: Turns = []
    first = match.current_seat
    assert first is not None
    events: list[Event] = []
    for n in range(400):
        seat = match.current_seat
        assert seat is not None
        new = match.play(choose(match.view(seat), n), seat=seat)
        events += new
        if match.milestones(new).turn_ended:
            turns.append((seat, events))
            events = []
            if len({s for s, _ in turns}) == players - 1 and match.current_seat not in {
                s for s, _ in turns
            }:
                return match, turns
    raise AssertionError("no seat was left to play")


def edge_pixels(image: Image.Image, mark: Marked, reach: float) -> list[tuple[int, int, int]]:
    """The pixels along the top edge of a dashed square ``reach`` around a mark."""
    y = round(mark.y - reach)
    x0, x1 = round(mark.x - reach), round(mark.x + reach)
    found = []
    for dy in (-1, 0, 1):
        for x in range(max(0, x0), min(image.width, x1)):
            if 0 <= y + dy < image.height:
                pixel = image.getpixel((x, y + dy))
                assert isinstance(pixel, tuple)
                found.append((int(pixel[0]), int(pixel[1]), int(pixel[2])))
    return found


def test_yamatai_marks_the_spots_the_others_changed() -> None:
    """The boats the others placed stand in dashed squares of the last turn's colour; without
    ``since`` nothing is drawn there."""
    match, turns = others_played("yamatai", 3)
    seat = match.current_seat
    assert seat is not None
    view = match.view(seat)
    look = get_theme("default")
    lay = layout("default", len(view["players"]))
    changed = yamatai_focus._changed(yamatai_view(view), lay, turns)
    placed = set().union(*(Highlight.from_events(e).placed for _, e in turns))
    assert placed and {m.label for m in changed if m.kind == "spot"} >= placed
    shown = Frame(lay.map.box, 1.0)
    hl = Highlight.from_view(yamatai_view(view))
    marked = yamatai_focus.map_at_size(yamatai_view(view), lay, look, hl, [], shown, changed)
    bare = yamatai_focus.map_at_size(yamatai_view(view), lay, look, hl, [], shown)
    left = (marked.width - shown.size[0]) // 2
    ink = look.last_turn_ink
    for mark in changed:
        place = shown.placed(mark)
        moved = Marked(place.kind, place.label, place.x + left, place.y, place.radius)
        assert ink in edge_pixels(marked, moved, place.radius + 8), mark
        assert ink not in edge_pixels(bare, moved, place.radius + 8), mark


def test_namiji_marks_the_boats_the_others_moved() -> None:
    """The spaces where the others' boats now stand are in dashed squares."""
    match, turns = others_played("namiji", 3)
    seat = match.current_seat
    assert seat is not None
    view = match.view(seat)
    look = get_theme("default")
    changed = namiji_focus._changed(namiji_view(view), turns)
    assert len(changed) >= 2  # one boat per other seat moved
    shown = Frame(namiji_layout.ROUTE_AREA, 0.5)
    marked = namiji_focus.route_at_size(
        namiji_view(view), look, NamijiHighlight(), [], shown, changed
    )
    bare = namiji_focus.route_at_size(namiji_view(view), look, NamijiHighlight(), [], shown)
    left = (marked.width - shown.size[0]) // 2
    for mark in changed:
        place = shown.placed(mark)
        moved = Marked(place.kind, place.label, place.x + left, place.y, place.radius)
        reach = place.radius + 8 * shown.zoom
        assert look.last_turn_ink in edge_pixels(marked, moved, reach), mark
        assert look.last_turn_ink not in edge_pixels(bare, moved, reach), mark


@pytest.mark.parametrize("key", ["yamatai", "namiji"])
@pytest.mark.parametrize("language", ["en", "fr", "it", "pl"])
def test_the_box_tells_the_others_turns_not_the_players_own(key: str, language: str) -> None:
    """With ``since`` the box names each other player's turn (a line each) and the legend;
    it differs from the last-turn box, which described the player's own turn just begun."""
    match, turns = others_played(key, 3)
    seat = match.current_seat
    assert seat is not None
    view = match.view(seat)
    look = get_theme("default")
    with focus_words(language):
        said = (yamatai_focus if key == "yamatai" else namiji_focus).turn_words
        told = since_lines(view, turns, look, said)
        nothing = since_lines(view, [], look, said)
    names = [str(p["name"]) for p in view["players"]]
    lines = [text for text, *_ in told]
    assert len(lines) == len(turns) + 2  # title, a line per turn, the legend
    for (other, _), line in zip(turns, lines[1:-1], strict=True):
        assert line.startswith(names[other]) and names[seat] not in line
    assert len(nothing) == 2  # title, "nobody else has played"
    legal = match.legal_actions()
    plain = render_focus(view, legal=legal, extras=Extras(language=language))
    with_since = render_focus(view, legal=legal, extras=Extras(language=language, since=turns))
    assert with_since != plain


@pytest.mark.parametrize("key", ["yamatai", "namiji"])
def test_on_the_players_first_turn_the_box_tells_the_turns_since_the_game_began(
    key: str,
) -> None:
    """A player who has had no turn yet reads "Since the game began" (or that nobody has
    played yet), never "since your last turn"."""
    match, turns = others_played(key, 3)
    seat = match.current_seat
    assert seat is not None
    view = match.view(seat)
    look = get_theme("default")
    said = (yamatai_focus if key == "yamatai" else namiji_focus).turn_words
    with focus_words("en"):
        told = [text for text, *_ in since_lines(view, turns, look, said, first_turn=True)]
        nothing = [text for text, *_ in since_lines(view, [], look, said, first_turn=True)]
    assert told[0] == "Since the game began" and nothing == [
        "Since the game began",
        "Nobody has played yet.",
    ]
    assert told[-1] == "Dashed squares: changed since the game began"
    assert not any("last turn" in line for line in told + nothing)
    legal = match.legal_actions()
    later = render_focus(view, legal=legal, extras=Extras(since=turns))
    assert render_focus(view, legal=legal, extras=Extras(since=turns, first_turn=True)) != later


def focus_words(language: str) -> Any:
    """The picture texts of ``language`` (as a turn picture draws them)."""
    from render.words import speaking

    return speaking(language)


def test_mark_changed_draws_a_dashed_square() -> None:
    """Dashes and gaps along each side, in the last turn's colour."""
    look = get_theme("default")
    canvas = Image.new("RGB", (200, 200), (0, 0, 0))
    focus.mark_changed(canvas, Marked("spot", "1", 100, 100, 40), look)
    row = [canvas.getpixel((x, 52)) for x in range(52, 148)]
    assert look.last_turn_ink in row and (0, 0, 0) in row[10:-10]


def test_a_boat_placed_then_moved_in_the_turn_is_told_placed_where_it_ended() -> None:
    """QA: the others placed on 25 and 30 then slid 30 -> 41; the line said "placed boats on
    25, 41; moved boats on 41". Now each boat is told once where it ended; a boat already on
    the board before the turn and moved is still told moved."""
    events: list[dict[str, Any]] = [
        {"type": "fleet", "seat": 1, "fleet": 3},
        {"type": "place", "spot": "25"},
        {"type": "place", "spot": "30"},
        {"type": "slide", "from": "30", "to": "41"},
        {"type": "slide", "from": "12", "to": "14"},
    ]
    with focus_words("en"):
        line = yamatai_focus.turn_words("Kenji", 1, events)
    assert line.endswith("placed boats on spots 25, 41; moved a boat to spot 14"), line


def test_french_turns_read_as_french_sentences() -> None:
    """QA: "a pris perle sur A1, perle sur A2; sanctuaire sur C5": French sets a space before
    ";", a list after "a ramassé :", and every part of a turn has its verb."""
    events = [
        {"type": "fleet", "seat": 0, "fleet": 5},
        {"type": "place", "seat": 0, "boat": "gold", "spot": "12"},
        {"type": "collect", "seat": 0, "tokens": [{"island": "A1", "culture": "pearl"}]},
        {"type": "sacred", "seat": 0, "island": "C5"},
    ]
    with focus_words("fr"):
        said = yamatai_focus.turn_words("Ann", 0, events)
    assert said.replace("\N{NO-BREAK SPACE}", " ") == (
        "Ann : a pris la flotte 5 ; a placé un bateau sur l'emplacement 12 ;"
        " a ramassé : perle sur A1 ; a placé un Sanctuaire sur C5"
    )
    assert " ;" not in said and " :" not in said  # a space that never starts a line


def test_polish_turns_are_told_in_the_present_as_the_thread_tells_them() -> None:
    """QA: the picture said "wziął" (he took) of Hana where the thread says "bierze": the
    present tense has no gender; one boat is "łódź", on "polu" (the locative)."""
    events = [
        {"type": "fleet", "seat": 0, "fleet": 5},
        {"type": "place", "seat": 0, "boat": "gold", "spot": "12"},
    ]
    with focus_words("pl"):
        said = yamatai_focus.turn_words("Hana", 0, events)
    assert said == "Hana: bierze flotę 5; umieszcza łódź na polu 12", said


def test_boats_removed_by_a_fleets_power_are_told() -> None:
    """QA: "Kenji: took fleet 7" said nothing of the two boats fleet 7 took off the board, so
    the other player's boats vanished unexplained."""
    events: list[dict[str, Any]] = [
        {"type": "fleet", "seat": 1, "fleet": 7},
        {
            "type": "remove",
            "seat": 1,
            "boats": [{"boat": "clay", "spot": "62"}, {"boat": "bamboo", "spot": "56"}],
        },
        {"type": "place", "seat": 1, "boat": "stone", "spot": "12"},
    ]
    with focus_words("en"):
        line = yamatai_focus.turn_words("Kenji", 1, events)
        one = yamatai_focus.turn_words(
            "Kenji", 1, [*events[:1], {**events[1], "boats": [{"boat": "clay", "spot": "62"}]}]
        )
    assert "removed boats from spots 56, 62" in line, line
    assert "removed a boat from spot 62" in one, one
