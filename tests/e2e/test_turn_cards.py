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
from engine.contract import ComputerPlayer
from engine.games import Match
from tests.discord_double import UserSpec
from tests.e2e.harness import (
    GUEST,
    HOST,
    PNG_MAGIC,
    TIMEOUT,
    Env,
    Table,
    as_posted,
    custom_id,
    himiko_env,
    run,
    shown,
)
from tests.e2e.test_play import shows_hidden

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

MAX_ACTIONS = 600
#: A turn of this many actions or more is played as one confirmed sequence.
SEQUENCE_FROM = 3
PHONE_WIDTH = 1000  # issue 37: the turn picture is read at a phone's width
USERS = {HOST.id: HOST, GUEST.id: GUEST}


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its header."""
    assert data.startswith(PNG_MAGIC)
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def next_play(match: Match, choose: ComputerPlayer, played: int) -> list[str]:
    """The computer's choices for the player to act, from action number ``played`` on, until
    the turn ends; an action that reveals hidden information is played alone."""
    seat = match.current_seat
    chosen: list[str] = []
    while True:
        action = choose(match.view(seat), played + len(chosen))
        if shows_hidden(match, action):
            return chosen or [action]
        events = match.play(action, seat=seat)
        chosen.append(action)
        if match.milestones(events).turn_ended or match.current_seat != seat:
            return chosen


async def played_to_the_end(env: Env, key: str) -> Table:
    """A game of the host and the guest, each playing the computer's choices by ``/play``;
    every turn's card is drawn before the next action (settled). A turn of ``SEQUENCE_FROM``
    actions or more is one ``/play`` of them all, confirmed (one preview picture, not a step
    picture per action: the test is about the turn messages)."""
    table = await env.start_game(HOST, [GUEST], game=key)
    choose = games.computer_player(key)
    played = 0
    while played < MAX_ACTIONS:
        await env.settled()
        game = await env.game(table.id)
        if game.status != GameStatus.ACTIVE:
            return table
        match = await env.match(table.id)
        assert match.current_seat is not None and game.current_user_id in USERS
        user = USERS[game.current_user_id]
        actions = next_play(match, choose, played)
        if len(actions) >= SEQUENCE_FROM:
            await confirmed(env, user, table, "; ".join(actions))
        else:
            for number, action in enumerate(actions):
                if number:
                    await env.settled()
                reply = await (await env.play(user, table.id, action)).reply(TIMEOUT)
                assert reply.ephemeral and not reply.loading, reply.content
        played += len(actions)
    raise AssertionError("the game does not end")


async def confirmed(env: Env, user: UserSpec, table: Table, sequence: str) -> None:
    """``/play`` of a sequence, then Confirm on its preview: the sequence is played."""
    preview = await (await env.play(user, table.id, sequence)).reply(TIMEOUT)
    assert preview.ephemeral and not preview.loading, preview.text()
    ok = custom_id(preview, "himiko:seq:ok:")
    click = await env.double.click(user, table.id, preview.id, ok)
    assert (await click.response(TIMEOUT)).type == 6  # deferred update: the preview is edited
    await click.wait_event("edit_original", TIMEOUT)
    done = env.double.message(preview.id)
    assert done.custom_ids() == [] and done.attachments == [], done.text()


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
