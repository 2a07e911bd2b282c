"""A complete game: the host against computer players, every board posted, final scores."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.service.history import replay_turns
from bot.store import GameStatus
from tests.e2e.harness import HOST, TIMEOUT, custom_id, has_png, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


MAX_HOST_ACTIONS = 400
SCORE_LINE = re.compile(r"^\d\. \*\*(?P<name>[^*]+)\*\*: -?\d+ PP \(.+\)$", re.MULTILINE)


def test_complete_game_against_computers_posts_every_board(tmp_path: Path) -> None:
    """Host + two computers; the host plays the first suggestion each time until the end."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table = await env.start_game(HOST, computers=2)
            assert "Computer 1" in table.thread.name and "Computer 2" in table.thread.name
            host_actions = 0
            while True:
                await env.bot.runner.idle()  # computer turns, posted as they are played
                game = await env.game(table.id)
                if game.status != GameStatus.ACTIVE:
                    break
                assert game.current_user_id == HOST.id, "computers stopped before the host"
                choices = await env.choices(HOST, table.id, "")
                assert choices, "no suggestion while it is the host's turn"
                rec = await env.play(HOST, table.id, choices[0])
                reply = await rec.reply(TIMEOUT)
                assert reply.ephemeral and f"Played `{choices[0]}`." in reply.content, reply.content
                host_actions += 1
                assert host_actions < MAX_HOST_ACTIONS, "the game does not end"

            assert game.status == GameStatus.FINISHED and game.current_seat is None
            turns = replay_turns(await env.match(table.id))
            assert turns and all(t.complete for t in turns)
            assert {t.seat for t in turns} == {0, 1, 2}

            # the opening board, then one message with its picture per completed turn
            messages = double.messages(table.id, include_ephemeral=False)
            assert all(m.author_id == double.app_id and has_png(m) for m in messages)
            assert len(env.turn_messages(table.id)) == len(messages) == 1 + len(turns)
            names = ["Hana", "Computer 1", "Computer 2"]
            for message, turn in zip(messages[1:], turns, strict=True):
                assert message.content.startswith(f"**{names[turn.seat]}** "), message.content
                assert not message.pings_everyone()
                assert set(message.pinged_user_ids()) <= {HOST.id}

            # pings: the host exactly when the host is next, with a button to open the panel
            for message, nxt in zip(messages[1:-1], turns[1:], strict=True):
                if nxt.seat == 0:
                    assert message.pinged_user_ids() == [HOST.id], message.content
                    custom_id(message, "himiko:open:")
                else:
                    assert message.pinged_user_ids() == []
                    assert message.custom_ids() == []

            # the last message: who won and one scoring line per player, nobody pinged
            final = messages[-1]
            assert "The game is over." in final.content and "wins!" in final.content
            scored = SCORE_LINE.findall(final.content)
            assert sorted(scored) == sorted(names), final.content
            assert final.pinged_user_ids() == [] and final.custom_ids() == []

            # the game is over for commands too
            rec = await env.play(HOST, table.id, "end")
            over = await rec.reply(TIMEOUT)
            assert over.ephemeral and "There is no active game" in over.content

    run(body)
