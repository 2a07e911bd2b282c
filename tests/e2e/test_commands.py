"""The other commands and buttons: undo, board, log, games, quick double clicks, resign, lobby."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.harness import (
    CHANNEL,
    COMMANDS,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    custom_id,
    has_png,
    himiko_env,
    run,
    shown,
)
from tests.e2e.test_play import assert_clean_error, public, rest_of_turn, two_humans
from tests.waiting import eventually

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def test_undo_board_log_and_games(tmp_path: Path) -> None:
    """``/undo`` takes back an action; ``/board``, ``/log`` and ``/games`` read the game."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, player, other = await two_humans(env)
            first = (await env.choices(player, table.id, ""))[0]
            await (await env.play(player, table.id, first)).reply(TIMEOUT)
            version = await env.version(table.id)

            refused = await double.slash(other, table.id, "undo")
            assert_clean_error(await refused.reply(TIMEOUT))
            rec = await double.slash(player, table.id, "undo")
            undone = await rec.reply(TIMEOUT)
            assert undone.ephemeral and "Took back " in undone.content
            assert f"(notation: `{first}`)" in undone.content  # the words first
            assert "Step: " in undone.content  # where the turn stands now, as /play says
            await double.wait_for_message(  # the board follows the words (D100)
                table.id, lambda m: m.id == undone.id and has_png(m), TIMEOUT
            )
            assert (await env.match(table.id)).log == []
            assert await env.version(table.id) != version

            rec = await double.slash(WATCHER, table.id, "board")
            board = await rec.reply(TIMEOUT)
            assert board.ephemeral and has_png(board) and "Round 1" in board.content
            posted = len(public(env, table))
            rec = await double.slash(player, table.id, "board", {"public": True})
            shown = await rec.reply(TIMEOUT)
            assert not shown.ephemeral and has_png(shown) and shown.pinged_user_ids() == []
            assert len(public(env, table)) == posted + 1

            rec = await double.slash(WATCHER, table.id, "log")
            assert "No turn has been played yet" in (await rec.reply(TIMEOUT)).content
            sequence = "; ".join(rest_of_turn(await env.match(table.id)))
            preview = await (await env.play(player, table.id, sequence)).reply(TIMEOUT)
            confirm = custom_id(preview, "himiko:seq:ok:")
            await (await double.click(player, table.id, preview.id, confirm)).wait_event(
                "edit_original", TIMEOUT
            )
            rec = await double.slash(WATCHER, table.id, "log")
            log = (await rec.reply(TIMEOUT)).content
            assert "Recent turns" in log
            # a built tile lies face down (R34): the log shows others "build ? A1" (D86), not
            # the tile's id
            for part in sequence.split("; "):
                expected = part if not part.startswith("build ") else f"build ? {part.split()[-1]}"
                assert expected in log, part

            # the server's table lists the game being played, whose turn it is, for anyone
            for reader in (other, player, WATCHER):
                rec = await double.slash(reader, CHANNEL, "games")
                games = (await rec.reply(TIMEOUT)).text()
                assert f"Yamatai in <#{table.id}>: <@{other.id}> to play" in games
            rec = await double.slash(WATCHER, CHANNEL, "mygames")
            assert "You have no active game" in (await rec.reply(TIMEOUT)).text()

    run(body)


def test_two_quick_confirms_apply_the_turn_once(tmp_path: Path) -> None:
    """Confirm clicked twice at once: one turn saved, one turn message, one refusal."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, player, _other = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            preview = await (await env.play(player, table.id, "; ".join(actions))).reply(TIMEOUT)
            confirm = custom_id(preview, "himiko:seq:ok:")
            posted = len(public(env, table))
            clicks = await asyncio.gather(
                double.click(player, table.id, preview.id, confirm),
                double.click(player, table.id, preview.id, confirm),
            )
            answered = ("followup", "edit_original")
            await double.state.notifier.wait_for(
                lambda: all(any(e.kind in answered for e in c.events) for c in clicks) or None,
                TIMEOUT,
                "both clicks answered",
            )
            await env.quiet()
            winners = [c for c in clicks if any(e.kind == "edit_original" for e in c.events)]
            assert len(winners) == 1
            assert len(public(env, table)) == posted + 1
            log = (await env.match(table.id)).log
            assert [t for _, t in log] == actions  # applied once
            [refusal] = [m for c in clicks for m in c.followups()]
            assert_clean_error(refusal)

    run(body)


def test_resigning_in_a_two_player_game_makes_the_other_player_win(tmp_path: Path) -> None:
    """``/resign`` asks first; Keep playing keeps it; Resign: the opponent wins at once."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, player, other = await two_humans(env)
            refused = await double.slash(WATCHER, table.id, "resign")
            assert_clean_error(await refused.reply(TIMEOUT))

            ask = await (await double.slash(other, table.id, "resign")).reply(TIMEOUT)
            assert ask.ephemeral and "Resign from this game?" in ask.content
            keep = await double.click(other, table.id, ask.id, custom_id(ask, "himiko:resign:no:"))
            assert "the game goes on" in (await keep.reply(TIMEOUT)).content
            assert (await env.game(table.id)).status == "active"

            ask = await (await double.slash(other, table.id, "resign")).reply(TIMEOUT)
            posted = len(public(env, table))
            yes = await double.click(other, table.id, ask.id, custom_id(ask, "himiko:resign:ok:"))
            assert "You resigned" in (await yes.reply(TIMEOUT)).content
            note = await double.wait_for_message(
                table.id, lambda m: not m.ephemeral and "resigned" in m.text(), TIMEOUT
            )
            assert len(public(env, table)) == posted + 1 and note.pinged_user_ids() == []
            assert note.is_v2 and "wins the game" in note.text()  # the ending's card (D200)
            assert shown(note)[-1:] == ["board.png"]  # the board as it stood
            # the lobby's channel is told too (QA: it still said the game had started)
            result = await double.wait_for_message(
                CHANNEL, lambda m: "won a game of" in m.content, TIMEOUT
            )
            assert result.content.startswith(
                f"**{player.global_name or player.name}** won a game of"
            )
            assert f"<#{table.id}>" in result.content and "resigned" in result.content
            assert result.pinged_user_ids() == []
            closed = f"is over: **{player.global_name or player.name}** won."
            # the lobby is edited right after the result line
            await eventually(
                lambda: closed in double.message(table.lobby.id).text(), "the lobby closed"
            )
            lobby = double.message(table.lobby.id)
            assert closed in lobby.text(), lobby.text()
            assert lobby.custom_ids() == []
            game = await env.game(table.id)
            assert game.status == "finished" and game.end_reason is not None
            winners = [s.user_id for s in game.seats if s.winner]
            assert winners == [player.id]
            rec = await env.play(player, table.id, "fleet 1")
            over = (await rec.reply(TIMEOUT)).content
            assert "This game is over" in over and "resigned" in over, over
            for command in ("turn", "undo", "resign"):  # never "there is no game here"
                reply = await (await double.slash(player, table.id, command)).reply(TIMEOUT)
                assert reply.ephemeral and "This game is over" in reply.content, reply.content

    run(body)


