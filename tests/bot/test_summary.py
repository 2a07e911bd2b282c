"""A turn in words, from engine events."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.service.history import replay_turns
from bot.service.results import FinalResult, FinalScore, PlayerInfo
from bot.service.tables import final_result as _final
from bot.summary import Summary
from engine import games
from engine.players import random_player
from engine.yamatai.players import greedy_player

NAMES = ["Ann", "Bo"]
PLAYERS = (
    PlayerInfo(seat=0, name="Ann", user_id=1, colour="red"),
    PlayerInfo(seat=1, name="Bo", user_id=2, colour="blue"),
)

TURN: list[dict[str, Any]] = [
    {"type": "fleet", "seat": 0, "fleet": 6, "boats": ["wood", "bamboo"], "missing": []},
    {"type": "buy", "seat": 0, "boat": "clay", "coins": -4},
    {"type": "place", "seat": 0, "boat": "clay", "spot": "12"},
    {"type": "place", "seat": 0, "boat": "wood", "spot": "13"},
    {
        "type": "build",
        "seat": 0,
        "tile": "B07",
        "island": "C4",
        "kind": "standard",
        "figure": "standard",
        "pp_tokens": 1,
        "coins": 3,
        "bonus": {"group": 3, "mountain": 1},
        "last_building": False,
    },
    {"type": "harbor", "seat": 0, "kept": ["bamboo"], "set_aside": []},
    {"type": "end_turn", "seat": 0},
    {"type": "turn", "seat": 1, "round": 1},
]


def test_turn_summary_text() -> None:
    text = Summary(default_catalog(), None, "yamatai").turn("Ann", TURN, NAMES)
    assert text == (
        "**Ann** took fleet 6, bought a clay boat, "
        "placed a clay boat on spot 12 and a wood boat on spot 13, "
        "built a standard building on C4: +3 coins, +1 PP token, "
        "kept a bamboo boat in the harbor"
    )


def test_turn_summary_in_french_uses_the_rulebook_words() -> None:
    text = Summary(default_catalog(), "fr", "yamatai").turn("Ann", TURN, NAMES)
    assert text == (
        "**Ann** a pris la flotte 6, a acheté un bateau d'argile, "
        "a placé un bateau d'argile sur l'emplacement 12 "
        "et un bateau de bois sur l'emplacement 13, "
        "a construit un bâtiment standard sur C4\u00a0: +3 pièces, +1 pion Prestige, "
        "a gardé un bateau de bambou au port"
    )


def test_other_events() -> None:
    summary = Summary(default_catalog(), None, "yamatai")
    events: list[dict[str, Any]] = [
        {"type": "fleet", "seat": 1, "fleet": 10, "boats": ["clay"], "missing": ["wood"]},
        {"type": "place", "seat": 1, "boat": "clay", "spot": "3"},
        {"type": "collect", "seat": 1, "tokens": [{"island": "A1", "culture": "silk"}]},
        {"type": "slide", "seat": 1, "boat": "clay", "from": "3", "to": "4"},
        {"type": "swap_tokens", "seat": 1, "islands": ["C4", "D2"]},
        {"type": "harbor", "seat": 1, "kept": ["gold"], "set_aside": ["wood", "stone"]},
        {"type": "recruit", "seat": 1, "specialist": "Riu", "tokens": ["silk"], "coins": 4},
        {"type": "izanami", "seat": 0, "from": 1, "coins": 2},
        {"type": "end_turn", "seat": 1},
        {"type": "round_end", "round": 2},
        {"type": "round_start", "round": 3, "turn_order": [1, 0]},
    ]
    text = summary.turn("Bo", events, NAMES)
    assert text == (
        "**Bo** took fleet 10 (no wood boat left), placed a clay boat on spot 3, "
        "collected silk on A1, slid a clay boat from spot 3 to spot 4, "
        "swapped the culture tokens on C4 and D2, kept a gold boat in the harbor, "
        "set aside 2 boats, "
        "recruited Riu: +4 coins, Ann took 2 coins (Izanami)\nRound 2 is over.\n"
        f"Round 3: turn order {NAMES[1]}, {NAMES[0]}."
    )


def test_every_turn_of_a_real_game_reads_well() -> None:
    match = games.new("yamatai", ["Ann", "Bo", "Cy"], seed=11)
    while match.current_seat is not None:
        seat = match.current_seat
        match.play(greedy_player(match.view(seat), 3), seat=seat)
    summary = Summary(default_catalog(), None, "yamatai")
    turns = replay_turns(match)
    assert turns and all(t.complete for t in turns)
    for turn in turns:
        text = summary.turn(match.players[turn.seat], turn.events, match.players)
        assert "{" not in text and "}" not in text, text
        assert text.startswith(f"**{match.players[turn.seat]}** took fleet")
    assert "The game ends:" in summary.turn("x", turns[-1].events, match.players)
    outcome = match.outcome
    assert outcome is not None


def _score(seat: int, name: str, total: int, rank: int, **lines: int) -> FinalScore:
    return FinalScore(seat=seat, name=name, user_id=None, total=total, rank=rank, lines=dict(lines))


def test_final_lines_say_where_each_pp_came_from() -> None:
    final = FinalResult(
        scores=(
            _score(1, "Bo", 7, 1, coins=5, pp_tokens=3, set_aside=-1, reserved=0),
            _score(0, "Ann", 2, 2, buildings=2),
        ),
    )
    assert not final.tie_broken
    assert Summary(default_catalog(), None, "yamatai").final(final) == [
        "1. **Bo**: 7 PP (5 PP from coins, 3 PP from PP tokens, -1 PP for boats set aside)",
        "2. **Ann**: 2 PP (2 PP from buildings)",
    ]


def test_a_tie_on_top_says_turn_order_broke_it() -> None:
    final = FinalResult(
        scores=(
            _score(1, "Bo", 4, 1, coins=4),
            _score(0, "Ann", 4, 2, specialists=4),
            _score(2, "Cy", 1, 3),
        ),
        tie_broken=True,
    )
    lines = Summary(default_catalog(), None, "yamatai").final(final)
    assert lines[2] == "3. **Cy**: 1 PP (nothing scored)"
    assert lines[3] == "Tie broken by turn order: Bo played first in the last round"


def test_a_real_tie_is_broken_by_the_last_rounds_turn_order() -> None:
    """The engine's outcome says when a shared top score was decided by its tie-break."""
    match = games.new("yamatai", ["Ann", "Bo"], seed=3)
    while match.current_seat is not None:
        seat = match.current_seat
        match.play(greedy_player(match.view(seat), 3), seat=seat)
    order = list(match.view(None)["turn_order"])
    for player in match.state.players:  # the same final score for both seats
        player.coins, player.pp_tokens, player.tiles = 0, 0, []
        player.specialists, player.reserved, player.set_aside = [], [], [0] * 5
    outcome = match.outcome
    assert outcome is not None and outcome.tie_broken and outcome.winners == (order[0],)
    final = _final(PLAYERS, outcome)
    assert final.tie_broken and final.winner.seat == order[0]
    text = Summary(default_catalog(), None, "yamatai").final(final)[-1]
    assert (
        text == f"Tie broken by turn order: {PLAYERS[order[0]].name} played first in the last round"
    )


