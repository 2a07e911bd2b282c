"""Absent players, resigning, abandoning and starting short-handed, on the Discord double."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from tests.discord_double import ChannelRecord, MessageRecord, UserSpec
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    as_posted,
    custom_id,
    has_png,
    himiko_env,
    run,
)
from tests.e2e.test_play import two_humans
from tests.e2e.test_recovery import finish_turn
from tests.e2e.test_reminders import HOUR, reminders_to, rows
from tests.e2e.test_user_settings import say


def is_new(known: set[int], thread: ChannelRecord) -> bool:
    """Whether a thread is not one of those known before."""
    return thread.id not in known


async def notice(env: Env, table: Table, words: str) -> MessageRecord:
    """The bot's public message in the thread that contains ``words``."""
    return await env.double.wait_for_message(
        table.id, lambda m: not m.ephemeral and words in m.text(), TIMEOUT
    )


async def computer_played(env: Env, table: Table) -> set[int]:
    """Sequence numbers of the actions the computer played for a human seat."""
    repo = env.bot.repo
    assert repo is not None
    return await repo.computer_played((await env.game(table.id)).id)


async def until_turn_of(env: Env, table: Table, wanted: UserSpec, other: UserSpec) -> None:
    """Let ``other`` play whole turns until ``wanted`` is to act (the runner plays between)."""
    for _ in range(6):
        await env.settled()
        if await env.current_user(table.id) == wanted.id:
            return
        assert await env.current_user(table.id) == other.id
        await finish_turn(env, other, table)
    raise AssertionError("the wanted player never came to act")