def test_lobby_leave_full_and_cancel(tmp_path: Path) -> None:
    """Leave, a full table, the host who cannot leave, and Cancel closing the lobby."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST, seats=2)
            await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
            # a full table: the card offers no Join (discord.py answers no click on a custom id
            # the message does not show); the host's seat shows a badge that cannot be clicked
            full = double.message(lobby.id)
            assert not [c for c in full.custom_ids() if ":join:" in c]
            badge = full.component(f"himiko:lobby:player:{HOST.id}")
            assert badge is not None and badge["disabled"] and badge["label"] == "Host"
            guest_seat = f"himiko:lobby:player:{GUEST.id}"
            left = await double.click(GUEST, CHANNEL, lobby.id, guest_seat)
            assert (await left.response(TIMEOUT)).type == 7
            assert "Kenji" not in double.message(lobby.id).text()
            alone = await env.lobby_click(HOST, double.message(lobby.id), "start")
            assert (await alone.response(TIMEOUT)).type == 7  # asks: fill with computers?
            assert "at least 2 players" in double.message(lobby.id).text()
            back = await env.lobby_click(HOST, double.message(lobby.id), "back")
            assert (await back.response(TIMEOUT)).type == 7
            cancel = await env.lobby_click(HOST, double.message(lobby.id), "cancel")
            assert (await cancel.response(TIMEOUT)).type == 7
            closed = double.message(lobby.id)
            assert closed.custom_ids() == [] and "cancelled" in closed.text()
            assert double.threads(CHANNEL) == []

            in_thread = await env.start_game(HOST, [GUEST])
            rec = await double.slash(HOST, in_thread.id, "new", {"game": "yamatai"})
            assert "not in a thread" in (await rec.reply(TIMEOUT)).content

    run(body)


def test_help_in_a_game_s_thread_shows_that_game_s_examples(tmp_path: Path) -> None:
    """In a Namiji thread ``/help`` gives Namiji's whole-turn example and notes, not Yamatai's
    (Italian play-through PN 15); in a channel, the first game's example and every game's
    notes."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:

            async def helped(channel: int) -> str:
                return (
                    await (await env.double.slash(WATCHER, channel, "help")).reply(TIMEOUT)
                ).text()

            table = await env.start_game(HOST, computers=1, game="namiji")
            there = await helped(table.id)
            assert "`/play action: move 7; end`" in there and "fleet 4" not in there
            assert "`pick Double prise`" in there and "bambou" not in there  # its own names
            assert "In Namiji an action that turns over something hidden" in there
            here = await helped(CHANNEL)
            assert "`/play action: fleet 4; buy wood; place wood 12; ...`" in here
            assert "`place bambou 12`, `pick Double prise`" in here
            assert "In Namiji an action that turns over something hidden" in here

    run(body)


def test_help_says_what_himiko_is_how_to_start_and_the_three_ways_to_play(tmp_path: Path) -> None:
    """``/help`` works anywhere, privately, whole in every language."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            reply = await (await env.double.slash(WATCHER, CHANNEL, "help")).reply(TIMEOUT)
            assert reply.ephemeral and reply.pinged_user_ids() == []
            text = reply.text()
            assert "Yamatai" in text and "Namiji" in text and "`/new game:`" in text
            for way in ("`/play action:`", "`/turn`", "separated by `;`"):
                assert way in text, way
            for command in COMMANDS:
                assert f"`/{command}`" in text, command
            for locale in ("en-US", "fr", "it", "pl"):  # whole in every language, never clipped
                said = await env.double.slash(WATCHER, CHANNEL, "help", locale=locale)
                text = (await said.reply(TIMEOUT)).text()
                assert not text.endswith("…") and all(f"`/{c}`" in text for c in COMMANDS), locale

    run(body)