def test_the_log_hides_built_tiles_until_the_game_is_over() -> None:
    """R34: `/log` names the island of a build while the game runs (its words the figure), the
    tile after; the notation hides the tile as `?` (D86)."""
    match = games.new("yamatai", ["Ann", "Bo", "Cy"], seed=11)
    first_build: int | None = None
    while match.current_seat is not None:
        seat = match.current_seat
        match.play(greedy_player(match.view(seat), 3), seat=seat)
        if first_build is None and match.log[-1][1].startswith("build "):
            first_build = len(match.log)
    assert first_build is not None
    log = match.log[:first_build]
    running = games.replay("yamatai", match.players, match.seed, match.options, log)
    logged = [a for turn in replay_turns(running) for a in turn.actions if a.startswith("build")]
    _, tile, island = match.log[first_build - 1][1].split()
    assert logged == [f"build ? {island}"]
    builder = match.log[first_build - 1][0]  # who built it reads their own tile (QA)
    own = [a for t in replay_turns(running, builder) for a in t.actions if a.startswith("build")]
    assert own == [f"build {tile} {island}"]
    other = (builder + 1) % len(match.players)
    assert [a for t in replay_turns(running, other) for a in t.actions if "build" in a] == logged
    finished = [a for turn in replay_turns(match) for a in turn.actions if a.startswith("build")]
    assert f"build {tile} {island}" in finished
    assert not any("?" in a for a in finished)


