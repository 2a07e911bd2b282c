"""Every turn message of a finished game becomes its card (issue 37 items 1-2, D200), through the
Discord double: two players play Yamatai, then Namiji, to the end by ``/play``. Each turn message
is then a Components V2 card: its heading names the player to act (whom its post pinged), its
gallery shows the turn picture, at most 1,000 px wide (read at a phone's width), then the whole
board; the last card shows the recap (unless drawing it failed) and the final board."""

from __future__ import annotations

import logging
import struct
from pathlib import Path

import pytest

from bot.service.history import replay_turns
from bot.store import GameStatus
from engine import games
from tests.e2e.harness import (
    GUEST,
    HOST,
    PNG_MAGIC,
    TIMEOUT,
    Env,
    Table,
    as_posted,
    himiko_env,
    run,
    shown,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

MAX_ACTIONS = 600
PHONE_WIDTH = 1000  # issue 37: the turn picture is read at a phone's width
USERS = {HOST.id: HOST, GUEST.id: GUEST}


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its header."""
    assert data.startswith(PNG_MAGIC)
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


async def played_to_the_end(env: Env, key: str) -> Table:
    """A game of the host and the guest, each playing the computer's choice by ``/play``;
    every turn's card is drawn before the next action (settled)."""
    table = await env.start_game(HOST, [GUEST], game=key)
    choose = games.computer_player(key)
    for played in range(MAX_ACTIONS):
        await env.settled()
        game = await env.game(table.id)
        if game.status != GameStatus.ACTIVE:
            return table
        match = await env.match(table.id)
        seat = match.current_seat
        assert seat is not None and game.current_user_id in USERS
        action = choose(match.view(seat), played)
        user = USERS[game.current_user_id]
        reply = await (await env.play(user, table.id, action)).reply(TIMEOUT)
        assert reply.ephemeral and not reply.loading, reply.content
    raise AssertionError("the game does not end")


def recap_failed(records: list[logging.LogRecord]) -> bool:
    """Whether the bot said the recap could not be drawn (the final card is posted without)."""
    return any(r.levelno >= logging.WARNING and "recap" in r.getMessage() for r in records)


@pytest.mark.parametrize(
    ("key", "locale", "heading"),
    [("yamatai", "fr", "### Yamatai · manche "), ("namiji", "pl", "### Namiji · tura ")],
)
def test_every_turn_message_of_a_finished_game_becomes_its_card(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, key: str, locale: str, heading: str
) -> None:
    """A French Yamatai game and a Polish Namiji game (the server's language), to the end."""

    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale=locale) as env:
            double = env.double
            table = await played_to_the_end(env, key)
            game = await env.game(table.id)
            assert game.status == GameStatus.FINISHED
            turns = [t for t in replay_turns(await env.match(table.id)) if t.complete]
            messages = double.messages(table.id, include_ephemeral=False)
            assert all(m.author_id == double.app_id for m in messages)
            opening, *cards = messages  # then one message per turn
            assert len(cards) == len(turns) >= 2
            assert opening.is_v2 and shown(opening) == ["board.png"]
            [board] = opening.gallery_attachments()
            whole = png_size(board.data)  # the whole board, as the opening shows it
            users = {s.seat: s.user_id for s in game.seats}

            for card, following in zip(cards[:-1], turns[1:], strict=True):
                assert card.is_v2 and card.content == "", card.text()
                assert shown(card) == ["turn.png", "board.png"], card.text()
                turn, board = card.gallery_attachments()
                assert png_size(turn.data)[0] <= PHONE_WIDTH
                assert png_size(board.data) == whole
                to_act = users[following.seat]
                assert f"<@{to_act}>" in card.text_displays()[0], card.text_displays()
                assert card.text_displays()[0].startswith(heading), card.text_displays()
                assert as_posted(double, card).pinged_user_ids() == [to_act]

            final = cards[-1]
            assert final.is_v2 and final.content == "", final.text()
            pictures = ["board.png"] if recap_failed(caplog.records) else ["recap.gif", "board.png"]
            assert shown(final) == pictures
            last_board = final.attachment("board.png")
            assert last_board is not None and png_size(last_board.data) == whole
            assert sorted(as_posted(double, final).pinged_user_ids()) == sorted(USERS)

    run(body, timeout=300)
