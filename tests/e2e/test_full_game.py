"""A complete game: the host against computer players, every board posted, final scores."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.service import TurnRecord
from bot.service.history import replay_turns
from bot.store import GameStatus
from tests.e2e.harness import (
    CHANNEL,
    HOST,
    TIMEOUT,
    as_posted,
    but_rules,
    custom_id,
    himiko_env,
    run,
    shown,
)

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
                await env.settled()  # computer turns, posted as they are played
                game = await env.game(table.id)
                if game.status != GameStatus.ACTIVE:
                    break
                assert game.current_user_id == HOST.id, "computers stopped before the host"
                choices = await env.choices(HOST, table.id, "")
                assert choices, "no suggestion while it is the host's turn"
                rec = await env.play(HOST, table.id, choices[0])
                reply = await rec.reply(TIMEOUT)
                answer = reply.content
                assert reply.ephemeral and f"(notation: `{choices[0]}`)" in answer, answer
                host_actions += 1
                assert host_actions < MAX_HOST_ACTIONS, "the game does not end"

            assert game.status == GameStatus.FINISHED and game.current_seat is None
            turns = replay_turns(await env.match(table.id))
            assert turns and all(t.complete for t in turns)
            assert {t.seat for t in turns} == {0, 1, 2}

            # the opening board, then one message per host turn and one per run of computer
            # turns between two host turns (each computer turn in words), each a card: the
            # opening shows the board, a turn its turn picture and the board, the last one the
            # recap and the final board
            runs: list[list[TurnRecord]] = []
            for turn in turns:
                if runs and turn.seat != 0 and runs[-1][0].seat != 0:
                    runs[-1].append(turn)
                else:
                    runs.append([turn])
            assert any(len(run) == 2 for run in runs)
            messages = double.messages(table.id, include_ephemeral=False)
            assert all(m.author_id == double.app_id and m.is_v2 for m in messages)
            assert len(env.turn_messages(table.id)) == len(messages) == 1 + len(runs)
            assert shown(messages[0]) == ["board.png"]
            assert all(shown(m) == ["turn.png", "board.png"] for m in messages[1:-1])
            assert shown(messages[-1]) == ["recap.gif", "board.png"]
            assert all(
                sorted(a.filename for a in m.attachments) == sorted(shown(m)) for m in messages
            )
            names = ["Hana", "Computer 1 (normal)", "Computer 2 (normal)"]
            for message, run in zip(messages[1:], runs, strict=True):
                told = message.text_displays()[1]
                assert told.startswith(f"**{names[run[0].seat]}** "), told
                lines = told.splitlines()
                said = [n for line in lines for n in names if line.startswith(f"**{n}** ")]
                assert said == [names[t.seat] for t in run], told
                posted = as_posted(double, message)
                assert not posted.pings_everyone() and not message.pings_everyone()
                assert set(posted.pinged_user_ids()) <= {HOST.id}

            # pings: the host exactly when the host is next, with a button to open the panel
            for message, nxt in zip(messages[1:-1], runs[1:], strict=True):
                if nxt[0].seat == 0:
                    assert as_posted(double, message).pinged_user_ids() == [HOST.id]
                    assert f"<@{HOST.id}>" in message.text_displays()[0], message.text()
                    custom_id(message, "himiko:open:")
                else:
                    assert as_posted(double, message).pinged_user_ids() == []
                    assert but_rules(message) == []

            # the last message: who won and one scoring line per player; every human pinged once
            final = messages[-1]
            words = final.text()
            assert "The game is over." in words and "wins!" in words
            scored = SCORE_LINE.findall(words)
            assert sorted(scored) == sorted(names), words
            assert as_posted(double, final).pinged_user_ids() == [HOST.id]
            assert [c.split(":")[1] for c in but_rules(final)] == ["rematch"]  # issue 21
            winner = next(n for n in names if f"**{n}** wins!" in words)

            # the lobby's channel gets one line with a link; the lobby says who won
            [result] = [
                m
                for m in double.messages(CHANNEL, include_ephemeral=False)
                if m.id != table.lobby.id
            ]
            assert f"<#{table.id}>" in result.content, result.content
            assert result.content.startswith(f"**{winner}** won a game of Yamatai")
            assert result.pinged_user_ids() == []
            lobby = double.message(table.lobby.id)
            assert f"is over: **{winner}** won." in lobby.text() and lobby.custom_ids() == []

            # the game is over for commands too
            rec = await env.play(HOST, table.id, "end")
            over = await rec.reply(TIMEOUT)
            assert over.ephemeral and "no active game" not in over.content
            assert f"This game is over: **{winner}** won (" in over.content, over.content

    run(body)