POWERS: list[dict[str, Any]] = [
    {"type": "fleet", "seat": 0, "fleet": 10, "boats": [], "missing": ["wood", "stone"]},
    {"type": "raijin", "seat": 0, "gave": ["wood", "bamboo"], "took": ["gold"]},
    {"type": "collect", "seat": 0, "tokens": [{"island": "A2", "culture": "rice"}]},
    {"type": "michimata", "seat": 0, "culture": "pearl", "took": ["gold"]},
    {"type": "hetsuka", "seat": 0, "culture": "tea", "coins": 3},
    {"type": "ebisu", "seat": 0, "island": "D2", "culture": "pottery"},
    {"type": "ananda", "seat": 0, "to": 1, "coins": 1},
    {
        "type": "build",
        "seat": 0,
        "tile": "P02",
        "island": "B4",
        "kind": "palace",
        "figure": "palace",
        "pp_tokens": 0,
        "coins": 1,
        "bonus": {},
        "last_building": False,
    },
]


def test_powers_and_gains_in_english() -> None:
    text = Summary(default_catalog(), "en", "yamatai").actions(POWERS, NAMES)
    assert text == (
        "took fleet 10 (no wood boat or stone boat left), "
        "exchanged a wood boat and a bamboo boat for a gold boat (Raijin), "
        "collected rice on A2, "
        "discarded a pearl culture token for a gold boat (Michimata), "
        "discarded a tea culture token for 3 coins (Hetsuka), "
        "took the pottery culture token from D2 (Ebisu), "
        "paid 1 coin to Bo (Ananda), built a palace on B4: +1 coin"
    )


def test_powers_in_polish_have_no_english_game_word() -> None:
    """Issue 14: boats and culture tokens by their Polish names; counts choose the plural form."""
    text = Summary(default_catalog(), "pl", "yamatai").actions(POWERS, NAMES)
    assert text == (
        "bierze flotę 10 (w banku brak: łódź z drewnem lub łódź z kamieniem), "
        "wymienia łódź z drewnem i łódź z bambusem na łódź ze złotem (Raijin), "
        "zbiera żeton kultury: ryż z wyspy A2, "
        "odrzuca żeton kultury (perła) i bierze łódź ze złotem (Michimata), "
        "odrzuca żeton kultury (herbata) i bierze 3 monety (Hetsuka), "
        "bierze żeton kultury (ceramika) z wyspy D2 (Ebisu), "
        "przekazuje 1 monetę graczowi Bo (Ananda), buduje pałac na wyspie B4 \u2013 +1 moneta"
    )


NAMIJI_TURN: list[dict[str, Any]] = [
    {"type": "move", "boat": 0, "seat": 0, "to": 5, "spot": 1},
    {"type": "fished", "seat": 0, "fish": "os"},
    {"type": "crate_line", "seat": 0, "line": "r1"},
    {"type": "score", "seat": 0, "points": 5, "for": "crate"},
    {"type": "panorama", "seat": 0, "card": "O2"},
    {"type": "score", "seat": 0, "points": 2, "for": "panoramas"},
    {"type": "end_turn", "seat": 0},
]


def test_a_namiji_turn_names_the_player_once_and_the_fish_in_words() -> None:
    text = Summary(default_catalog(), "en", "namiji").turn("Ann", NAMIJI_TURN, NAMES)
    assert text == (
        "**Ann** sailed to space 5, fished one orange saba, filled row 1 of the crate, "
        "scored 5 from the crate, took section 2 of the octopus panorama, "
        "scored 2 for panoramas"
    )
    french = Summary(default_catalog(), "fr", "namiji").turn("Ann", NAMIJI_TURN, NAMES)
    assert french == (
        "**Ann** a avancé jusqu'à l'emplacement 5, a pêché un saba orange, "
        "a rempli la ligne 1 du casier, a marqué 5 points grâce au casier, "
        "a pris la section 2 du panorama Pieuvre, a marqué 2 points pour les panoramas"
    )


def test_the_neutral_boat_is_moved_by_the_player() -> None:
    events: list[dict[str, Any]] = [
        {"type": "move", "boat": 2, "seat": None, "to": 52, "spot": 2},
        {"type": "arrival", "boat": 2, "seat": None, "token": "A5"},
    ]
    text = Summary(default_catalog(), "en", "namiji").actions(events, NAMES)
    assert text == (
        "moved the neutral boat to space 52, "
        "the neutral boat reached the port (its arrival token 5 is discarded)"  # D99: no code
    )


