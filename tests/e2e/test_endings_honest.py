"""Resigning ends a game as the resign prompt says, computer seats counted as players (issue 38
item 1, D207): "If only one other player is left, a person or a computer, they win at once;
otherwise the computer plays your seat to the end". Every end that follows has a winner and
its last message offers Rematch."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import GameStatus
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    Env,
    custom_id,
    has_png,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

MAX_ROUNDS_OF_WAITING = 400

#: locale -> what the resign prompt must promise there: a computer counts as the one player
#: left, who wins at once
PROMISED = {
    "en-US": ("a person or a computer, they win at once", "the computer plays your seat"),
    "fr": ("humain ou ordinateur, il gagne aussitôt", "l'ordinateur joue à ta place"),
    "it": ("persona o computer, vince subito", "il computer gioca al tuo posto"),
    "pl": ("człowiek lub komputer, od razu wygrywa", "za twoje miejsce zagra komputer"),
}

#: locale -> how /rating says a rating needs a game against another person, not the computer
UNRATED = {
    "en-US": "against another person (computer players are not rated)",
    "fr": "contre une autre personne (les ordinateurs ne comptent pas)",
    "it": "contro un'altra persona (i computer non contano)",
    "pl": "przeciwko innej osobie (gracze komputerowi się nie liczą)",
}

#: locale -> the answer to the resignation: done (never "this board is out of date")
SAID_DONE = {
    "en-US": "You resigned.",
    "fr": "Tu as abandonné.",
    "it": "Hai abbandonato la partita.",
    "pl": "Poddajesz grę.",
}


async def resign(env: Env, thread_id: int, user: UserSpec, locale: str = "en-US") -> str:
    """``/resign`` in ``locale``, then Resign: what the prompt said."""
    await env.game(thread_id)  # its id kept: a game that ended is no longer the thread's active one
    ask = await (await env.double.slash(user, thread_id, "resign", locale=locale)).reply(TIMEOUT)
    prompt = ask.content  # the answer edits this message ("You resigned.")
    ok = custom_id(ask, "himiko:resign:ok:")
    yes = await env.double.click(user, thread_id, ask.id, ok, locale=locale)
    answer = await yes.reply(TIMEOUT)
    assert answer.ephemeral and answer.content == SAID_DONE[locale], answer.content
    return prompt


def rematch_offered(message: MessageRecord) -> bool:
    """Whether a message carries the Rematch button."""
    return any(c.startswith("himiko:rematch:") for c in message.custom_ids())


def test_resigning_against_one_computer_makes_the_computer_win_at_once(tmp_path: Path) -> None:
    """The prompt (in each language) says the one player left wins, a computer too; the game
    is finished with the computer first and the resigner second, the ending card says so and
    offers Rematch, the lobby's channel gets the result, and no rating moves (one human), as
    /rating says."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table = await env.start_game(HOST, computers=1)
            for locale, promised in PROMISED.items():
                ask = await (await double.slash(HOST, table.id, "resign", locale=locale)).reply(
                    TIMEOUT
                )
                assert all(p in ask.content for p in promised), ask.content
            await resign(env, table.id, HOST, "fr")
            game = await env.game(table.id)
            assert game.status == GameStatus.FINISHED
            ranked = {s.user_id: (s.final_rank, s.winner, s.stand_in) for s in game.seats}
            assert ranked == {0: (1, True, None), HOST.id: (2, False, "resigned")}
            computer = next(s.player for s in game.seats if s.user_id == 0)
            ending = await double.wait_for_message(
                table.id, lambda m: m.is_v2 and rematch_offered(m), TIMEOUT
            )
            text = ending.text()
            assert f"resigned: **{computer}** wins the game." in text, text
            assert "nobody wins" not in text
            result = await double.wait_for_message(
                CHANNEL, lambda m: "won a game of" in m.content, TIMEOUT
            )
            assert f"**{computer}** won a game of Yamatai" in result.content, result.content
            await env.bot.rooms.ratings.rate_pending()
            rating = await env.bot.rooms.ratings.player(game.guild_id, "yamatai", HOST.id)
            assert rating.games == 0  # a game with one human rates nobody (docs/leagues.md)
            for locale, person in UNRATED.items():  # and /rating says why: no other person
                asked = await double.slash(
                    HOST, CHANNEL, "rating", {"game": "yamatai"}, locale=locale
                )
                said = (await asked.reply(TIMEOUT)).text()
                assert person in said, said

    run(body)


def test_with_a_person_and_a_computer_left_the_game_goes_on(tmp_path: Path) -> None:
    """Two players are left (the guest and a computer): nobody wins at once; the computer
    plays the resigner's seat and the guest still has a game to win."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], computers=1)
            await resign(env, table.id, HOST)
            await env.settled()
            game = await env.game(table.id)
            assert game.status == GameStatus.ACTIVE
            assert [s.stand_in for s in game.seats if s.user_id == HOST.id] == ["resigned"]
            assert not any(s.winner for s in game.seats)
            assert await env.current_user(table.id) == GUEST.id  # the computers played on

    run(body)


def test_alone_against_two_computers_they_play_it_out_and_one_wins(tmp_path: Path) -> None:
    """The host resigns against two computers: the computers play to the end (not "nobody
    wins this one"), a computer wins, the host ranks last and the final card offers Rematch."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, computers=2)
            await resign(env, table.id, HOST)
            for _ in range(MAX_ROUNDS_OF_WAITING):
                await env.bot.runner.idle()
                game = await env.game(table.id)
                if game.status != GameStatus.ACTIVE:
                    break
            assert game.status == GameStatus.FINISHED, game.end_reason
            ranks = {s.user_id: s.final_rank for s in game.seats if s.user_id == HOST.id}
            assert ranks == {HOST.id: 3}
            assert [s.user_id for s in game.seats if s.winner] == [0]
            await env.settled()
            final = env.turn_messages(table.id)[-1]
            assert rematch_offered(final), final.custom_ids()
            assert "(resigned)" in final.text()

    run(body, timeout=300)


