"""The French rulebook's worked examples (the publisher's text, not in this repository),
played through Match."""

from __future__ import annotations

from engine.namiji.components import components
from engine.namiji.state import Player
from tests.engine.namiji.scenario import (
    BLUE,
    GREEN,
    PINK,
    VIOLET,
    YELLOW,
    at_station,
    new,
    place,
    play,
    points,
    state,
)

ARRIVAL = components().arrival


def _arrive_last(players: int, seat: int, player: Player) -> dict[str, int]:
    """Every other boat has arrived; ``seat`` sails home with this collection: its score lines."""
    match = new(players)
    st = state(match)
    player.name, player.colour = st.players[seat].name, st.players[seat].colour
    st.players[seat] = player
    others = [b for b in range(len(st.boats)) if b != seat]
    spots = [(ARRIVAL, 1 + others.index(b)) if b != seat else (ARRIVAL - 1, 0) for b in others]
    spots.insert(seat, (ARRIVAL - 1, 0))
    place(match, *spots)
    st.arrivals = st.arrivals[len(others) :]
    play(match, f"move {ARRIVAL}", "end")
    outcome = match.outcome
    assert outcome is not None
    result = outcome.results[seat]
    assert result.score == st.players[seat].score  # the track and the recount agree
    return {line.label: line.points for line in result.lines} | {"total": result.score}


def test_musubi_scores_36() -> None:
    """Exemple 1: crate 8, crustaceans 6, rocks 11, panoramas 9, makis 5, third 3, offerings -6."""
    crate = ["gt", "gs", "gf", "gs", "ot", "of", "", "", "bt", "", "", ""]
    musubi = Player("", "", crate=crate, lines=["r1", "c1"], trap=["SH"] * 5 + ["CB"])
    musubi.offerings = 2
    musubi.panoramas = {"D": 2, "O": 0, "W": 3}
    musubi.pontoon = ["M6", "U1", "U5"]
    musubi.rocks = ["R18", "R02", "R08", "R01"]
    musubi.score = 8 + 6 + 9 + 5
    lines = _arrive_last(3, GREEN, musubi)
    assert lines == {
        "crate": 8,
        "crustaceans": 6,
        "panoramas": 9,
        "panorama_bonus": 0,
        "meals": 5,
        "arrival": 3,
        "sacred_rocks": 11,
        "offerings": -6,
        "total": 36,
    }


def test_tami_scores_59() -> None:
    """Exemple 2: 3+7+9+3+4+4+4+10+3+3+8+1-0 = 59, fifth to arrive at 5 players."""
    crate = ["bt", "", "", "", "bt", "ot", "ot", "gt", "bt", "bf", "bs", "bs"]
    nets = ["bt r1c1 v", "ot r2c2 h", "bs r3c3 h"]
    tami = Player("", "", crate=crate, nets=nets, lines=["r2", "r3", "c1"], trap=["SH"] * 3)
    tami.offerings = 0
    tami.panoramas = {"D": 0, "O": 4, "W": 2}
    tami.bonuses = ["BO"]
    tami.pontoon = ["M3", "M4", "U7"]
    tami.rocks = ["R11", "R02", "R03"]
    tami.score = 19 + 3 + 10 + 3 + 3 + 8
    lines = _arrive_last(5, BLUE, tami)
    assert lines == {
        "crate": 19,
        "crustaceans": 3,
        "panoramas": 13,
        "panorama_bonus": 3,
        "meals": 8,
        "arrival": 1,
        "sacred_rocks": 12,
        "offerings": 0,
        "total": 59,
    }


def test_offerings_penalty_is_the_number_above_the_top_offering() -> None:
    """Tami keeps 2 offerings: -6; 4 left: -15; none left: 0."""
    for left, penalty in [(2, -6), (4, -15), (0, 0), (3, -10), (1, -3)]:
        player = Player("", "", offerings=left)
        assert _arrive_last(3, PINK, player)["offerings"] == penalty