def test_the_others_hand_the_seat_to_the_computer_until_the_player_comes_back(
    tmp_path: Path,
) -> None:
    """At the deadline the other player votes to hand the seat over: the computer plays it at
    once, marked, with no reminder for it; ``/back`` gives it back and the thread is told."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, absent, other = await two_humans(env)
            env.clock.advance(48 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            [message] = [m for m in env.double.messages(table.id) if not m.attachments]
            hand = custom_id(message, "himiko:deadline:away:")
            refused = await env.double.click(absent, table.id, message.id, hand)
            assert "Only the other players" in (await refused.reply(TIMEOUT)).content
            done = await env.double.click(other, table.id, message.id, hand)
            assert "until its player uses `/back`" in (await done.reply(TIMEOUT)).content
            await notice(env, table, "handed")
            await env.settled()
            assert await env.current_user(table.id) == other.id
            game = await env.game(table.id)
            assert [s.stand_in for s in game.seats if s.user_id == absent.id] == ["away"]
            turn = env.turn_messages(table.id)[-1]
            assert "is away: the computer played" in turn.text()
            assert await computer_played(env, table)

            # while away, the seat's turns are played at once, and nobody reminds the player
            await finish_turn(env, other, table)
            await until_turn_of(env, table, other, absent)
            assert not [
                r
                for r in await rows(env, table)
                if r.user_id == absent.id and not (r.sent_at or r.cancelled_at)
            ]

            back = await (await env.double.slash(absent, table.id, "back")).reply(TIMEOUT)
            assert back.ephemeral and f"<#{table.id}>" in back.content
            await notice(env, table, "is back")
            game = await env.game(table.id)
            assert all(s.stand_in is None for s in game.seats)
            await until_turn_of(env, table, absent, other)
            last = env.turn_messages(table.id)[-1]
            assert as_posted(env.double, last).pinged_user_ids() == [absent.id]
            again = await (await env.double.slash(absent, CHANNEL, "back")).reply(TIMEOUT)
            assert "nothing to come back to" in again.content

    run(body)


def test_with_the_lobby_option_the_computer_takes_over_at_the_deadline(tmp_path: Path) -> None:
    """Opt-in: no vote, the seat goes to the computer at the deadline and the thread says so."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST)
            await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
            menu = custom_id(double.message(lobby.id), "himiko:lobby:takeover:")
            chosen = await double.click(HOST, CHANNEL, lobby.id, menu, ["takeover_on"])
            assert (await chosen.response(TIMEOUT)).type == 7
            assert "computer takes the seat over" in double.message(lobby.id).text()
            start = await env.lobby_click(HOST, double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            [thread] = double.threads(CHANNEL)
            await double.wait_for_message(thread.id, has_png, TIMEOUT)
            game = await env.game(thread.id)
            assert game.computer_takeover
            absent = await env.current_user(thread.id)
            env.clock.advance(48 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            [message] = [m for m in double.messages(thread.id) if not m.attachments]
            assert "takes your seat over" in message.content and message.custom_ids() == []
            assert message.pinged_user_ids() == [absent]
            await env.settled()
            assert await env.current_user(thread.id) not in (absent, None)
            game = await env.game(thread.id)
            assert [s.stand_in for s in game.seats if s.user_id == absent] == ["away"]

    run(body)


def test_on_vacation_the_computer_plays_and_the_others_see_it(tmp_path: Path) -> None:
    """``/settings vacation``: validated, shown, exported; the player's turn is played by the
    computer, marked in the turn message; no reminder for them; ``vacation_end`` ends it."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            bad = await say(env, player, "settings vacation", until="soon")
            assert "YYYY-MM-DD" in bad.content
            far = await say(env, player, "settings vacation", until="2027-06-01")
            assert "at most 30 days" in far.content
            past = await say(env, player, "settings vacation", until="2027-01-14")
            assert "already ended" in past.content
            reply = await say(env, player, "settings vacation", until="2027-01-20")
            assert "Vacation: until <t:" in reply.content
            await notice(env, table, "is on vacation: the computer played")
            await env.settled()
            assert await env.current_user(table.id) == other.id
            assert await computer_played(env, table)
            exported = await say(env, player, "settings export")
            assert "vacation_until" in exported.content
            mine = await (await env.double.slash(player, CHANNEL, "mygames")).reply(TIMEOUT)
            assert mine.is_v2 and "your turn" not in mine.text()
            env.clock.advance(24 * HOUR)
            await env.bot.scheduler.tick()
            assert reminders_to(env, table, player) == []
            ended = await say(env, player, "settings vacation_end")
            assert "Vacation: none" in ended.content
            again = await say(env, player, "settings vacation_end")
            assert "not on vacation" in again.content

    run(body)


def test_one_of_three_humans_resigns_and_the_game_goes_on(tmp_path: Path) -> None:
    """The computer plays the resigner's seat to the end; the game stays active."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST, WATCHER])
            first = await env.current_user(table.id)
            quitter = next(u for u in (HOST, GUEST, WATCHER) if u.id == first)
            ask = await (await env.double.slash(quitter, table.id, "resign")).reply(TIMEOUT)
            assert "rank last" in ask.content
            ok = custom_id(ask, "himiko:resign:ok:")
            assert "Resign" in ask.text()
            yes = await env.double.click(quitter, table.id, ask.id, ok)
            assert "You resigned" in (await yes.reply(TIMEOUT)).content
            await notice(env, table, "resigned: the computer plays their seat")
            await env.settled()
            game = await env.game(table.id)
            assert game.status == "active"
            assert [s.stand_in for s in game.seats if s.user_id == quitter.id] == ["resigned"]
            assert await env.current_user(table.id) not in (quitter.id, None)
            assert "resigned: the computer played" in env.turn_messages(table.id)[-1].text()
            again = await (await env.double.slash(quitter, table.id, "resign")).reply(TIMEOUT)
            assert "already resigned" in again.content
            back = await (await env.double.slash(quitter, table.id, "back")).reply(TIMEOUT)
            assert "You resigned from this game" in back.content  # not "nothing to come back to"

    run(body)


def test_the_host_abandons_a_stuck_game_after_confirming(tmp_path: Path) -> None:
    """Only the host (or a moderator) may; Keep the game keeps it; Confirm ends it, named."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            refused = await (await env.double.slash(GUEST, table.id, "abandon")).reply(TIMEOUT)
            host_name = (await env.game(table.id)).seats[0].player
            assert f"Only the host ({host_name})" in refused.content
            ask = await (await env.double.slash(HOST, table.id, "abandon")).reply(TIMEOUT)
            keep = custom_id(ask, "himiko:abandon:no:")
            kept = await env.double.click(HOST, table.id, ask.id, keep)
            assert "goes on" in (await kept.reply(TIMEOUT)).content
            assert (await env.game(table.id)).status == "active"
            ask = await (await env.double.slash(HOST, table.id, "abandon")).reply(TIMEOUT)
            ok = custom_id(ask, "himiko:abandon:ok:")
            other = await env.double.click(GUEST, table.id, ask.id, ok)
            assert (await other.reply(TIMEOUT)).ephemeral
            done = await env.double.click(HOST, table.id, ask.id, ok)
            assert "abandoned" in (await done.reply(TIMEOUT)).content
            told = await notice(env, table, "abandoned this game")
            assert f"<@{HOST.id}>" in told.text() and told.pinged_user_ids() == []
            assert (await env.game(table.id)).status == "abandoned"

    run(body)


def test_start_with_an_empty_seat_asks_fewer_players_or_computers(tmp_path: Path) -> None:
    """Three seats, two players: Start asks, says how two players play; both answers work."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            for answer, seats in (("few", 2), ("fill", 3)):
                lobby = await env.open_lobby(HOST, seats=3)
                await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
                ask = await env.lobby_click(HOST, double.message(lobby.id), "start")
                assert (await ask.response(TIMEOUT)).type == 7
                question = double.message(lobby.id)
                assert "two turn-order meeples" in question.text()
                assert "Start with 2 players" in question.text()
                before = {t.id for t in double.threads(CHANNEL)}
                click = await env.lobby_click(GUEST, question, answer)
                assert "Only the host" in (await click.reply(TIMEOUT)).content
                go = await env.lobby_click(HOST, double.message(lobby.id), answer)
                await go.wait_event("edit_original", TIMEOUT)
                thread = await double.wait_for_thread(CHANNEL, partial(is_new, before))
                await double.wait_for_message(thread.id, has_png, TIMEOUT)
                game = await env.game(thread.id)
                assert len(game.seats) == seats
                await env.settled()

    run(body)


def test_a_seat_handed_over_just_before_a_kill_is_played_after_the_restart(
    tmp_path: Path,
) -> None:
    """The hand-over is stored, then the process dies before the runner played: the start-up
    sweep plays the away seat, marked, and nobody is reminded for it."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, absent, other = await two_humans(env)
            game = await env.game(table.id)
            [seat] = game.seats_of(absent.id)
            repo = env.bot.repo
            assert repo is not None
            assert await repo.set_stand_in(game.id, seat, "away", now=int(env.clock()))
            await env.restart()
            await env.settled()
            assert await env.current_user(table.id) == other.id
            assert "is away: the computer played" in env.turn_messages(table.id)[-1].text()
            assert await computer_played(env, table)

    run(body)