def test_an_abandoned_games_ending_card_offers_rematch(tmp_path: Path) -> None:
    """The host abandons a game between two people: the ending card says who did it, names no
    winner, and offers Rematch as every final message does (D207)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table = await env.start_game(HOST, [GUEST], game="nim")
            await env.game(table.id)
            ask = await (await double.slash(HOST, table.id, "abandon")).reply(TIMEOUT)
            ok = custom_id(ask, "himiko:abandon:ok:")
            await (await double.click(HOST, table.id, ask.id, ok)).reply(TIMEOUT)
            ending = await double.wait_for_message(
                table.id, lambda m: m.is_v2 and rematch_offered(m), TIMEOUT
            )
            assert f"<@{HOST.id}>" in ending.text() and "abandoned" in ending.text()
            assert (await env.game(table.id)).status == GameStatus.ABANDONED

    run(body)


def test_a_league_game_won_by_a_resignation_is_rated_ranked_and_offers_rematch(
    tmp_path: Path,
) -> None:
    """A two-seat league table: the host resigns, so the guest wins at once. The ending card
    offers Rematch, the league ranks the host last with the resignation counted, and the
    game is rated (two people): the guest above the host (docs/leagues.md)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            options = {"name": "Piles", "game": "nim", "rounds": 1, "table_size": 2}
            for user, command, given in (
                (HOST, "league create", options),
                (HOST, "league join", {"name": "Piles"}),
                (GUEST, "league join", {"name": "Piles"}),
                (HOST, "league start", {"name": "Piles"}),
            ):
                await (await double.slash(user, CHANNEL, command, given)).reply(TIMEOUT)
            [thread] = double.threads(CHANNEL)
            await double.wait_for_message(thread.id, lambda m: m.is_v2, TIMEOUT)
            await resign(env, thread.id, HOST)
            game = await env.game(thread.id)
            assert game.status == GameStatus.FINISHED
            assert {s.user_id: s.winner for s in game.seats} == {HOST.id: False, GUEST.id: True}
            ending = await double.wait_for_message(
                thread.id, lambda m: m.is_v2 and rematch_offered(m), TIMEOUT
            )
            assert "resigned: **" in ending.text()
            await double.wait_for_message(CHANNEL, lambda m: "Piles" in m.content, TIMEOUT)
            rooms = env.bot.rooms
            league = await rooms.leagues.get(game.guild_id, "Piles")
            lines = {line.user_id: line for line in (await rooms.leagues.standings(league)).lines}
            assert (lines[GUEST.id].rank, lines[GUEST.id].wins) == (1, 1)
            assert (lines[HOST.id].rank, lines[HOST.id].resigned) == (2, 1)
            ratings = await rooms.ratings.displayed_ratings(game.guild_id, "nim")
            assert ratings[GUEST.id] > ratings[HOST.id]

    run(body)


#: language -> the ending card's words and the channel's result line for a computer's win
WON = {
    "fr": ("a abandonné\xa0: **{computer}** gagne la partie.", "**{computer}** a gagné une partie"),
    "pl": ("poddaje grę: wygrywa **{computer}**.", "wygrywa **{computer}**, **"),
}


@pytest.mark.parametrize("language", sorted(WON))
def test_a_resignation_the_computer_won_is_told_in_the_games_language(
    tmp_path: Path, language: str
) -> None:
    """A French or Polish game against one computer: the prompt (in the player's language)
    and the result (in the game's) agree: the computer, the one player left, won."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST, seats=2, computers=True)
            menu = custom_id(lobby, "himiko:lobby:lang:")
            chosen = await double.click(HOST, CHANNEL, lobby.id, menu, values=[language])
            assert (await chosen.response(TIMEOUT)).type == 7
            start = await env.lobby_click(HOST, double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            [thread] = double.threads(CHANNEL)
            await double.wait_for_message(thread.id, has_png, TIMEOUT)
            prompt = await resign(env, thread.id, HOST, language)
            assert PROMISED[language][0] in prompt, prompt
            game = await env.game(thread.id)
            computer = next(s.player for s in game.seats if s.user_id == 0)
            card, line = (said.format(computer=computer) for said in WON[language])
            ending = await double.wait_for_message(
                thread.id, lambda m: m.is_v2 and rematch_offered(m), TIMEOUT
            )
            assert card in ending.text(), ending.text()
            result = await double.wait_for_message(
                CHANNEL, lambda m: computer in m.content and "<#" in m.content, TIMEOUT
            )
            assert line in result.content, result.content

    run(body)