def test_final_totals_use_each_games_unit() -> None:
    final = FinalResult(
        scores=(_score(0, "Ann", 21, 1, crate=21), _score(1, "Bo", 1, 2, arrival=1))
    )
    assert Summary(default_catalog(), "en", "namiji").final(final) == [
        "1. **Ann**: 21 points (21 from the crate)",
        "2. **Bo**: 1 point (1 for the arrival)",
    ]
    polish = Summary(default_catalog(), "pl", "namiji").final(final)
    assert polish[0].startswith("1. **Ann** \u2013 21 punktów (")
    assert polish[1].startswith("2. **Bo** \u2013 1 punkt (")


ENGLISH_GAME_WORDS = re.compile(
    r"\b(wood|clay|stone|bamboo|gold|rice|tea|silk|pottery|pearl|coins?|boats?|PP token"
    r"|used|crate_line|panorama_bonus|draft)\b"
)


@pytest.mark.parametrize("locale", ["fr", "it", "pl"])
def test_translated_summaries_of_real_games_have_no_english_game_word(locale: str) -> None:
    """Every turn of a random game of each game, summarised in each translated language."""
    for game in ("yamatai", "namiji"):
        match = games.new(game, ["Ann", "Bo", "Cy"], seed=7)
        while (seat := match.current_seat) is not None:
            match.play(random_player(match.view(seat), seat), seat=seat)
        summary = Summary(default_catalog(), locale, game)
        for turn in replay_turns(match):
            text = summary.turn(match.players[turn.seat], turn.events, match.players)
            assert "{" not in text and not ENGLISH_GAME_WORDS.search(text), text


def test_a_long_batch_of_computer_turns_leaves_the_final_scores_whole() -> None:
    """The oldest computer turns give way (marked "…"); this turn and the scores never do."""
    from bot.present import MAX_CONTENT
    from bot.thread.turns import fitting

    head, earlier = ["🌴 **Roku** is on vacation."], [f"turn {i} " + "x" * 300 for i in range(11)]
    rest = ["**Roku** took fleet 4.", "**Roku** wins!", "1. **Roku**: 50 PP", "2. **Cy**: 40 PP"]
    lines = fitting(head, earlier, rest)
    assert len("\n".join(lines)) <= MAX_CONTENT
    assert lines[:2] == [*head, "…"] and lines[-4:] == rest
    assert lines[2:-4] == earlier[-len(lines[2:-4]) :]
    assert fitting(head, earlier[:2], rest) == [*head, *earlier[:2], *rest]


def test_boats_are_counted_and_named_by_type() -> None:
    """QA: "a clay boat and a clay boat" is counted; placed boats are named, grouped by type."""
    events: list[dict[str, Any]] = [
        {"type": "nakatsu", "seat": 0, "gave": ["gold"], "took": ["clay", "clay"]},
        {"type": "place", "seat": 0, "boat": "clay", "spot": "25"},
        {"type": "place", "seat": 0, "boat": "wood", "spot": "30"},
        {"type": "place", "seat": 0, "boat": "clay", "spot": "31"},
    ]
    expected = {
        "en": "exchanged a gold boat for 2 clay boats (Nakatsu), placed 2 clay boats on spots 25 "
        "and 31 and a wood boat on spot 30",
        "fr": "a échangé un bateau d'or contre 2 bateaux d'argile (Nakatsu), a placé 2 bateaux "
        "d'argile sur les emplacements 25 et 31 et un bateau de bois sur l'emplacement 30",
        "it": "ha scambiato una nave d'oro con 2 navi di argilla (Nakatsu), ha piazzato 2 navi di "
        "argilla sugli spazi 25 e 31 e una nave di legno sullo spazio 30",
        "pl": "wymienia łódź ze złotem na 2 łodzie z gliną (Nakatsu), umieszcza 2 łodzie z gliną "
        "na polach 25 i 31 i łódź z drewnem na polu 30",
    }
    for locale, text in expected.items():
        assert Summary(default_catalog(), locale, "yamatai").actions(events, NAMES) == text


def _namiji_actions(players: list[str], seed: int) -> list[tuple[str, list[Any]]]:
    """Every action of a random Namiji game with the events it caused."""
    match = games.new("namiji", players, seed=seed)
    played = []
    while (seat := match.current_seat) is not None:
        action = random_player(match.view(seat), seat)
        played.append((action, list(match.play(action, seat=seat))))
    return played


