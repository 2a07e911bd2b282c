"""A shared victory is said with the plural verb in every language (issue 38 item 12, D208): the
final turn card's title, the result line in the lobby's channel, the lobby's closing note and the
refusal of a finished game ("Mio et Ren ont gagné", never "Mio, Ren a gagné"); a single winner
keeps the singular."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.catalog import default_catalog
from bot.present import error_text
from bot.service import Ended, PlayerInfo, TurnReport
from bot.service.results import FinalResult, FinalScore
from bot.service.tables import game_over
from bot.thread.turns import close_abandoned_lobby, close_lobby, post_result, turn_told
from engine.contract import Outcome, SeatResult

from .fakes import FakeBot, FakeThread

NAMES = ("Mio", "Ren", "Kai")

#: language -> (the final title, the channel's result line, the refusal, the lobby's note), for
#: one winner and for Mio and Ren sharing the victory
SAID = {
    "en": (
        ("Mio wins!", "Mio won a game of Yamatai", "This game is over: Mio won", "Mio won."),
        ("Mio and Ren win!", "Mio and Ren won a game", "over: Mio, Ren won", "Mio and Ren won."),
    ),
    "fr": (
        ("Gagnée par Mio\xa0!", "Mio a gagné une partie", "gagnée par Mio (", "gagnée par Mio."),
        (
            "Gagnée par Mio et Ren\xa0!",
            "Mio et Ren ont gagné une partie",
            "gagnée par Mio, Ren",
            "gagnée par Mio et Ren.",
        ),
    ),
    "it": (
        ("Vince Mio!", "Mio ha vinto una partita", "finita: ha vinto Mio (", "ha vinto Mio."),
        (
            "Vincono Mio e Ren!",
            "Mio e Ren hanno vinto una partita",
            "hanno vinto Mio, Ren",
            "hanno vinto Mio e Ren.",
        ),
    ),
    "pl": (
        ("Wygrywa Mio!", "<#500>: wygrywa Mio (", "zwycięstwo: Mio (", "końca: wygrywa Mio."),
        (
            "Wygrywają Mio i Ren!",
            "wygrywają Mio i Ren (",
            "zwycięstwo: Mio, Ren (",
            "końca: wygrywają Mio i Ren.",
        ),
    ),
}


def players() -> tuple[PlayerInfo, ...]:
    """Three seats, two of them humans."""
    return tuple(
        PlayerInfo(seat=i, name=n, user_id=None if i == 2 else 100 + i, colour="red")
        for i, n in enumerate(NAMES)
    )


def final(ranks: tuple[int, int, int]) -> FinalResult:
    """The final scores with these ranks (a shared first rank is a shared victory)."""
    totals = {1: 30, 2: 20, 3: 10}
    scores = [
        FinalScore(seat=i, name=n, user_id=None, total=totals[r], rank=r, lines={})
        for i, (n, r) in enumerate(zip(NAMES, ranks, strict=True))
    ]
    return FinalResult(scores=tuple(sorted(scores, key=lambda s: s.rank)))


def last_turn(ranks: tuple[int, int, int], language: str) -> TurnReport:
    """A game's last turn (Kai's, in no words) with these results, in ``language``."""
    seats = players()
    return TurnReport(
        game_id=7,
        game="yamatai",
        thread_id=500,
        version=99,
        player=seats[2],
        round=9,
        actions=(),
        events=(),
        players=seats,
        picture=None,
        next_player=None,
        final=final(ranks),
        channel_id=500,
        language=language,
    )


def plain(text: str) -> str:
    """A message without its Markdown bold marks."""
    return text.replace("**", "")


RANKS = [((1, 2, 3), 0), ((1, 1, 3), 1)]


@pytest.mark.parametrize("language", sorted(SAID))
@pytest.mark.parametrize(("ranks", "case"), RANKS, ids=["one_winner", "tie"])
def test_the_final_card_says_who_won_with_the_verb_agreeing(
    language: str, ranks: tuple[int, int, int], case: int
) -> None:
    told = turn_told(cast(Any, FakeBot()), last_turn(ranks, language), language)
    title = plain("\n".join(told.this))
    assert SAID[language][case][0] in title, title


@pytest.mark.parametrize("language", sorted(SAID))
@pytest.mark.parametrize(("ranks", "case"), RANKS, ids=["one_winner", "tie"])
def test_the_result_line_in_the_channel_agrees_with_its_winners(
    language: str, ranks: tuple[int, int, int], case: int
) -> None:
    thread = FakeThread(500)
    asyncio.run(post_result(cast(Any, FakeBot(thread)), last_turn(ranks, language)))
    [sent] = thread.sent
    line = plain(sent["content"])
    assert SAID[language][case][1] in line, line


@pytest.mark.parametrize("language", sorted(SAID))
@pytest.mark.parametrize(("ranks", "case"), RANKS, ids=["one_winner", "tie"])
def test_a_finished_games_refusal_agrees_with_its_winners(
    language: str, ranks: tuple[int, int, int], case: int
) -> None:
    seats = [
        SimpleNamespace(seat=i, user_id=100 + i, player=n, stand_in=None)
        for i, n in enumerate(NAMES)
    ]
    results = tuple(
        SeatResult(seat=i, name=n, score={1: 30, 2: 20, 3: 10}[r], rank=r, lines=())
        for i, (n, r) in enumerate(zip(NAMES, ranks, strict=True))
    )
    winners = tuple(i for i, r in enumerate(ranks) if r == 1)
    outcome = Outcome(results=results, winners=winners, termination=("end",), tie_broken=False)
    match = SimpleNamespace(colours=("red", "blue", "green"), outcome=outcome)
    refusal = game_over(cast(Any, SimpleNamespace(seats=seats)), cast(Any, match))
    said = plain(error_text(default_catalog(), refusal, language))
    assert SAID[language][case][2] in said, said


class LobbyChannel(FakeThread):
    """The lobby's channel: its one message is a lobby posted before cards (an embed)."""

    def __init__(self) -> None:
        super().__init__(500)
        self.lobby = SimpleNamespace(
            components=[], flags=SimpleNamespace(components_v2=False), embeds=[], edit=self.edit
        )

    async def fetch_message(self, message_id: int) -> Any:
        """The lobby message."""
        return self.lobby

    async def edit(self, **kwargs: Any) -> None:
        """Record the lobby's edit."""
        self.edits.append(kwargs)


@pytest.mark.parametrize("language", sorted(SAID))
@pytest.mark.parametrize(("ranks", "case"), RANKS, ids=["one_winner", "tie"])
def test_the_lobbys_closing_note_agrees_with_its_winners(
    language: str, ranks: tuple[int, int, int], case: int
) -> None:
    channel = LobbyChannel()
    asyncio.run(close_lobby(cast(Any, FakeBot(channel)), last_turn(ranks, language)))
    [edit] = channel.edits
    note = plain(edit["embed"].description)
    assert SAID[language][case][3] in note, note


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_lobby_of_a_game_won_by_a_resignation_says_one_winner(language: str) -> None:
    """The one seat a resignation left (D207) won: the singular, as any single winner."""
    channel = LobbyChannel()
    seats = players()
    ended = Ended(
        game_id=7,
        thread_id=500,
        version=9,
        reason="resigned_won",
        player=seats[1],
        winner=seats[0],
        language=language,
        channel_id=500,
        game="yamatai",
    )
    asyncio.run(close_abandoned_lobby(cast(Any, FakeBot(channel)), ended))
    [edit] = channel.edits
    note = plain(edit["embed"].description)
    assert SAID[language][0][3] in note, note