def test_crate_row_of_one_colour_scores_and_mixed_column_does_not() -> None:
    """A full row of green fish scores 5 at once; a full column of mixed fish scores nothing."""
    match = new(3)
    st = state(match)
    st.players[GREEN].crate[:3] = ["gt", "gs", "gf"]
    st.players[GREEN].crate[4] = "os"
    at_station(match, GREEN, ["catch"])
    st.catch = "gs"
    events = play(match, "keep r1c4")
    assert points(events, "crate") == 5 and st.players[GREEN].lines == ["r1"]
    at_station(match, GREEN, ["catch"])
    st.catch = "bf"
    assert points(play(match, "keep r3c1"), "crate") == 0
    assert st.players[GREEN].lines == ["r1"]


def test_musubi_takes_whale_section_4() -> None:
    """Musubi holds W1-W3 (6 points) and stops at a whale station: W4, +4."""
    match = new(3)
    st = state(match)
    st.players[GREEN].panoramas["W"] = 3
    place(match, (3, 0), (20, 0), (21, 0))
    events = play(match, "move 4")
    assert points(events, "panoramas") == 4 and st.players[GREEN].panoramas["W"] == 4


def test_turn_order_figures() -> None:
    """The boat furthest behind moves; it moves again while still behind; outer spot is behind."""
    match = new(4)
    place(match, (1, 0), (5, 0), (7, 0), (8, 0))
    assert match.current_seat == GREEN
    play(match, "move 4", "end")  # still behind pink: green moves again
    assert match.current_seat == GREEN
    play(match, "move 6", "end")  # past pink (whirlpool, route spot of a double space)
    assert match.current_seat == PINK
    play(match, "move 6", "end")  # the outer spot of the same double space counts as behind
    assert state(match).boats[PINK].spot == 1
    assert match.current_seat == PINK


def test_pontoon_arrival_example() -> None:
    """Blue arrives first and takes slot 5, green second takes slot 1: green picks from 6 cards,
    slot 5 from 2, one goes under the deck and blue leaves first."""
    match = new(5)
    st = state(match)
    place(match, (8, 0), (11, 0), (9, 0), (7, 0), (10, 0))
    arrivals = [(BLUE, 5), (GREEN, 1), (YELLOW, 2), (VIOLET, 4), (PINK, 3)]
    for seat, slot in arrivals[:-1]:
        assert match.current_seat == seat
        play(match, f"move 13 slot {slot}", "end")
    assert match.current_seat == PINK and match.legal_actions()[-1:] == ["move 13 slot 3"]
    deck = len(st.pontoon_deck)
    play(match, "move 13 slot 3", "end")
    assert st.phase == "draft" and len(st.hand) == 6 and match.current_seat == GREEN
    assert len(match.view(GREEN)["hand"]) == 6 and match.view(PINK)["hand"] == []
    for seat, size in [(GREEN, 6), (YELLOW, 5), (PINK, 4), (VIOLET, 3), (BLUE, 2)]:
        assert match.current_seat == seat and len(match.legal_actions()) == size
        play(match, match.legal_actions()[0])
    assert len(st.pontoon_deck) == deck - 6 + 1
    assert all(len(p.pontoon) == 1 for p in st.players)
    assert match.current_seat == BLUE and match.turn_info.step == "move"


def test_three_players_draw_four_pontoon_cards() -> None:
    match = new(3)
    place(match, (12, 0), (13, 1), (13, 2))
    play(match, "move 13 slot 3", "end")
    assert len(match.legal_actions()) == 4 and match.current_seat == PINK


def test_two_players_the_front_player_moves_the_neutral_boat() -> None:
    """Le Bateau neutre est en dernière position; le joueur en tête le déplace."""
    match = new(2)
    place(match, (3, 0), (5, 0), (1, 0))
    assert match.current_seat == PINK and match.view(PINK)["boat_to_act"] == 2
    play(match, "move 9", "end")  # a sacred rock: the neutral boat takes nothing
    st = state(match)
    assert st.rock_deck and not st.rocks_shown and match.current_seat == GREEN