@pytest.mark.parametrize("locale", ["en", "fr", "it", "pl"])
def test_every_namiji_action_is_told_in_words(locale: str) -> None:
    """QA: `keep r1c1` made no phrase ("Played: passed"); each action kind now says what it did."""
    summary = Summary(default_catalog(), locale, "namiji")
    nothing = default_catalog().text("summary.nothing", locale)
    kinds: set[str] = set()
    for players, seed in ((["Ann", "Bo"], 1), (["Ann", "Bo", "Cy"], 2), (NAMES * 2, 3)):
        for action, events in _namiji_actions(players, seed):
            text = summary.actions(events, players, played=[action])
            assert text and text != nothing and "{" not in text, (action, events)
            assert not ENGLISH_GAME_WORDS.search(text) or locale == "en", text
            kinds.add(action.split()[0])
    assert {"move", "fish", "keep", "release", "net", "draw", "pick", "end"} <= kinds


def test_a_kept_fish_and_a_net_are_told() -> None:
    summary = Summary(default_catalog(), "en", "namiji")
    kept = [{"type": "kept", "seat": 0, "fish": "os", "cell": "r1c2"}]
    assert summary.actions(kept, NAMES) == "put the fish in row 1, column 2 of the crate"
    net = {"type": "net_placed", "seat": 0, "net": "gt", "cell": "r2c1", "orientation": "v"}
    line = [net, {"type": "crate_line", "seat": 0, "line": "c1"}]
    assert summary.actions(line, NAMES, played=["net N:gt r2c1 v"]) == (
        "placed a net of two green tai down column 1 from row 2, filled column 1 of the crate"
    )
    drawn = [{"type": "drawn", "seat": 0, "token": "CB"}]
    assert summary.actions(drawn, NAMES, played=["draw"]) == "drew a crab"
    lost = [*drawn, {"type": "trap_lost", "seat": 0, "tokens": ["CB", "CB"]}]
    assert summary.actions(lost, NAMES) == "drew a second crab and lost the catch"
    assert summary.actions([{"type": "end_turn", "seat": 0}], NAMES, played=["end"]) == (
        "ended the turn"
    )


@pytest.mark.parametrize("locale", ["en", "fr", "it", "pl"])
def test_the_turn_message_tells_kept_fish_and_nets_from_a_real_game(locale: str) -> None:
    """Issue 21 item 7: the turn message (events only, no notation) says every keep and net."""
    catalog = default_catalog()
    summary = Summary(catalog, locale, "namiji")
    kept_words = catalog.text("namiji.summary.kept", locale, row="@", column="@").split("@")[0]
    net_words = {
        catalog.text(f"namiji.summary.net.{way}", locale, fish="@", row="@", column="@").split("@")[
            0
        ]
        for way in "hv"
    }
    seen = {"keep": 0, "net": 0}
    for players, seed in ((["Ann", "Bo"], 1), (["Ann", "Bo", "Cy"], 2), (NAMES * 2, 3)):
        for action, events in _namiji_actions(players, seed):
            verb = action.split()[0]
            if verb not in seen:
                continue
            text = summary.turn("Ann", events, players)
            said = [kept_words] if verb == "keep" else sorted(net_words)
            assert any(words in text for words in said), (action, text)
            seen[verb] += 1
    assert seen["keep"] and seen["net"], seen


@pytest.mark.parametrize("locale", ["en", "fr", "it", "pl"])
def test_a_pontoon_pick_names_the_player_once(locale: str) -> None:
    """Issue 21 item 7: "**Ann** Ann took the pontoon card U11" lost its doubled name."""
    events = [{"type": "pontoon_card", "seat": 0, "card": "U11"}, {"type": "end_turn", "seat": 0}]
    text = Summary(default_catalog(), locale, "namiji").turn("Ann", events, NAMES)
    assert text.startswith("**Ann** ") and text.count("Ann") == 1 and "U11" not in text, text
    assert default_catalog().text("namiji.card.U11", locale) in text, text  # by its name (D98)


def test_the_leader_moves_the_neutral_boat_in_a_real_two_player_game() -> None:
    """FR rulebook, 2 players: the leader moves the neutral boat; the turn names them and it."""
    match = games.new("namiji", ["Ann", "Bo"], seed=5)
    summary = Summary(default_catalog(), "en", "namiji")
    seen = 0
    while (seat := match.current_seat) is not None:
        view = match.view(seat)
        neutral = view["boat_to_act"] is not None and view["phase"] == "move"
        neutral = neutral and view["boats"][view["boat_to_act"]]["seat"] is None
        action = random_player(view, seat)
        events = match.play(action, seat=seat)
        if neutral:
            seen += 1
            text = summary.turn("Ann", events, match.players)
            assert text.startswith("**Ann** moved the neutral boat to space "), text
    assert seen > 3
