"""A turn card stays within Discord's limits for a layout message in every language (issue 37
item 5): many computer turns told at once, long names, a final turn's results. Judged by the
Discord double's own V2 validator (the rules it cites from Discord's documentation)."""

from __future__ import annotations

import random

import pytest

from bot.cards import MAX_CARD_TEXT
from bot.service import PlayerInfo, TurnId, TurnRecord, TurnReport
from bot.service.messages import FinalExtras
from bot.service.tables import final_result
from bot.thread.turn_cards import CardPictures, turn_card
from engine import games
from tests.discord_double.validate import check_v2_components

from .fakes import FakeBot

NAMES = ["Wiktoria Ź" + "ż" * 20, "Jean-Baptiste " + "é" * 18, "Giulia " + "à" * 25]


def played_turns(seed: int) -> tuple[games.Match, list[TurnRecord]]:
    """A whole three-player Yamatai game played at random, each completed turn with its events."""
    match = games.new("yamatai", NAMES, seed)
    rng = random.Random(seed)
    turns: list[TurnRecord] = []
    seat, events, actions = match.current_seat, [], []
    while match.outcome is None:
        action = rng.choice(match.legal_actions())
        events += match.play(action)
        actions.append(action)
        if match.current_seat != seat or match.outcome is not None:
            turns.append(
                TurnRecord(
                    seat=seat or 0,
                    round=1,
                    actions=tuple(actions),
                    events=tuple(events),
                    complete=True,
                )
            )
            seat, events, actions = match.current_seat, [], []
    return match, turns


@pytest.mark.parametrize("language", ["en", "fr", "it", "pl"])
def test_a_final_card_with_thirty_computer_turns_fits_and_keeps_the_last_turn(
    language: str,
) -> None:
    """Thirty turns told before the last one: the oldest go (marked "…"), the last turn and
    the results stay, and the layout passes Discord's V2 rules (40 components, 4,000 chars)."""
    match, turns = played_turns(seed=11)
    colours = match.colours
    players = tuple(
        PlayerInfo(seat=i, name=n, user_id=None if i else 77, colour=colours[i])
        for i, n in enumerate(NAMES)
    )
    assert match.outcome is not None
    last = turns[-1]
    report = TurnReport(
        game_id=1,
        game="yamatai",
        thread_id=500,
        version=len(match.log),
        player=players[last.seat],
        round=last.round,
        actions=last.actions,
        events=last.events,
        players=players,
        picture=None,
        next_player=None,
        final=final_result(players, match.outcome),
        earlier=tuple(turns[-31:-1]),
        language=language,
    )
    pictures = CardPictures(board=b"png", recap=b"gif")
    final = FinalExtras(coach=True, recap=b"gif")
    view, files = turn_card(FakeBot(), report, language, None, pictures, final=final)  # type: ignore[arg-type]
    components = view.to_components()  # type: ignore[no-untyped-call]
    check_v2_components(components)
    shown = [c["content"] for c in components[0]["components"] if c["type"] == 10]
    assert sum(map(len, shown)) <= MAX_CARD_TEXT
    heading, body = shown
    assert heading.startswith("### Yamatai")
    assert "…" in body.splitlines()  # the oldest computer turns were left out
    assert body.splitlines()[-1] and not body.endswith("…")  # the results were not cut
    assert [f.filename for f in files] == ["recap.gif", "board.png"]


@pytest.mark.parametrize(("language", "said"), [("en", "turn 6"), ("pl", "tura 6")])
def test_the_heading_names_the_turn_now_played_not_the_one_just_played(
    language: str, said: str
) -> None:
    """Turn 5 was just played; the player pinged plays turn 6: the heading says 6, as the
    turn picture's title does (the play-through read "tura 5" above "Tura 6")."""
    match = games.new("namiji", ["Ann", "Bo"], 3)
    players = tuple(
        PlayerInfo(seat=i, name=n, user_id=70 + i, colour=match.colours[i])
        for i, n in enumerate(["Ann", "Bo"])
    )
    report = TurnReport(
        game_id=1,
        game="namiji",
        thread_id=500,
        version=9,
        player=players[0],
        round=5,
        actions=("end",),
        events=(),
        players=players,
        picture=None,
        next_player=players[1],
        next_turn=TurnId(round=6, seat=1, start=9),
        language=language,
    )
    view, _ = turn_card(FakeBot(), report, language, None, CardPictures())  # type: ignore[arg-type]
    components = view.to_components()  # type: ignore[no-untyped-call]
    heading = components[0]["components"][0]["content"]
    assert heading.startswith(f"### Namiji · {said}\n<@71>"), heading
