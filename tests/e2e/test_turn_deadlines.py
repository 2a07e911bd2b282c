"""Every turn has its own deadline (issue 24): the two turns a seat plays in one round of
two-player Yamatai, and votes on a hand-over that arrive together, on the Discord double."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import (
    CHANNEL,
    TIMEOUT,
    Env,
    Table,
    as_posted,
    custom_id,
    himiko_env,
    run,
)
from tests.e2e.test_play import two_humans
from tests.e2e.test_recovery import finish_turn
from tests.e2e.test_reminders import HOUR, reminders_to

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def deadline_messages(env: Env, table: Table) -> list[MessageRecord]:
    """The bot's deadline messages in the thread (those with the Skip button), oldest first."""
    return [
        m
        for m in env.double.messages(table.id, include_ephemeral=False)
        if any(c.startswith("himiko:deadline:skip:") for c in m.custom_ids())
    ]


async def at_the_first_deadline(env: Env) -> tuple[Table, UserSpec, UserSpec, MessageRecord]:
    """Two humans, the first's deadline passed: the table, the absent and the other player,
    and the one deadline message (with its vote buttons)."""
    table, absent, other = await two_humans(env)
    env.clock.advance(48 * HOUR)
    assert await env.bot.scheduler.tick() == 1
    [message] = deadline_messages(env, table)
    return table, absent, other, message


def test_the_second_turn_of_a_seat_in_a_round_has_its_own_deadline_reminders_and_votes(
    tmp_path: Path,
) -> None:
    """Two players: each plays two turns in round 1. The first player's second turn gets its
    own deadline (shown in its turn message and ``/mygames``), its own reminders and deadline
    message; the first turn's Skip button does not skip it."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other, first = await at_the_first_deadline(env)
            old_skip = custom_id(first, "himiko:deadline:skip:")

            await finish_turn(env, player, table)  # late, but before anyone voted
            await finish_turn(env, other, table)
            assert await env.current_user(table.id) == player.id
            assert (await env.match(table.id)).turn_info.round == 1  # the same round and seat

            deadline = int(env.clock()) + 48 * HOUR
            turn = env.turn_messages(table.id)[-1]
            assert as_posted(env.double, turn).pinged_user_ids() == [player.id]
            assert f"<t:{deadline}:R>" in turn.text_displays()[0]  # the card's heading
            listed = await (await env.double.slash(player, CHANNEL, "mygames")).reply(TIMEOUT)
            assert f"<t:{deadline}:R>" in listed.text()

            click = await env.double.click(other, table.id, first.id, old_skip)
            assert "already over" in (await click.reply(TIMEOUT)).content
            assert await env.current_user(table.id) == player.id

            env.clock.advance(24 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            half = reminders_to(env, table, player)[-1]
            assert "a reminder" in half.content and f"<t:{deadline}:R>" in half.content
            env.clock.advance(24 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            second = deadline_messages(env, table)[-1]
            assert second.id != first.id and f"<t:{deadline}:R>" in second.content
            skip = custom_id(second, "himiko:deadline:skip:")
            assert skip != old_skip
            done = await env.double.click(other, table.id, second.id, skip)
            assert "skipped" in (await done.reply(TIMEOUT)).content
            assert await env.current_user(table.id) == other.id

    run(body)


def test_votes_that_hand_the_seat_over_together_post_one_notice(tmp_path: Path) -> None:
    """The other player clicks the hand-over button three times at once: the seat goes to the
    computer once, the thread is told once, and the buttons are taken off the message."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, absent, other, message = await at_the_first_deadline(env)
            hand = custom_id(message, "himiko:deadline:away:")
            clicks = await asyncio.gather(
                *(env.double.click(other, table.id, message.id, hand) for _ in range(3))
            )
            replies = [(await c.reply(TIMEOUT)).content for c in clicks]
            assert all("until its player uses `/back`" in r or "already over" in r for r in replies)
            await env.settled()
            assert env.double.message(message.id).component(hand) is None  # decided: no buttons
            notices = [
                m
                for m in env.double.messages(table.id, include_ephemeral=False)
                if "handed" in m.content
            ]
            assert len(notices) == 1, [m.content for m in notices]
            game = await env.game(table.id)
            assert [s.stand_in for s in game.seats if s.user_id == absent.id] == ["away"]

    run(body)


def test_a_failed_edit_leaves_the_buttons_and_changes_nothing_else(tmp_path: Path) -> None:
    """Discord refuses (503) the edit that takes the vote's buttons off: the vote still counts,
    the voter is told, the seat is handed over once; only the buttons stay (logged, no ERROR)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, absent, other, message = await at_the_first_deadline(env)
            hand = custom_id(message, "himiko:deadline:away:")
            env.double.faults.fail(EDIT, message_id=message.id)
            done = await env.double.click(other, table.id, message.id, hand)
            assert "until its player uses `/back`" in (await done.reply(TIMEOUT)).content
            await env.settled()
            assert env.double.message(message.id).component(hand) is not None  # kept
            game = await env.game(table.id)
            assert [s.stand_in for s in game.seats if s.user_id == absent.id] == ["away"]

    run(body)
